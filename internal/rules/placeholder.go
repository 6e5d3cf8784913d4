package rules

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var placeholder = &check.Rule{
	ID:       "placeholder",
	Severity: check.Warning,
	Origin:   check.OriginTool,
	Summary:  "An object still holds a reference configuration's placeholder (<registry.example.com:8443>); it was not checked further.",
	Doc:      doc("placeholder"),
	Reads:    append(append([]string(nil), modelled...), manifest.KindConfigMap),
	Check: func(c *check.Pass) {
		for _, o := range c.Context.Unfilled {
			first := o.Placeholders[0]
			more := ""
			if n := len(o.Placeholders) - 1; n == 1 {
				more = " and 1 more value"
			} else if n > 1 {
				more = fmt.Sprintf(" and %d more values", n)
			}
			c.Report(o, first.Path, "%s is an unfilled placeholder (%q%s): the API server refuses such a value, so %s was not checked further and is left out of the render; write the real value before applying it",
				first.Text, first.Value, more, o.Ref())
		}
		// A registry CA ConfigMap of a reference configuration names its
		// key after the registry it stands for (<registry.example.com..8443>):
		// one placeholder finding, not a key-format error.
		for _, o := range c.Unmodelled() {
			if o.Kind != manifest.KindConfigMap || o.Content == nil {
				continue
			}
			for _, key := range dataKeys(o) {
				if text := manifest.PlaceholderIn(key); text != "" {
					c.ReportKey(o, manifest.Path{"data", key}, "%s is an unfilled placeholder (key %q of %s): the API server refuses such a key; name the key after the registry host (host..port for a port) before applying it",
						text, key, o.Ref())
				}
			}
		}
	},
}
