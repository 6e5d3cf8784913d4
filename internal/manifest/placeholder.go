package manifest

import (
	"regexp"
	"slices"
)

// Reference configurations (the telco reference designs, validated
// patterns) write the values each user must fill in as placeholders:
// <registry.example.com:8443>/ocp4. Such an object is a form, not yet a
// manifest: the API server would refuse every one of its values, and MCO
// would refuse to render it, but what is wrong is one thing, that it was
// not filled in. The loader records the placeholders it holds
// (Object.Placeholders) so that it is reported once and kept out of the
// rules and the render (package check).

// angleRE is a placeholder inside a value: angle brackets around
// something without spaces or brackets, or a shell variable
// ($PRIVATE_REGISTRY, ${MIRROR}) that a script fills in with envsubst or
// sed before applying the file. No image reference, registry scope or
// ConfigMap key may hold a $ or angle brackets, so neither is ever a value.
var angleRE = regexp.MustCompile(`<[^<>\s]+>|\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*`)

// PlaceholderIn returns the placeholder s holds (<registry.example.com:8443>
// in "<registry.example.com:8443>/ocp4", $REGISTRY in "$REGISTRY/ocp4"), ""
// when it holds none.
func PlaceholderIn(s string) string { return angleRE.FindString(s) }

// placeholderKinds are the kinds whose values placeholders stand for; the
// files of a MachineConfig hold arbitrary text.
var placeholderKinds = map[Kind]bool{KindICSP: true, KindIDMS: true, KindITMS: true, KindImage: true, KindClusterImagePolicy: true, KindImagePolicy: true}

// Placeholder is one unfilled value of an object.
type Placeholder struct {
	Path  Path
	Value string
	// Text is the placeholder itself, <registry.example.com:8443>.
	Text string
}

// findPlaceholders lists the placeholders of the object's spec, in a
// stable order (sorted by path).
func (o *Object) findPlaceholders() {
	if !placeholderKinds[o.Kind] {
		return
	}
	spec, ok := o.Content["spec"]
	if !ok {
		return
	}
	var out []Placeholder
	var walk func(v any, p Path, depth int)
	walk = func(v any, p Path, depth int) {
		if depth > 32 || len(out) >= 1000 {
			return
		}
		switch v := v.(type) {
		case string:
			if m := angleRE.FindString(v); m != "" {
				out = append(out, Placeholder{Path: p, Value: v, Text: m})
			}
		case map[string]any:
			for k, c := range v {
				walk(c, p.Child(k), depth+1)
			}
		case []any:
			for i, c := range v {
				walk(c, p.Child(i), depth+1)
			}
		}
	}
	walk(spec, Path{"spec"}, 0)
	slices.SortFunc(out, func(a, b Placeholder) int { return comparePaths(a.Path, b.Path) })
	o.Placeholders = out
}

// comparePaths orders paths element by element, indexes numerically.
func comparePaths(a, b Path) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		switch x := a[i].(type) {
		case int:
			if y, ok := b[i].(int); ok && x != y {
				return x - y
			}
		case string:
			if y, ok := b[i].(string); ok && x != y {
				if x < y {
					return -1
				}
				return 1
			}
		}
	}
	return len(a) - len(b)
}
