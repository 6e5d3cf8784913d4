package manifest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The entry encoding: a count of objects, then per object its fields and
// its node tree (preorder, aliases as the index of their target). Content
// is not written: it is derived from the node when the entry is read, as
// the loader derives it when the file is parsed (toContent), which costs
// a cold run less than writing it. Every length and index is checked when
// reading: an entry is input like any file.

var errEntry = errors.New("malformed cache entry")

// maxCacheNodes bounds a decoded entry, like the loader's own limits.
const (
	maxCacheNodes = 1 << 20
	maxCacheDepth = 10_000
)

// encodeResult encodes a file's objects and what the prefilter reads in
// it (kindsIn), false when an object cannot be restored exactly: it has a
// decode error, nodes from another file, was delivered by a policy or
// bound to a site, or holds a tree with an alias to a node outside it.
// Objects kept whole hold the file's text (for the ends of positions): it
// is stored once, with them. A mirror object (a kind the loader models) is
// stored as its node; its typed form is decoded from the restored node
// when the entry is read, as the parser decodes it from the parsed one.
func encodeResult(objs []*Object, kinds []string, unsure bool) ([]byte, bool) {
	var src *source
	for _, o := range objs {
		if o.src != nil {
			if src != nil && o.src != src {
				return nil, false
			}
			src = o.src
		}
	}
	// An entry is about twice its file's text (the text, then its nodes
	// with their values): made that size at once, it is not copied while
	// it grows, which on a cold run is every file of the tree.
	size := 1024
	if src != nil {
		size += 2 * len(src.data)
	}
	e := &encoder{b: make([]byte, 0, size)}
	if unsure {
		e.uint(1)
	} else {
		e.uint(0)
	}
	kinds = slices.Compact(slices.Sorted(slices.Values(kinds)))
	e.uint(uint64(len(kinds)))
	for _, k := range kinds {
		e.str(k)
	}
	if src != nil {
		e.uint(1)
		e.bytes(src.data)
	} else {
		e.uint(0)
	}
	// The file's marked lines, so that a restored object answers Marked
	// as a parsed one does.
	var ms *marks
	for _, o := range objs {
		if o.marks == nil || ms != nil && o.marks != ms {
			return nil, false
		}
		ms = o.marks
	}
	if ms == nil {
		ms = noMarks
	}
	e.uint(uint64(len(ms.lines)))
	for _, l := range ms.lines {
		e.uint(uint64(l.Line))
		e.str(l.Text)
	}
	e.uint(uint64(len(objs)))
	for _, o := range objs {
		if !restorable(o) {
			return nil, false
		}
		flags := uint64(0)
		if o.Partial {
			flags |= 1
		}
		if o.src != nil {
			flags |= 2
		}
		if o.inferred {
			flags |= 4
		}
		if !o.Unmodelled {
			flags |= 8
		}
		if o.Known {
			flags |= 16
		}
		e.uint(flags)
		for _, s := range []string{o.APIVersion, string(o.Kind), o.Name, o.Origin, o.DeliveredBy} {
			e.str(s)
		}
		e.int(int64(o.Doc))
		e.int(int64(o.Item))
		if !e.node(o.Node) {
			return nil, false
		}
	}
	return e.b, true
}

// restorable reports whether an entry can give o back exactly: an image
// field extract or an object kept whole, as the loader makes them; or a
// modelled object (a mirror kind, known or misspelt) whose typed form,
// name, origin and placeholders follow from its node (Object.setContent,
// decodeTyped) and that no generator or policy made.
func restorable(o *Object) bool {
	if o.DecodeError != "" || o.Node == nil || o.spans != nil {
		return false
	}
	if o.Unmodelled {
		return !o.Known && !o.hasTyped()
	}
	return !o.Partial && o.DeliveredBy == "" && o.BoundTo == "" && o.Binding == nil && o.Known == o.hasTyped()
}

