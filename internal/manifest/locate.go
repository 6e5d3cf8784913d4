package manifest

import (
	"bytes"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Position is where the object starts (its first key).
func (o *Object) Position() Position {
	if o.Node == nil {
		return Position{File: o.File}
	}
	return Position{File: o.File, Line: o.Node.Line, Column: o.Node.Column}
}

// Locate returns the position of the value at p inside the object. When p
// does not exist it returns the deepest part that does: for a missing key
// the key of the mapping that lacks it (so "spec has no imageDigestMirrors"
// points at "spec:"), for a missing index the sequence.
func (o *Object) Locate(p Path) Position {
	key, val, _ := o.walk(p)
	if val != nil {
		return o.nodePos(val)
	}
	if key != nil {
		return o.nodePos(key)
	}
	return o.Position()
}

// LocateKey returns the position of the key of the mapping entry at p, for
// findings about the key itself (an unknown field). For a path that ends in
// an index, or does not exist, it answers as Locate does.
func (o *Object) LocateKey(p Path) Position {
	key, val, found := o.walk(p)
	if found && key != nil {
		return o.nodePos(key)
	}
	if val != nil {
		return o.nodePos(val)
	}
	if key != nil {
		return o.nodePos(key)
	}
	return o.Position()
}

// walk follows p from the object node. When the whole path exists it
// returns the last key node (nil for an index) and the value node, with
// found true. Otherwise, for a missing key it returns the key node of the
// mapping that lacks it (nil val), or that mapping itself when it has no
// key; for a missing index the sequence node.
func (o *Object) walk(p Path) (key, val *yaml.Node, found bool) {
	cur := o.Node
	var curKey *yaml.Node // the key cur was reached through, if any
	for _, e := range p {
		n := deref(cur)
		if n == nil {
			return curKey, cur, false
		}
		switch e := e.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return nil, cur, false
			}
			k, v := mapEntry(n, e, 0)
			if v == nil {
				if curKey != nil {
					return curKey, nil, false
				}
				return nil, cur, false
			}
			curKey, cur = k, v
		case int:
			if n.Kind != yaml.SequenceNode || e < 0 || e >= len(n.Content) {
				return nil, cur, false
			}
			curKey, cur = nil, n.Content[e]
		default:
			return nil, cur, false
		}
	}
	return curKey, cur, true
}

// mapEntry finds key in m, looking into merged (<<) mappings when it is not
// written explicitly; the last explicit duplicate wins.
func mapEntry(m *yaml.Node, key string, depth int) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if c := m.Content[i]; c.Kind == yaml.ScalarNode && c.Value == key && c.ShortTag() != "!!merge" {
			k, v = c, m.Content[i+1]
		}
	}
	// Merges can form cycles (an anchored mapping merging itself) and
	// chains of any length; real files merge a level or two.
	if v != nil || depth > 8 {
		return k, v
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if c := m.Content[i]; c.Kind == yaml.ScalarNode && c.ShortTag() == "!!merge" {
			srcs := []*yaml.Node{m.Content[i+1]}
			if d := deref(m.Content[i+1]); d != nil && d.Kind == yaml.SequenceNode {
				srcs = d.Content
			}
			for _, s := range srcs {
				if d := deref(s); d != nil && d.Kind == yaml.MappingNode && d != m {
					if k, v := mapEntry(d, key, depth+1); v != nil {
						return k, v
					}
				}
			}
		}
	}
	return nil, nil
}

func (o *Object) nodePos(n *yaml.Node) Position {
	if s, ok := o.spans[n]; ok {
		pos := Position{File: s.file, Line: n.Line, Column: n.Column}
		pos.EndLine, pos.EndColumn = s.src.end(n)
		return pos
	}
	pos := Position{File: o.File, Line: n.Line, Column: n.Column}
	pos.EndLine, pos.EndColumn = o.src.end(n)
	return pos
}

// source is the text of a file with its line starts, to find where a node
// ends: yaml.v3 records only where nodes start.
type source struct {
	data   []byte
	starts []int // byte offset of each line; starts[0] is line 1
	// blob is git's id of data when the loader knows it (it computes it
	// for the content cache): a digest of the text takes it instead of
	// hashing the text again (see Digest).
	blob string
}

func newSource(data []byte) *source {
	s := &source{data: data, starts: []int{0}}
	i := 0
	if bytes.HasPrefix(data, bom) {
		i = len(bom)
		s.starts[0] = i
	}
	for i < len(data) {
		if n := lineBreakLen(data[i:]); n > 0 {
			i += n
			s.starts = append(s.starts, i)
			continue
		}
		i++
	}
	return s
}

func (s *source) lines() int { return len(s.starts) }

// line returns the text of line l (1-based) without its line break.
func (s *source) line(l int) []byte {
	if s == nil || l < 1 || l > len(s.starts) {
		return nil
	}
	start, end := s.starts[l-1], len(s.data)
	if l < len(s.starts) {
		end = s.starts[l]
	}
	b := s.data[start:end]
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	if bytes.HasSuffix(b, []byte("\xc2\x85")) {
		b = b[:len(b)-2]
	} else if bytes.HasSuffix(b, []byte("\xe2\x80\xa8")) || bytes.HasSuffix(b, []byte("\xe2\x80\xa9")) {
		b = b[:len(b)-3]
	}
	return b
}

