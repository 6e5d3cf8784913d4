package trace

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// pointerSeg is one step of a JSON pointer: a key, an index, or "-" (the
// end of a list: add appends there).
type pointerSeg struct {
	key    string
	index  int // -1 for a key
	append bool
}

// parsePointer reads a JSON pointer ("/spec/x/0", "/spec/x/-"); nil when it
// is not one.
func parsePointer(ptr string) []pointerSeg {
	if !strings.HasPrefix(ptr, "/") {
		return nil
	}
	var out []pointerSeg
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch n, err := strconv.Atoi(seg); {
		case seg == "-":
			out = append(out, pointerSeg{index: -1, append: true})
		case err == nil && n >= 0:
			out = append(out, pointerSeg{index: n})
		default:
			out = append(out, pointerSeg{key: seg, index: -1})
		}
	}
	return out
}

// opWriting returns the node of the JSON 6902 operation that wrote the
// value at p of the built object, last operation first: the part of an
// add or replace operation's value that is p's value, or the path of a
// copy or move that lands on p. An add at "-" or at an index inserts an
// element whose final index the operation does not say: it is the one
// when the whole element equals the operation's value.
func opWriting(ops *yaml.Node, built map[string]any, p manifest.Path) *yaml.Node {
	for i := len(ops.Content) - 1; i >= 0; i-- {
		op := ops.Content[i]
		kind := kustomization.Scalar(op, "op")
		if kind != "add" && kind != "replace" && kind != "copy" && kind != "move" {
			continue
		}
		segs := parsePointer(kustomization.Scalar(op, "path"))
		if segs == nil || len(segs) > len(p) {
			continue
		}
		matches, exact := true, true
		for j, s := range segs {
			if s.index < 0 && !s.append {
				if k, ok := p[j].(string); !ok || k != s.key {
					matches = false
				}
				continue
			}
			n, ok := p[j].(int)
			if !ok {
				matches = false
			} else if s.append || n != s.index || (kind == "add" && j == len(segs)-1) {
				exact = false // the element's place in the end result is unknown
			}
		}
		if !matches {
			continue
		}
		rest := p[len(segs):]
		if kind == "copy" || kind == "move" {
			if exact && len(rest) == 0 {
				return kustomization.MapValue(op, "path")
			}
			continue
		}
		val := kustomization.MapValue(op, "value")
		if val == nil {
			continue
		}
		if !exact {
			at, ok := p[:len(segs)].Lookup(built)
			if !ok || !sameValue(val, at) {
				continue
			}
		}
		n := nodeAt(val, rest)
		if n == nil {
			continue
		}
		if want, ok := p.Lookup(built); ok && sameValue(n, want) {
			return n
		}
	}
	return nil
}

// nodeHolding walks a strategic-merge patch document along p and returns
// the node holding the built object's value at p; nil when the patch does
// not hold that value there. List elements are matched to the built ones
// by equal value, then by a key that identifies them (name, source...), so
// that a patch merging into one element of a list is found whatever its
// index.
func nodeHolding(doc *yaml.Node, built map[string]any, p manifest.Path) *yaml.Node {
	n, _ := pathHolding(doc, built, p)
	return n
}

// pathHolding is nodeHolding, with the path of the node in the patch.
func pathHolding(doc *yaml.Node, built map[string]any, p manifest.Path) (*yaml.Node, manifest.Path) {
	cur := doc
	var bcur any = built
	var at manifest.Path
	for _, seg := range p {
		cur = kustomization.DerefNode(cur)
		if cur == nil {
			return nil, nil
		}
		switch seg := seg.(type) {
		case string:
			bm, _ := bcur.(map[string]any)
			cur, bcur = kustomization.MapValue(cur, seg), bm[seg]
			at = append(at, seg)
		case int:
			bl, _ := bcur.([]any)
			if cur.Kind != yaml.SequenceNode || seg < 0 || seg >= len(bl) {
				return nil, nil
			}
			var i int
			cur, i = matchElement(cur, seg, bl[seg])
			bcur = bl[seg]
			at = append(at, i)
		}
		if cur == nil {
			return nil, nil
		}
	}
	if !sameValue(cur, bcur) {
		return nil, nil
	}
	return cur, at
}

