package rules

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var duplicateKey = &check.Rule{
	ID:       "duplicate-key",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "A key is written twice in one mapping of a mirror object: only the last value reaches the cluster.",
	Doc:      doc("duplicate-key"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, o := range c.All() {
			if o.Node != nil {
				duplicateKeys(c, o, o.Node, manifest.Path{})
			}
		}
	},
}

// duplicateKeys reports the repeated keys of every mapping under n. Aliases
// are not followed: the anchored node is checked where it is written.
func duplicateKeys(c *check.Pass, o *manifest.Object, n *yaml.Node, p manifest.Path) {
	switch n.Kind {
	case yaml.SequenceNode:
		for i, item := range n.Content {
			duplicateKeys(c, o, item, p.Child(i))
		}
	case yaml.MappingNode:
		seen := map[string][]*yaml.Node{}
		var order []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
				continue
			}
			if seen[k.Value] == nil {
				order = append(order, k.Value)
			}
			seen[k.Value] = append(seen[k.Value], k)
			duplicateKeys(c, o, n.Content[i+1], p.Child(k.Value))
		}
		for _, key := range order {
			keys := seen[key]
			if len(keys) < 2 {
				continue
			}
			last := keys[len(keys)-1]
			var dropped []string
			for _, k := range keys[:len(keys)-1] {
				dropped = append(dropped, fmt.Sprint(k.Line))
			}
			for _, k := range keys[1:] {
				var f *check.Finding
				if k == last {
					f = c.ReportKey(o, p.Child(key), "key %q is written %d times in this mapping (first at line %d): kubectl, oc and Argo CD keep this last value and silently drop the one%s; kustomize refuses the file",
						key, len(keys), keys[0].Line, atLines(dropped))
				} else {
					f = c.ReportKey(o, p.Child(key), "key %q is written again in this mapping (first at line %d): kubectl, oc and Argo CD keep only the last value, at line %d, and silently drop this one; kustomize refuses the file",
						key, keys[0].Line, last.Line)
				}
				f.Position = o.PositionOf(k)
			}
		}
	}
}

func atLines(ls []string) string {
	if len(ls) == 1 {
		return " at line " + ls[0]
	}
	return "s at lines " + quoteList(ls, 5)
}
