package safefs

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Bounds on the shape of a YAML file, checked before any consumer that
// builds more than a node tree from it (kustomize, the manifest loader).
// Real manifests nest a few dozen levels and use few anchors, if any.
const (
	// MaxDepth is the deepest nesting of mappings and sequences accepted.
	MaxDepth = 200
	// MaxAliasNodes bounds how many nodes may be reached through aliases
	// in one file: a "billion laughs" document is small as a node tree and
	// explodes only when expanded.
	MaxAliasNodes = 100_000
)

// ErrYAMLBounds marks a file refused by CheckYAML.
var ErrYAMLBounds = errors.New("YAML past mirrorlint's bounds")

// PositionedError is a refusal at a place in a file.
type PositionedError struct {
	File         string
	Line, Column int
	Msg          string
	Err          error // ErrYAMLBounds, ErrURL...
}

func (e *PositionedError) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

func (e *PositionedError) Unwrap() error { return e.Err }

// CheckYAML refuses a YAML (or JSON) text nested deeper than MaxDepth or
// whose aliases reach more than MaxAliasNodes nodes. A cheap scan of the
// bytes clears almost every file; only one that might break a bound is
// parsed. A text that does not parse is not refused here: its consumer
// reports the syntax error.
func CheckYAML(name string, data []byte) error { return check(name, data, true) }

// CheckDepth is CheckYAML without the alias bound, for a reader that
// bounds alias expansion itself while it converts (the manifest loader,
// whose messages name the object).
func CheckDepth(name string, data []byte) error { return check(name, data, false) }

func check(name string, data []byte, aliases bool) error {
	if !suspect(data, aliases) {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return nil // the parser refuses it the same way (past its own depth limit too)
		}
		m := &measure{sizes: map[*yaml.Node]int{}, aliases: aliases}
		if err := m.walk(name, &doc, 0); err != nil {
			return err
		}
	}
}

// suspect reports whether data might nest past MaxDepth or use aliases:
// brackets are counted outside quotes and comments (over-counting is
// harmless, it only costs a parse), deep block indentation and any anchor
// next to any alias are flagged.
func suspect(data []byte, aliasesToo bool) bool {
	depth, maxFlow := 0, 0
	indent, atLineStart := 0, true
	anchors, aliases := false, false
	var quote byte
	prev := byte('\n')
	for i := 0; i < len(data); i++ {
		c := data[i]
		if quote != 0 {
			switch {
			case c == '\\' && quote == '"':
				i++
			case c == quote:
				quote = 0
			}
			prev = c
			continue
		}
		if atLineStart {
			if c == ' ' {
				indent++
				if indent > MaxDepth {
					return true
				}
				prev = c
				continue
			}
			atLineStart = false
		}
		switch c {
		case '\n':
			atLineStart, indent = true, 0
		case '#':
			if isSpace(prev) {
				for i < len(data) && data[i] != '\n' {
					i++
				}
				i--
				c = ' '
			}
		case '\'', '"':
			if isTokenStart(prev) {
				quote = c
			}
		case '[', '{':
			depth++
			if depth > maxFlow {
				maxFlow = depth
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '&':
			anchors = anchors || isTokenStart(prev)
		case '*':
			aliases = aliases || isTokenStart(prev)
		}
		prev = c
	}
	return maxFlow > MaxDepth/2 || (aliasesToo && anchors && aliases)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isTokenStart(c byte) bool {
	return isSpace(c) || c == '[' || c == '{' || c == ',' || c == ':' || c == '-'
}

// measure walks one document's node tree: its depth, and the nodes its
// aliases reach (the size of each anchored subtree counted once, so the
// walk stays linear however the aliases multiply).
type measure struct {
	sizes   map[*yaml.Node]int
	viaRefs int
	aliases bool // bound alias expansion too
}

func (m *measure) walk(name string, n *yaml.Node, depth int) error {
	if depth > MaxDepth {
		return &PositionedError{File: name, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf("nested more than %d levels deep; refused, no manifest needs this", MaxDepth), Err: ErrYAMLBounds}
	}
	if n.Kind == yaml.AliasNode {
		if !m.aliases {
			return nil
		}
		if n.Alias != nil {
			m.viaRefs += m.size(n.Alias, 0)
		}
		if m.viaRefs > MaxAliasNodes {
			return &PositionedError{File: name, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf("aliases reach more than %d nodes; refusing a possible \"billion laughs\" document", MaxAliasNodes), Err: ErrYAMLBounds}
		}
		return nil
	}
	for _, c := range n.Content {
		if err := m.walk(name, c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// size is the number of nodes n stands for once aliases are expanded,
// saturating past MaxAliasNodes.
func (m *measure) size(n *yaml.Node, guard int) int {
	if s, ok := m.sizes[n]; ok {
		return s
	}
	if guard > MaxDepth {
		return MaxAliasNodes + 1
	}
	m.sizes[n] = MaxAliasNodes + 1 // an alias inside its own anchor: treat as unbounded
	s := 1
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		s = m.size(n.Alias, guard+1)
	}
	for _, c := range n.Content {
		if s += m.size(c, guard+1); s > MaxAliasNodes {
			s = MaxAliasNodes + 1
			break
		}
	}
	m.sizes[n] = s
	return s
}