func (o *Object) hasTyped() bool {
	return o.ICSP != nil || o.IDMS != nil || o.ITMS != nil || o.Image != nil || o.MachineConfig != nil ||
		o.ClusterImagePolicy != nil || o.ImagePolicy != nil || o.FeatureGate != nil || o.ClusterVersion != nil ||
		o.MachineConfiguration != nil
}

func decodeResult(name, blob string, data []byte) (objs []*Object, kinds []string, unsure bool, err error) {
	d := &decoder{b: data}
	switch d.uint() {
	case 0:
	case 1:
		unsure = true
	default:
		return nil, nil, false, errEntry
	}
	kinds = make([]string, d.count())
	for i := range kinds {
		kinds[i] = d.str()
	}
	var src *source
	switch d.uint() {
	case 0:
	case 1:
		src = newSource(d.bytes())
		src.blob = blob
	default:
		return nil, nil, false, errEntry
	}
	ms := noMarks
	if c := d.count(); c > 0 {
		ms = &marks{lines: make([]MarkedLine, c)}
		for i := range ms.lines {
			line := d.uint()
			if line == 0 || line > math.MaxInt32 || i > 0 && int(line) <= ms.lines[i-1].Line {
				return nil, nil, false, errEntry
			}
			ms.lines[i] = MarkedLine{Line: int(line), Text: d.str()}
		}
	}
	n := d.uint()
	if n > uint64(len(data)) {
		return nil, nil, false, errEntry
	}
	for range n {
		flags := d.uint()
		modelled, known := flags&8 != 0, flags&16 != 0
		if flags > 31 || (flags&2 != 0 && src == nil) || known && !modelled || modelled && flags&1 != 0 {
			return nil, nil, false, errEntry
		}
		o := &Object{File: name, Unmodelled: !modelled, Partial: flags&1 != 0, marks: ms}
		if flags&2 != 0 {
			o.src = src
		}
		var kind string
		for _, s := range []*string{&o.APIVersion, &kind, &o.Name, &o.Origin, &o.DeliveredBy} {
			*s = d.str()
		}
		o.Kind = Kind(kind)
		o.Doc, o.Item = int(d.int()), int(d.int())
		o.Node = d.node()
		if d.err != nil || o.Node == nil {
			return nil, nil, false, errEntry
		}
		content, err := toContent(o.Node)
		if err != nil {
			return nil, nil, false, errEntry
		}
		if !modelled {
			o.setListContent(content, flags&4 != 0)
			objs = append(objs, o)
			continue
		}
		// As the parser finishes a modelled object (fileParse.object):
		// the content, then the typed form of a known kind, which must
		// decode again as it did when the entry was written.
		o.setContent(content, flags&4 != 0)
		if known {
			if o.decodeTyped() != nil {
				return nil, nil, false, errEntry
			}
			o.Known = true
		}
		objs = append(objs, o)
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, nil, false, errEntry
	}
	return objs, kinds, unsure, nil
}

type encoder struct {
	b []byte
}

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

// bytes writes b as str writes a string, without the copy a conversion
// to string would make (the file's text, on a cold run every file's).
func (e *encoder) bytes(b []byte) { e.uint(uint64(len(b))); e.b = append(e.b, b...) }