// identityKeys identify a list element when a patch holds only part of it:
// kustomize's merge keys for the lists it merges, and a mirror entry's
// source.
var identityKeys = []string{"name", "source", "mountPath", "containerPort", "ip", "type", "topologyKey", "devicePath"}

// matchElement finds, in seq, the element standing for want (the built
// element at index i).
func matchElement(seq *yaml.Node, i int, want any) (*yaml.Node, int) {
	if i < len(seq.Content) && sameValue(seq.Content[i], want) {
		return seq.Content[i], i
	}
	for j, n := range seq.Content {
		if sameValue(n, want) {
			return n, j
		}
	}
	wm, ok := want.(map[string]any)
	if !ok {
		return nil, -1
	}
	for _, k := range identityKeys {
		wv, ok := wm[k]
		if !ok {
			continue
		}
		for j, n := range seq.Content {
			if v := kustomization.MapValue(kustomization.DerefNode(n), k); v != nil && sameValue(v, wv) {
				return n, j
			}
		}
	}
	return nil, -1
}

// sameValuePath finds where the origin object holds the built object's
// value at p, when a patch moved it (an entry inserted before it): the
// path in the origin object, matching list elements by equal value.
func sameValuePath(origin, built map[string]any, p manifest.Path) (manifest.Path, bool) {
	var out manifest.Path
	var ocur any = origin
	var bcur any = built
	for _, seg := range p {
		switch seg := seg.(type) {
		case string:
			om, _ := ocur.(map[string]any)
			bm, _ := bcur.(map[string]any)
			v, ok := om[seg]
			if !ok {
				return nil, false
			}
			ocur, bcur = v, bm[seg]
			out = append(out, seg)
		case int:
			ol, _ := ocur.([]any)
			bl, _ := bcur.([]any)
			if seg < 0 || seg >= len(bl) {
				return nil, false
			}
			found := -1
			for j, e := range ol {
				if reflect.DeepEqual(e, bl[seg]) {
					found = j
					if j == seg {
						break
					}
				}
			}
			if found < 0 {
				return nil, false
			}
			ocur, bcur = ol[found], bl[seg]
			out = append(out, found)
		}
	}
	return out, reflect.DeepEqual(ocur, bcur)
}

// sameValue reports whether the node's value equals v as the loader reads
// it (YAML scalars compared by their text).
func sameValue(n *yaml.Node, v any) bool {
	n = kustomization.DerefNode(n)
	if n == nil {
		return false
	}
	var got any
	if n.Decode(&got) != nil {
		return false
	}
	return reflect.DeepEqual(normalize(got), normalize(v))
}

func nodeAt(n *yaml.Node, p manifest.Path) *yaml.Node {
	for _, e := range p {
		n = kustomization.DerefNode(n)
		if n == nil {
			return nil
		}
		switch e := e.(type) {
		case string:
			n = kustomization.MapValue(n, e)
		case int:
			if n.Kind != yaml.SequenceNode || e < 0 || e >= len(n.Content) {
				return nil
			}
			n = n.Content[e]
		}
	}
	return n
}

// normalize makes YAML-decoded and loader-decoded values comparable by
// going through their string forms for scalars.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = normalize(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case nil:
		return nil
	case string:
		return v
	}
	return strings.TrimSpace(yamlString(v))
}

func yamlString(v any) string {
	b, _ := yaml.Marshal(v)
	return string(b)
}

// documents parses every YAML document in data, skipping what does not parse.
func documents(data []byte) []*yaml.Node {
	var out []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err != nil { // io.EOF, or the rest does not parse
			return out
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
			out = append(out, n.Content[0])
		}
	}
}
