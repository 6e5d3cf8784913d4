package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/textdiff"
)

// Suffix names the file written next to an input: clusters/icsp.yaml gives
// clusters/icsp.idms.yaml. A fixed name (no random part, unlike oc) keeps
// reruns idempotent and reviews readable.
const Suffix = ".idms.yaml"

// Options choose where the IDMSs go.
type Options struct {
	// OutDir writes the IDMS files there instead of next to their input.
	OutDir string
	// InPlace replaces each ICSP document inside its own file.
	InPlace bool
}

// Change is one file to write.
type Change struct {
	From string // the input file
	Path string // the file written
	// Old is Path's current content; nil when it does not exist.
	Old []byte
	New []byte
	// Names are the converted ICSPs, in file order.
	Names []string
	// Notes say what the conversion changed beyond the kind (tags and
	// digests removed, entries merged), for the user to review.
	Notes []string
}

// Diff is the unified diff of the change (from /dev/null for a new file).
func (c Change) Diff() string {
	oldName := c.Path
	if c.Old == nil {
		oldName = "/dev/null"
	}
	return textdiff.Unified(oldName, c.Path, c.Old, c.New, textdiff.DefaultContext)
}

// File is an input file: its path and content.
type File struct {
	Path string
	// Data is the file's content as read (manifest.Object.Text); nil
	// makes PlanFiles read it.
	Data []byte
}

// Plan reads files and returns the changes a migration makes; files
// without an ICSP give none. Nothing is written.
func Plan(files []string, opts Options) ([]Change, error) {
	in := make([]File, len(files))
	for i, f := range files {
		in[i] = File{Path: f}
	}
	return PlanFiles(in, opts)
}

// PlanFiles is Plan for files already read: each is parsed again from its
// bytes (the in-place mode keeps every other document and comment as it
// is), not read from disk a second time.
func PlanFiles(files []File, opts Options) ([]Change, error) {
	var out []Change
	seen := map[string]string{}
	for _, in := range files {
		f, data := in.Path, in.Data
		if data == nil {
			var err error
			if data, err = os.ReadFile(f); err != nil {
				return nil, err
			}
		}
		c, err := planFile(f, data, opts)
		if err != nil {
			var re *RefusedError
			if errors.As(err, &re) {
				return nil, fmt.Errorf("%s:%d:%d: %w", f, re.Line, re.Column, err)
			}
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if c == nil {
			continue
		}
		if prev, dup := seen[c.Path]; dup {
			return nil, fmt.Errorf("%s and %s would both be migrated to %s", prev, f, c.Path)
		}
		seen[c.Path] = f
		if c.Path == f {
			c.Old = data // in place: the input itself
			c.New = keepLineEndings(data, c.New)
		} else if old, err := os.ReadFile(c.Path); err == nil {
			c.Old = old
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		out = append(out, *c)
	}
	return out, nil
}

func planFile(path string, data []byte, opts Options) (*Change, error) {
	chunks := splitDocuments(data)
	var (
		docs     [][]byte // separate mode: the IDMS documents
		rewrites = make([][]byte, len(chunks))
		names    []string
		notes    []string
	)
	for i, chunk := range chunks {
		doc, err := decodeOne(chunk)
		if err != nil {
			// The line split met something it cannot handle (a "---"
			// inside a block scalar at column 0): convert the file as
			// one stream instead.
			return planWholeFile(path, data, opts)
		}
		if doc == nil {
			continue
		}
		converted, idms, n, ns, err := convertDocument(doc)
		if err != nil {
			return nil, err
		}
		if n == nil {
			continue
		}
		names = append(names, n...)
		notes = append(notes, ns...)
		for _, d := range idms {
			b, err := encode(d)
			if err != nil {
				return nil, err
			}
			docs = append(docs, b)
		}
		if rewrites[i], err = encode(converted); err != nil {
			return nil, err
		}
		if marker := leadingMarker(chunk); marker != "" {
			rewrites[i] = append([]byte(marker), rewrites[i]...)
		}
	}
	if names == nil {
		return nil, nil
	}
	c := &Change{From: path, Names: names, Notes: notes}
	if opts.InPlace {
		c.Path = path
		var b bytes.Buffer
		for i, chunk := range chunks {
			if rewrites[i] != nil {
				b.Write(rewrites[i])
			} else {
				b.Write(chunk)
			}
		}
		c.New = b.Bytes()
		return c, nil
	}
	c.Path = outputPath(path, opts.OutDir)
	c.New = bytes.Join(docs, []byte("---\n"))
	return c, nil
}

// planWholeFile is the fallback: every document goes through the node
// tree, so other documents keep their content and comments but not their
// exact layout.
func planWholeFile(path string, data []byte, opts Options) (*Change, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var all []*yaml.Node
	var idmsDocs [][]byte
	var names, notes []string
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		converted, idms, n, ns, err := convertDocument(&doc)
		if err != nil {
			return nil, err
		}
		names = append(names, n...)
		notes = append(notes, ns...)
		for _, d := range idms {
			b, err := encode(d)
			if err != nil {
				return nil, err
			}
			idmsDocs = append(idmsDocs, b)
		}
		if converted == nil {
			converted = &doc
		}
		all = append(all, converted)
	}
	if names == nil {
		return nil, nil
	}
	c := &Change{From: path, Names: names, Notes: notes}
	if !opts.InPlace {
		c.Path, c.New = outputPath(path, opts.OutDir), bytes.Join(idmsDocs, []byte("---\n"))
		return c, nil
	}
	var parts [][]byte
	for _, d := range all {
		b, err := encode(d)
		if err != nil {
			return nil, err
		}
		parts = append(parts, b)
	}
	c.Path, c.New = path, bytes.Join(parts, []byte("---\n"))
	return c, nil
}

func outputPath(in, dir string) string {
	base := filepath.Base(in)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if dir == "" {
		dir = filepath.Dir(in)
	}
	return filepath.Join(dir, stem+Suffix)
}

var marker = regexp.MustCompile(`(?m)^---[ \t]*(#.*)?\r?$`)

// splitDocuments cuts data before every line that is a bare document
// marker ("---", optionally followed by a comment). Each chunk but the
// first starts with its marker line. Joining the chunks gives data back.
func splitDocuments(data []byte) [][]byte {
	var out [][]byte
	start := 0
	for _, loc := range marker.FindAllIndex(data, -1) {
		if loc[0] > start {
			out = append(out, data[start:loc[0]])
			start = loc[0]
		}
	}
	return append(out, data[start:])
}

// leadingMarker returns the chunk's marker line (with its newline), which
// the encoder does not reproduce.
func leadingMarker(chunk []byte) string {
	loc := marker.FindIndex(chunk)
	if loc == nil || loc[0] != 0 {
		return ""
	}
	end := loc[1]
	if end < len(chunk) && chunk[end] == '\n' {
		end++
	}
	return string(chunk[:end])
}

// decodeOne parses a chunk that must hold at most one document; it
// returns nil for a chunk with none (comments only).
func decodeOne(chunk []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(chunk))
	var doc yaml.Node
	if err := dec.Decode(&doc); err == io.EOF {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		return nil, errors.New("more than one document in a chunk")
	}
	return &doc, nil
}