// node writes a tree; false when it cannot be restored: an alias pointing
// outside it, a tree past the decoder's bounds, or in a tree with aliases
// a node reached twice (which would move every later alias target). An
// alias is written as the preorder index of the node it points to, so only
// a tree holding one needs the index of every node; the others (nearly
// all) are written in one pass. A node shared by two parents without any
// alias, which yaml.v3 never builds, is written at each place and restored
// as equal copies.
func (e *encoder) node(root *yaml.Node) bool {
	var index map[*yaml.Node]int
	if hasAlias(root, 0) {
		index = map[*yaml.Node]int{}
		var numbered func(n *yaml.Node)
		numbered = func(n *yaml.Node) {
			if _, seen := index[n]; seen {
				return
			}
			index[n] = len(index)
			for _, c := range n.Content {
				numbered(c)
			}
		}
		numbered(root)
	}
	written := 0
	var write func(n *yaml.Node, depth int) bool
	write = func(n *yaml.Node, depth int) bool {
		// In preorder, the n-th node written has index n exactly when no
		// node is reached twice: a shared node shifts every later one.
		if depth > maxCacheDepth || written >= maxCacheNodes || (index != nil && index[n] != written) {
			return false
		}
		written++
		e.uint(uint64(n.Kind))
		e.uint(uint64(n.Style))
		for _, s := range []string{n.Tag, n.Value, n.Anchor, n.HeadComment, n.LineComment, n.FootComment} {
			e.str(s)
		}
		e.int(int64(n.Line))
		e.int(int64(n.Column))
		if n.Alias != nil {
			i, ok := index[n.Alias]
			if !ok {
				return false
			}
			e.uint(uint64(i) + 1)
		} else {
			e.uint(0)
		}
		e.uint(uint64(len(n.Content)))
		for _, c := range n.Content {
			if !write(c, depth+1) {
				return false
			}
		}
		return true
	}
	return write(root, 0)
}

// hasAlias reports whether the tree at n holds an alias node; past the
// decoder's depth it answers true, so the indexed path refuses the tree.
func hasAlias(n *yaml.Node, depth int) bool {
	if n.Alias != nil || depth > maxCacheDepth {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c, depth+1) {
			return true
		}
	}
	return false
}

type decoder struct {
	b     []byte
	err   error
	nodes []*yaml.Node
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errEntry
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	v, w := binary.Uvarint(d.b)
	if w <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[w:]
	return v
}

func (d *decoder) int() int64 {
	v, w := binary.Varint(d.b)
	if w <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[w:]
	return v
}

// count reads a length that must be possible in what is left.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.count()
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// tag reads a node's tag: nearly always one of the core schema's, given
// as a constant rather than a string made for every node.
func (d *decoder) tag() string {
	n := d.count()
	b := d.b[:n]
	d.b = d.b[n:]
	switch string(b) {
	case "!!str":
		return "!!str"
	case "!!map":
		return "!!map"
	case "!!seq":
		return "!!seq"
	case "!!int":
		return "!!int"
	case "!!bool":
		return "!!bool"
	case "!!null":
		return "!!null"
	case "!!float":
		return "!!float"
	}
	return string(b)
}

// bytes reads what encoder.bytes wrote, as a copy of its own (the entry's
// bytes belong to the store): one copy, where string and back were two.
func (d *decoder) bytes() []byte {
	n := d.count()
	b := bytes.Clone(d.b[:n])
	d.b = d.b[n:]
	return b
}

func (d *decoder) node() *yaml.Node {
	d.nodes = d.nodes[:0]
	type alias struct {
		n      *yaml.Node
		target uint64
	}
	var aliases []alias
	var read func(depth int) *yaml.Node
	read = func(depth int) *yaml.Node {
		if d.err != nil || depth > maxCacheDepth || len(d.nodes) >= maxCacheNodes {
			d.fail()
			return nil
		}
		n := &yaml.Node{Kind: yaml.Kind(d.uint()), Style: yaml.Style(d.uint())}
		d.nodes = append(d.nodes, n)
		n.Tag = d.tag()
		for _, s := range []*string{&n.Value, &n.Anchor, &n.HeadComment, &n.LineComment, &n.FootComment} {
			*s = d.str()
		}
		n.Line, n.Column = int(d.int()), int(d.int())
		if t := d.uint(); t > 0 {
			aliases = append(aliases, alias{n, t - 1})
		}
		if c := d.count(); c > 0 {
			n.Content = make([]*yaml.Node, c)
			for i := range n.Content {
				if n.Content[i] = read(depth + 1); n.Content[i] == nil {
					return nil
				}
			}
		}
		return n
	}
	root := read(0)
	for _, a := range aliases {
		if a.target >= uint64(len(d.nodes)) {
			d.fail()
			return nil
		}
		a.n.Alias = d.nodes[a.target]
	}
	if d.err != nil {
		return nil
	}
	return root
}
