package ztp

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// maxDepth bounds recursion over hostile input (deep nesting, alias loops).
const maxDepth = 64

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < 8; i++ {
		switch n.Kind {
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		case yaml.AliasNode:
			n = n.Alias
		default:
			return n
		}
	}
	if n != nil && (n.Kind == yaml.AliasNode || n.Kind == yaml.DocumentNode) {
		return nil
	}
	return n
}

// entry returns the key and value nodes of key in mapping m (the last
// one written, as decoders do).
func entry(m *yaml.Node, key string) (k, v *yaml.Node) {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if c := m.Content[i]; c.Kind == yaml.ScalarNode && c.Value == key {
			k, v = c, m.Content[i+1]
		}
	}
	return k, v
}

func value(m *yaml.Node, key string) *yaml.Node {
	_, v := entry(m, key)
	return deref(v)
}

func scalar(m *yaml.Node, key string) string {
	if v := value(m, key); v != nil && v.Kind == yaml.ScalarNode && !isNull(v) {
		return v.Value
	}
	return ""
}

func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func isMap(n *yaml.Node) bool {
	n = deref(n)
	return n != nil && n.Kind == yaml.MappingNode
}

func seq(m *yaml.Node, key string) []*yaml.Node {
	if v := value(m, key); v != nil && v.Kind == yaml.SequenceNode {
		return v.Content
	}
	return nil
}

// boolean reads a YAML boolean, def when absent or not a boolean.
func boolean(m *yaml.Node, key string, def bool) bool {
	v := value(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return def
	}
	switch strings.ToLower(v.Value) {
	case "true", "yes", "on":
		return true
	case "false", "no", "off":
		return false
	}
	return def
}

// tagged builds the output trees: every node it returns is a fresh copy,
// recorded with the file of the node it copies.
type tagged struct {
	files map[*yaml.Node]string
}

// maxNodes bounds the nodes of one produced object: aliases can make a
// small file expand to billions of nodes (a "billion laughs").
const maxNodes = 1 << 16

func newTagged() *tagged { return &tagged{files: map[*yaml.Node]string{}} }

// copyOf deep-copies n (aliases resolved) as coming from file.
func (t *tagged) copyOf(n *yaml.Node, file string) *yaml.Node {
	return t.copyDepth(n, func(*yaml.Node, *yaml.Node) string { return file }, 0)
}

// copyDepth deep-copies n, each copy's file given by fileOf (which may
// also move the copy: a node it cannot place).
func (t *tagged) copyDepth(n *yaml.Node, fileOf func(orig, c *yaml.Node) string, depth int) *yaml.Node {
	n = deref(n)
	if n == nil {
		return nil
	}
	c := &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Value: n.Value, Line: n.Line, Column: n.Column}
	file := fileOf(n, c)
	t.files[c] = file
	if depth >= maxDepth || len(t.files) > maxNodes {
		return c
	}
	for _, ch := range n.Content {
		if cc := t.copyDepth(ch, fileOf, depth+1); cc != nil {
			c.Content = append(c.Content, cc)
		} else {
			c.Content = append(c.Content, t.null(ch, file))
		}
	}
	return c
}

// shell copies a container node without its content.
func (t *tagged) shell(n *yaml.Node, file string) *yaml.Node {
	c := &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Line: n.Line, Column: n.Column}
	t.files[c] = file
	return c
}

func (t *tagged) null(at *yaml.Node, file string) *yaml.Node {
	c := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	if at != nil {
		c.Line, c.Column = at.Line, at.Column
	}
	t.files[c] = file
	return c
}

// set puts key: v into mapping m, replacing an existing entry.
func (t *tagged) set(m *yaml.Node, key string, k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, k, v)
}

// remove deletes key from mapping m.
func remove(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			return
		}
	}
}

// documents decodes the YAML documents of a file, skipping empty ones
// (a trailing ---), as both generators do.
func documents(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var d yaml.Node
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return docs, err
		}
		if n := deref(&d); n != nil && !isNull(n) {
			docs = append(docs, n)
		}
	}
}
