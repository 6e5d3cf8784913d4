package manifest

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

var errAliasExpansion = errors.New("alias expansion limit exceeded")

// setContent gives o its content and what is read from it: the name
// (metadata.name, when it is a string) and the origin annotation. With
// inferred (an item of a typed List that names no kind of its own) o's
// apiVersion and kind, taken from the list, are written into the content.
func (o *Object) setContent(content map[string]any, inferred bool) {
	o.setListContent(content, inferred)
	if name, ok := NestedString(content, "metadata", "name"); ok {
		o.Name = name
	}
	o.Origin = originOf(content)
	o.findPlaceholders()
}

// setListContent gives o its content, with inferred the apiVersion and
// kind taken from its List written into it: what a parsed file and a
// restored cache entry both do.
func (o *Object) setListContent(content map[string]any, inferred bool) {
	if inferred {
		content["apiVersion"], content["kind"] = o.APIVersion, string(o.Kind)
	}
	o.Content, o.inferred = content, inferred
}

// toContent converts an object's node into plain JSON-compatible data, the
// way kubectl/oc do before sending it (sigs.k8s.io/yaml: YAML 1.1 scalars,
// merge keys, last duplicate key wins, non-string keys stringified).
func toContent(n *yaml.Node) (map[string]any, error) {
	b := &contentBuilder{budget: maxAliasExpansion, active: map[*yaml.Node]bool{}}
	v, err := b.value(n, false)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("object is not a mapping")
	}
	return m, nil
}

type contentBuilder struct {
	budget int
	// active holds the anchors being expanded, to refuse an alias to its
	// own ancestor (yaml.v3 builds such cyclic graphs without complaint).
	active map[*yaml.Node]bool
}

func (b *contentBuilder) value(n *yaml.Node, viaAlias bool) (any, error) {
	if viaAlias {
		b.budget--
		if b.budget < 0 {
			return nil, fmt.Errorf("%w: more than %d nodes reached through YAML aliases (line %d); refusing a possible \"billion laughs\" document", errAliasExpansion, maxAliasExpansion, n.Line)
		}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return b.value(n.Content[0], viaAlias)
	case yaml.AliasNode:
		t := n.Alias
		if t == nil {
			return nil, fmt.Errorf("line %d: alias *%s has no anchor", n.Line, n.Value)
		}
		if b.active[t] {
			return nil, fmt.Errorf("line %d: alias *%s refers to a node that contains it", n.Line, n.Value)
		}
		b.active[t] = true
		v, err := b.value(t, true)
		delete(b.active, t)
		return v, err
	case yaml.ScalarNode:
		return scalarValue(n), nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := b.value(c, viaAlias)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return b.mapping(n, viaAlias)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

func (b *contentBuilder) mapping(n *yaml.Node, viaAlias bool) (map[string]any, error) {
	out := make(map[string]any, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		key, err := mapKey(k)
		if err != nil {
			return nil, err
		}
		val, err := b.value(v, viaAlias)
		if err != nil {
			return nil, err
		}
		out[key] = val
	}
	// Explicit keys win over merged ones; among merged maps the first wins.
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if d := deref(m); d != nil && d.Kind == yaml.SequenceNode {
			srcs = d.Content
		}
		for _, s := range srcs {
			v, err := b.value(s, viaAlias)
			if err != nil {
				return nil, err
			}
			mm, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("line %d: merge key << needs a mapping", s.Line)
			}
			for k, v := range mm {
				if _, seen := out[k]; !seen {
					out[k] = v
				}
			}
		}
	}
	return out, nil
}

// mapKey stringifies a key as JSON requires. Complex keys appear mostly in
// unrendered templates: "image: {{ .Values.x }}" parses as a flow mapping
// whose key is itself a mapping.
func mapKey(k *yaml.Node) (string, error) {
	if d := deref(k); d != nil {
		k = d
	}
	if k.Kind != yaml.ScalarNode {
		hint := ""
		if k.Kind == yaml.MappingNode && k.Style&yaml.FlowStyle != 0 {
			hint = " (an unrendered {{ template }}?)"
		}
		return "", fmt.Errorf("line %d column %d: mapping key is not a string%s", k.Line, k.Column, hint)
	}
	return k.Value, nil
}

// scalarValue resolves a scalar as YAML 1.1 (go-yaml v2, which kubectl and
// oc use to turn YAML into JSON) would: yes/no/on/off are booleans there.
func scalarValue(n *yaml.Node) any {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value
	}
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		return strings.EqualFold(n.Value, "true")
	case "!!int":
		if i, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			return int(i)
		}
		if u, err := strconv.ParseUint(n.Value, 0, 64); err == nil {
			return float64(u)
		}
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f
		}
		return n.Value
	case "!!float":
		switch strings.ToLower(n.Value) {
		case ".inf", "+.inf":
			return math.Inf(1)
		case "-.inf":
			return math.Inf(-1)
		case ".nan":
			return math.NaN()
		}
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil {
			return f
		}
		return n.Value
	case "!!str":
		if n.Style&yaml.TaggedStyle == 0 {
			switch n.Value {
			case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON":
				return true
			case "n", "N", "no", "No", "NO", "off", "Off", "OFF":
				return false
			}
		}
	}
	return n.Value
}

// NestedString is the string at keys inside m, a decoded object's content;
// false when a step is missing or not a mapping, or the value not a string.
func NestedString(m map[string]any, keys ...string) (string, bool) {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		cur = mm[k]
	}
	s, ok := cur.(string)
	return s, ok
}