func (s *source) firstNonBlank(l int) int {
	col := 1
	for _, c := range string(s.line(l)) {
		if c != ' ' && c != '\t' {
			return col
		}
		col++
	}
	return 1
}

// byteCol converts a 1-based character column to a byte offset in line.
func byteCol(line []byte, col int) int {
	i := 0
	for c := 1; c < col && i < len(line); c++ {
		_, size := utf8.DecodeRune(line[i:])
		i += size
	}
	return i
}

// end returns the line and the exclusive end column of n, or 0, 0 when it
// cannot tell. Collections end where their last descendant ends.
func (s *source) end(n *yaml.Node) (int, int) {
	if s == nil || n == nil {
		return 0, 0
	}
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode, yaml.DocumentNode:
		if len(n.Content) == 0 {
			return s.scalarEnd(n) // "{}" or "[]" written inline
		}
		return s.end(n.Content[len(n.Content)-1])
	case yaml.AliasNode:
		return n.Line, n.Column + 1 + utf8.RuneCountInString(n.Value)
	}
	return s.scalarEnd(n)
}

func (s *source) scalarEnd(n *yaml.Node) (int, int) {
	line := s.line(n.Line)
	if line == nil {
		return 0, 0
	}
	at := byteCol(line, n.Column)
	rest := line[at:]
	// Skip a tag or anchor written before the value ("!!str x", "&a x").
	for len(rest) > 0 && (rest[0] == '!' || rest[0] == '&') {
		sp := bytes.IndexAny(rest, " \t")
		if sp < 0 {
			break
		}
		skip := sp
		for skip < len(rest) && (rest[skip] == ' ' || rest[skip] == '\t') {
			skip++
		}
		at += skip
		rest = rest[skip:]
	}
	col := n.Column + utf8.RuneCount(line[byteCol(line, n.Column):at])
	switch {
	case n.Kind != yaml.ScalarNode:
		if len(rest) >= 2 && (rest[0] == '{' || rest[0] == '[') {
			return n.Line, col + 2
		}
		return 0, 0
	case n.Style&yaml.DoubleQuotedStyle != 0 && len(rest) > 0 && rest[0] == '"':
		return s.quotedEnd(n.Line, at, '"')
	case n.Style&yaml.SingleQuotedStyle != 0 && len(rest) > 0 && rest[0] == '\'':
		return s.quotedEnd(n.Line, at, '\'')
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return s.blockEnd(n.Line)
	}
	// A plain scalar: its text is the value when it fits on the line.
	if bytes.HasPrefix(rest, []byte(n.Value)) {
		return n.Line, col + utf8.RuneCountInString(n.Value)
	}
	return 0, 0
}

// quotedEnd scans from the opening quote at byte at of line l to the
// closing one, across lines, honouring \" and ” escapes.
func (s *source) quotedEnd(l, at int, q byte) (int, int) {
	i := at + 1
	for ; l <= s.lines(); l, i = l+1, 0 {
		line := s.line(l)
		for i < len(line) {
			switch {
			case q == '"' && line[i] == '\\':
				i += 2
				continue
			case line[i] == q && q == '\'' && i+1 < len(line) && line[i+1] == '\'':
				i += 2
				continue
			case line[i] == q:
				return l, utf8.RuneCount(line[:i+1]) + 1
			}
			i++
		}
	}
	return 0, 0
}

// blockEnd finds the last line of a literal or folded block scalar whose
// indicator is on line l: the block runs while lines are blank or indented
// deeper than line l itself.
func (s *source) blockEnd(l int) (int, int) {
	indent := indentOf(s.line(l))
	last := l
	for k := l + 1; k <= s.lines(); k++ {
		line := s.line(k)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if indentOf(line) <= indent {
			break
		}
		last = k
	}
	if last == l {
		return 0, 0
	}
	return last, utf8.RuneCount(bytes.TrimRight(s.line(last), " \t")) + 1
}

// BlockIndent is the indentation of the content of a literal block scalar
// whose indicator (|) is on line indicatorLine (1-based) of data: that of
// its first non-blank line, 0 when there is none. yaml.v3 gives the
// scalar's value without it, so a node parsed from the value is placed in
// the file by adding it to the node's column.
func BlockIndent(data []byte, indicatorLine int) int {
	for l, rest := 0, data; len(rest) > 0; l++ {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		rest = next
		if l < indicatorLine {
			continue
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) != 0 {
			return len(line) - len(bytes.TrimLeft(line, " "))
		}
	}
	return 0
}

func indentOf(line []byte) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// Text is the content of the object's file as it was read, nil when the
// object was built in memory. Callers that need the file again (inline
// suppression comments) use it instead of reading the disk a second time.
func (o *Object) Text() []byte {
	if o.src == nil {
		return nil
	}
	return o.src.data
}
