package kustomization

import (
	"bytes"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// InlineText is a patch written inside another YAML file (a kustomization's
// `patch: |`, a patchesStrategicMerge item, a transformer configuration),
// with what is needed to place a node of the patch at its line and column
// in that file.
type InlineText struct {
	text string
	// line and col are where the text's first character sits in the file;
	// indent is what each following line of a block scalar is indented
	// by. block: a literal block scalar (| |- |+), whose lines are the
	// file's lines less the indentation; otherwise the text must be one
	// line written as it reads (no escapes), or nothing is placed.
	line, col, indent int
	block             bool
	ok                bool
}

// NewInlineText records where the scalar n's value sits in data (the file
// holding it).
func NewInlineText(n *yaml.Node, data []byte) InlineText {
	it := InlineText{text: n.Value, line: n.Line, col: n.Column}
	if n.Kind != yaml.ScalarNode {
		return it
	}
	switch {
	case n.Style&yaml.LiteralStyle != 0:
		// Content starts on the line after the indicator.
		it.indent = manifest.BlockIndent(data, n.Line)
		it.line, it.col, it.block, it.ok = n.Line+1, it.indent+1, true, it.indent > 0
	case n.Style&yaml.FoldedStyle != 0:
		// Folding joins lines: no faithful position.
	default:
		lines := bytes.Split(data, []byte("\n"))
		if strings.Contains(n.Value, "\n") || n.Line < 1 || n.Line > len(lines) {
			return it
		}
		raw := string(lines[n.Line-1])
		start := n.Column - 1
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			start++
		}
		if start < 0 || start+len(n.Value) > len(raw) || raw[start:start+len(n.Value)] != n.Value {
			return it // escapes change the columns
		}
		it.col, it.ok = start+1, true
	}
	return it
}

// Place maps a position in the text (1-based) to the file.
func (it InlineText) Place(line, col int) (int, int, bool) {
	if !it.ok || line < 1 || col < 1 {
		return 0, 0, false
	}
	if it.block {
		return it.line + line - 1, it.indent + col, true
	}
	if line != 1 {
		return 0, 0, false
	}
	return it.line, it.col + col - 1, true
}

// Text is the patch's text.
func (it InlineText) Text() string { return it.text }