// convertDocument converts the ICSPs of one document: the document itself
// or the items of a List. It returns the document rewritten for in-place
// mode, the IDMSs for separate files, and the ICSP names; names is nil
// when the document holds no ICSP.
func convertDocument(doc *yaml.Node) (rewritten *yaml.Node, idms []*yaml.Node, names, notes []string, err error) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, nil, nil, nil, nil
	}
	name := func(n *yaml.Node) string {
		_, md := entry(n, "metadata")
		return scalar(md, "name")
	}
	if IsICSP(root) {
		out, note, err := Convert(root)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		copyDocComments(doc, out)
		if note != "" {
			notes = []string{note}
		}
		return out, []*yaml.Node{out}, []string{name(root)}, notes, nil
	}
	kind := scalar(root, "kind")
	if kind != "List" && kind != icspKind+"List" {
		return nil, nil, nil, nil, nil
	}
	_, items := entry(root, "items")
	if items == nil || items.Kind != yaml.SequenceNode {
		return nil, nil, nil, nil, nil
	}
	list := clone(root)
	_, newItems := entry(list, "items")
	for i, it := range items.Content {
		if kind == icspKind+"List" && scalar(it, "kind") == "" {
			// Typed lists may leave apiVersion/kind to the list.
			it = withTypeMeta(it)
		}
		if !IsICSP(it) {
			continue
		}
		out, note, err := Convert(it)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		newItems.Content[i] = out
		idms = append(idms, out)
		names = append(names, name(it))
		if note != "" {
			notes = append(notes, note)
		}
	}
	if names == nil {
		return nil, nil, nil, nil, nil
	}
	if kind == icspKind+"List" {
		setScalar(list, "apiVersion", idmsAPIVersion)
		setScalar(list, "kind", idmsKind+"List")
	}
	copyDocComments(doc, list)
	return list, idms, names, notes, nil
}

func withTypeMeta(it *yaml.Node) *yaml.Node {
	c := clone(it)
	c.Content = append([]*yaml.Node{str("apiVersion"), str(icspAPIVersion), str("kind"), str(icspKind)}, c.Content...)
	return c
}

func setScalar(m *yaml.Node, key, value string) {
	if _, v := entry(m, key); v != nil {
		v.Value, v.Tag, v.Style = value, "!!str", 0
	}
}

// copyDocComments keeps comments attached to the document node (above the
// first key, or at the end of the document).
func copyDocComments(doc, out *yaml.Node) {
	if doc.Kind != yaml.DocumentNode {
		return
	}
	if doc.HeadComment != "" {
		out.HeadComment = strings.TrimSpace(doc.HeadComment + "\n" + out.HeadComment)
	}
	if doc.FootComment != "" {
		out.FootComment = strings.TrimSpace(out.FootComment + "\n" + doc.FootComment)
	}
}

// encode writes one node as a YAML document: 2-space indent, sequences
// not indented under their key (the kubectl layout).
func encode(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoderWithOptions(&b, &yaml.EncoderOptions{SeqIndent: yaml.CompactSequenceStyle})
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// keepLineEndings gives converted text the line endings of the file it
// replaces: the encoder writes LF, and a CRLF file rewritten in place must
// not come back half LF (editors and `git diff` would show every converted
// line as changed). A file whose first line ends in CRLF is CRLF
// throughout.
func keepLineEndings(old, converted []byte) []byte {
	i := bytes.IndexByte(old, '\n')
	if i <= 0 || old[i-1] != '\r' {
		return converted
	}
	lf := bytes.ReplaceAll(converted, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
}
