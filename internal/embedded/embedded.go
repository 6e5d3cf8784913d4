// Package embedded places text that is embedded in a YAML string (a JSON
// document in a quoted scalar, a TOML file in a literal block) back in the
// YAML file: an offset into the decoded string becomes the file line and
// column of the character it came from. yaml.v3 records only where a scalar
// starts, and quoting, escapes and block indentation shift every character
// after it, so the mapping re-reads the scalar's source text.
package embedded

import (
	"bytes"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Text is a decoded scalar with the file position of each of its bytes.
type Text struct {
	Value string
	// line and col hold, for each byte of Value, its 1-based file line and
	// column (byte columns, as the rest of mirrorlint reports them for
	// ASCII text); one more entry, for the end of the value, lets an
	// error at end of input point just past the last character.
	line, col []int
	// starts holds the offset of each line of Value, made by At on first
	// use: every node of a document held in the value asks for its place.
	starts []int
}

// Pos returns the file line and column of byte off of the value. Offsets
// past the end answer the end; when the source text did not match the
// decoded value (a scalar form the mapping does not follow) every offset
// answers the scalar's start.
func (t *Text) Pos(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off >= len(t.line) {
		off = len(t.line) - 1
	}
	return t.line[off], t.col[off]
}

// At returns the file line and column of the character at line and column
// of the value (both 1-based, columns counted in characters, as yaml.v3
// counts them): where a node of a YAML document held in the value is
// written in the file. A place past the value answers its end.
func (t *Text) At(line, col int) (int, int) {
	if t.starts == nil {
		t.starts = []int{0}
		for i := 0; i < len(t.Value); i++ {
			if t.Value[i] == '\n' {
				t.starts = append(t.starts, i+1)
			}
		}
	}
	off := 0
	switch {
	case line < 1:
	case line <= len(t.starts):
		off = t.starts[line-1]
	default:
		off = len(t.Value)
	}
	for c := 1; c < col && off < len(t.Value) && t.Value[off] != '\n'; c++ {
		_, size := utf8.DecodeRuneInString(t.Value[off:])
		off += size
	}
	return t.Pos(off)
}

// Of maps the scalar node n of the file whose text is src. A node that is
// not a scalar, or src that is nil, gives a Text whose every offset
// answers the node's start.
func Of(src []byte, n *yaml.Node) *Text {
	t := &Text{Value: n.Value}
	if src != nil && n.Kind == yaml.ScalarNode {
		switch n.Style {
		case yaml.LiteralStyle, yaml.FoldedStyle:
			t.mapBlock(src, n)
		case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle, 0, yaml.TaggedStyle:
			t.mapFlow(src, n)
		}
	}
	if len(t.line) != len(t.Value)+1 {
		t.line, t.col = fill(len(t.Value)+1, n.Line), fill(len(t.Value)+1, n.Column)
	}
	return t
}

func fill(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// lines splits src into lines without their line breaks.
func lines(src []byte) [][]byte {
	ls := bytes.Split(src, []byte("\n"))
	for i, l := range ls {
		ls[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return ls
}

// mapBlock follows a literal or folded block: the content starts on the
// line after the indicator, each line less its indentation. A folded
// block's single line breaks become spaces, one byte each, so the mapping
// is the same.
func (t *Text) mapBlock(src []byte, n *yaml.Node) {
	ls := lines(src)
	indent := -1
	var line, col []int
	for l := n.Line; l < len(ls) && len(line) <= len(t.Value); l++ { // ls[n.Line] is the line after the indicator
		text := ls[l]
		if indent < 0 {
			if len(bytes.TrimSpace(text)) == 0 {
				line, col = append(line, l+1), append(col, 1)
				continue
			}
			indent = len(text) - len(bytes.TrimLeft(text, " "))
		}
		if len(text) < indent {
			text = nil
		} else {
			text = text[indent:]
		}
		for i := range text {
			line, col = append(line, l+1), append(col, indent+i+1)
		}
		line, col = append(line, l+1), append(col, indent+len(text)+1) // the line break
	}
	if len(line) == len(t.Value) && len(line) > 0 { // the file ends with the block
		line, col = append(line, line[len(line)-1]), append(col, col[len(col)-1]+1)
	}
	if len(line) < len(t.Value)+1 {
		return
	}
	t.line, t.col = line[:len(t.Value)+1], col[:len(t.Value)+1]
}

// mapFlow follows a plain, single- or double-quoted scalar: escapes and
// doubled quotes shorten the text, and a line break inside the scalar folds
// into one space (several into line breaks). It gives up (leaving the
// start-only mapping) if the text decoded this way is not the value.
func (t *Text) mapFlow(src []byte, n *yaml.Node) {
	ls := lines(src)
	l, c := n.Line-1, n.Column-1 // 0-based
	if l >= len(ls) || c > len(ls[l]) {
		return
	}
	var quote byte
	if n.Style == yaml.SingleQuotedStyle || n.Style == yaml.DoubleQuotedStyle {
		quote = ls[l][c]
		c++
	}
	var val []byte
	var line, col []int
	emit := func(b []byte, atLine, atCol int) {
		for range b {
			line, col = append(line, atLine+1), append(col, atCol+1)
		}
		val = append(val, b...)
	}
	for len(val) < len(t.Value) && l < len(ls) {
		text := ls[l]
		if c >= len(text) {
			// A line break inside the scalar: blank lines become line
			// breaks, a single break a space; indentation is dropped.
			breaks := 0
			l++
			for l < len(ls) && len(bytes.TrimSpace(ls[l])) == 0 {
				breaks++
				l++
			}
			if l >= len(ls) {
				break
			}
			c = len(ls[l]) - len(bytes.TrimLeft(ls[l], " \t"))
			if breaks == 0 {
				emit([]byte{' '}, l, c)
			} else {
				emit(bytes.Repeat([]byte{'\n'}, breaks), l, c)
			}
			continue
		}
		b := text[c]
		switch {
		case quote == '\'' && b == '\'' && c+1 < len(text) && text[c+1] == '\'':
			emit([]byte{'\''}, l, c)
			c += 2
		case quote == '"' && b == '\\' && c+1 < len(text):
			dec, width := unescape(text[c+1:])
			emit(dec, l, c)
			c += 1 + width
		default:
			emit([]byte{b}, l, c)
			c++
		}
	}
	if string(val) != t.Value {
		return
	}
	if c > len(ls[min(l, len(ls)-1)]) {
		c = len(ls[min(l, len(ls)-1)])
	}
	t.line, t.col = append(line, l+1), append(col, c+1)
}

// unescape decodes the double-quoted escape after a backslash, returning
// the bytes it stands for and how many source bytes it took.
func unescape(s []byte) ([]byte, int) {
	simple := map[byte]byte{'0': 0, 'a': 7, 'b': 8, 't': 9, '\t': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13,
		'e': 0x1b, ' ': ' ', '"': '"', '/': '/', '\\': '\\'}
	if r, ok := simple[s[0]]; ok {
		return []byte{r}, 1
	}
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[0]]
	if width == 0 || len(s) < 1+width {
		return []byte{s[0]}, 1
	}
	var r rune
	for _, h := range s[1 : 1+width] {
		switch {
		case h >= '0' && h <= '9':
			r = r*16 + rune(h-'0')
		case h >= 'a' && h <= 'f':
			r = r*16 + rune(h-'a'+10)
		case h >= 'A' && h <= 'F':
			r = r*16 + rune(h-'A'+10)
		}
	}
	return []byte(string(r)), 1 + width
}
