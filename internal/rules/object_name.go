package rules

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var objectName = &check.Rule{
	ID:       "object-name",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "metadata.name (or metadata.namespace) is not a name the API server accepts for the kind.",
	Doc:      doc("object-name"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, o := range c.All() {
			if !o.Known {
				continue // a wrong apiVersion or a type error is refused before the name is looked at
			}
			if o.Name != "" {
				for _, msg := range validation.IsDNS1123Subdomain(o.Name) {
					c.Report(o, manifest.Path{"metadata", "name"}, "%s; the API server refuses the %s%s",
						field.Invalid(field.NewPath("metadata", "name"), o.Name, msg).Error(), o.Kind, nameHint(o.Name, validation.DNS1123SubdomainMaxLength, true))
				}
			}
			if !namespacedKinds[o.Kind] {
				continue
			}
			if ns, ok := o.Content["metadata"].(map[string]any)["namespace"].(string); ok && ns != "" {
				for _, msg := range validation.IsDNS1123Label(ns) {
					c.Report(o, manifest.Path{"metadata", "namespace"}, "%s; the API server refuses the %s%s",
						field.Invalid(field.NewPath("metadata", "namespace"), ns, msg).Error(), o.Kind, nameHint(ns, validation.DNS1123LabelMaxLength, false))
				}
			}
		}
	},
}

// namespacedKinds are the kinds mirrorlint reads that live in a namespace;
// every other one is cluster-scoped, and the API server clears a
// namespace written on it instead of refusing it.
var namespacedKinds = map[manifest.Kind]bool{"ImagePolicy": true}

var nameInvalidRun = regexp.MustCompile(`[^a-z0-9.-]+`)

// shellVar is a placeholder a script fills in before the file is applied
// (envsubst, sed, a shell heredoc): ${ROLE} or $ROLE.
var shellVar = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*`)

// nameHint says how to fix an invalid name: a name holding a script's
// placeholder is a template, whose spelling is not the mistake; any other
// gets an accepted spelling (nameFix).
func nameHint(s string, max int, dots bool) string {
	if v := shellVar.FindString(s); v != "" {
		return fmt.Sprintf(": %s is a placeholder a script fills in before the file is applied; lint what the script writes, or leave the template out (exclude: in .mirrorlint.yaml)", v)
	}
	return nameFix(s, max, dots)
}

// nameFix proposes an accepted spelling of s: lower case, every run of
// other characters a "-", no dot in a label, trimmed to max and to an
// alphanumeric first and last character. "" when nothing usable is left.
func nameFix(s string, max int, dots bool) string {
	f := nameInvalidRun.ReplaceAllString(strings.ToLower(s), "-")
	if !dots {
		f = strings.ReplaceAll(f, ".", "-")
	}
	for strings.Contains(f, "..") || strings.Contains(f, ".-") || strings.Contains(f, "-.") {
		f = strings.NewReplacer("..", ".", ".-", ".", "-.", ".").Replace(f)
	}
	if len(f) > max {
		f = f[:max]
	}
	f = strings.Trim(f, ".-")
	if f == "" || f == s {
		return ""
	}
	return fmt.Sprintf(": write %q", f)
}
