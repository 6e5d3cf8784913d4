package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/ztp"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// fileResult is what one file contributes to the Set.
type fileResult struct {
	objects  []*Object
	problems []Problem
	// readOthers is set when the result depends on other files (a ZTP
	// generator expanded with its source CRs): it is not cached by the
	// content of this file alone.
	readOthers bool
	// reads lists the files its generators' expansion read besides it
	// (source CRs, manifests), sorted.
	reads []string
	// stopped is set when the run's memory budget was spent before the
	// file was read or while it was parsed: nothing of it is kept.
	stopped bool
}

// parseFile decodes every document of one file. One yaml.v3 decoder reads
// the whole file so node positions are file-absolute (splitting the stream
// into documents first, as kio.ByteReader does, restarts line numbers at
// each document). Every document is parsed, so malformed YAML is reported
// in any file, but only mirror-related objects are converted and kept.
func parseFile(name string, data []byte, keep Unmodelled) fileResult {
	return parseFileAt(name, "", "", data, Options{Unmodelled: keep})
}

// parseStream is parseFile for a stream read under opts: only the kinds
// it keeps and its access layer's memory budget apply (without a file on
// disk no source CR is read).
func parseStream(name string, data []byte, opts Options) fileResult {
	return parseFileAt(name, "", "", data, Options{Unmodelled: opts.Unmodelled, Access: opts.Access})
}

// parseFileAt is parseFile for a file on disk at osPath, so that the
// generators it holds can read their source CRs; blob is the content's
// id when the loader computed it ("" otherwise), kept with the text.
func parseFileAt(name, osPath, blob string, data []byte, opts Options) fileResult {
	var res fileResult
	if p := checkText(name, data); p != nil {
		res.problems = append(res.problems, *p)
		return res
	}
	fp := &fileParse{name: name, data: data, blob: blob, res: &res, keep: opts.Unmodelled, osPath: osPath, sourceCRs: opts.SourceCRs, kustomize: opts.Kustomize, runDir: opts.GeneratorDir, access: opts.Access}
	fp.over = opts.heapOver
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for doc := 0; ; doc++ {
		if fp.over() {
			// Checked between documents (and between a List's items, in
			// object), so that one file of a hundred thousand tiny
			// documents is stopped too.
			return fileResult{stopped: true}
		}
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			break
		}
		if err != nil {
			if !commentedJSON(name, data, err) {
				res.problems = append(res.problems, fp.parseProblem(err, doc))
			}
			break
		}
		fp.lastLine = maxLine(&n, fp.lastLine)
		fp.document(&n, doc)
	}
	if res.stopped {
		return fileResult{stopped: true}
	}
	for _, o := range res.objects {
		if o.File == name {
			o.marks = fp.marked()
		}
	}
	return res
}

type fileParse struct {
	name     string
	data     []byte
	blob     string // data's id, when the loader knows it
	res      *fileResult
	src      *source // shared by the objects kept from this file
	marks    *marks  // the file's marked lines, found once
	lastLine int     // the last line seen in a decoded document
	wrapSeq  int     // objects read inside policies so far (see acm.go)
	keep     Unmodelled
	// osPath is the file on disk ("" for a stream), sourceCRs the
	// configured source CR directories: a generator in the file is
	// expanded with them (ztpexpand.go).
	osPath    string
	sourceCRs []string
	kustomize ztp.Kustomizer
	runDir    func(osPath string) string // Options.GeneratorDir
	access    *safefs.Root
	// spans locates the nodes of the generated object being read that
	// come from another file.
	spans map[*yaml.Node]nodeSpan
	// over reports the run's memory budget spent (Options.heapOver).
	over func() bool
}

func (fp *fileParse) source() *source {
	if fp.src == nil {
		// The read buffer is reused for the next file; kept objects need
		// their own copy of the text.
		fp.src = newSource(bytes.Clone(fp.data))
		fp.src.blob = fp.blob
	}
	return fp.src
}

func (fp *fileParse) marked() *marks {
	if fp.marks == nil {
		fp.marks = marksOf(fp.data)
	}
	return fp.marks
}

// document handles one YAML document: a single object, a List of them, or
// an OpenShift Template.
func (fp *fileParse) document(n *yaml.Node, doc int) {
	root := n
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return
		}
		root = root.Content[0]
	}
	root = deref(root)
	if root == nil || root.Kind != yaml.MappingNode {
		return
	}
	apiVersion, kind := typeMeta(root)
	if kind == "" && IsInstallConfigFile(fp.name) {
		// install-config.yaml has no kind: it is known by its name.
		fp.unmodelled(root, doc, -1, apiVersion, KindInstallConfig, false)
		return
	}
	if items := listItems(root, kind); items != nil {
		next := 0
		fp.list(apiVersion, kind, items, doc, 1, &next, map[*yaml.Node]bool{items: true})
		return
	}
	if isTemplate(apiVersion, kind) {
		fp.template(root)
		return
	}
	if kind != "" && isSyncSetPatch(root) {
		fp.syncSetPatch(root, apiVersion, kind)
		return
	}
	// A policy delivers objects (read in place, see acm.go); the policy
	// itself is an object of another kind, kept or not as such.
	fp.unwrapPolicy(root, doc, apiVersion, kind)
	fp.object(root, doc, -1, apiVersion, kind, false)
}

// maxListDepth bounds nested Lists. kubectl flattens Lists at any depth;
// real files nest one level (a List saved from `oc get -o yaml` wrapped in
// another); the bound only stops a hostile document.
const maxListDepth = 10

// listItems returns the items of a List (kind: List, or a typed list such
// as ImageDigestMirrorSetList), nil when n is not one.
func listItems(n *yaml.Node, kind string) *yaml.Node {
	if !strings.HasSuffix(kind, "List") {
		return nil
	}
	if items := deref(mapValue(n, "items")); items != nil && items.Kind == yaml.SequenceNode {
		return items
	}
	return nil
}

// list handles kind: List and typed lists such as ImageDigestMirrorSetList.
// Items of a typed list may omit apiVersion and kind (the API server writes
// them that way); they take them from the list.
//
// A List inside a List is flattened, as kubectl does. Object.Item is the
// index in the flattened sequence, counted in *next: for a List without
// nested Lists that is the index in items, and it stays unique within the
// document when Lists nest. seen holds the items sequences already
// expanded, so aliases cannot make one list be read twice (or forever).
func (fp *fileParse) list(apiVersion, kind string, items *yaml.Node, doc, depth int, next *int, seen map[*yaml.Node]bool) {
	elemKind := strings.TrimSuffix(kind, "List")
	for _, it := range items.Content {
		it = deref(it)
		if it == nil || it.Kind != yaml.MappingNode {
			*next++
			continue
		}
		av, k := typeMeta(it)
		inferred := false
		if k == "" && kind != "List" {
			k, inferred = elemKind, true
			if av == "" {
				av = apiVersion
			}
		}
		if inner := listItems(it, k); inner != nil {
			switch {
			case seen[inner]:
				// The same list reached again through an alias.
			case depth >= maxListDepth:
				fp.res.problems = append(fp.res.problems, Problem{Pos: fp.kindPos(it), Code: "list-too-deep",
					Message: fmt.Sprintf("%s nested more than %d Lists deep; its items were not read", k, maxListDepth)})
			default:
				seen[inner] = true
				fp.list(av, k, inner, doc, depth+1, next, seen)
			}
			continue
		}
		item := *next
		*next++
		if isTemplate(av, k) {
			fp.template(it)
			continue
		}
		fp.unwrapPolicy(it, doc, av, k)
		fp.object(it, doc, item, av, k, inferred)
	}
}

// kindPos is the position of an object's "kind: X" line, from the key to
// the end of the value (the object's start when it has no kind).
func (fp *fileParse) kindPos(n *yaml.Node) Position {
	k, v := mapEntry(n, "kind", 0)
	if k == nil {
		return Position{File: fp.name, Line: n.Line, Column: n.Column}
	}
	pos := Position{File: fp.name, Line: k.Line, Column: k.Column}
	pos.EndLine, pos.EndColumn = fp.source().end(v)
	return pos
}

// typeMeta reads apiVersion and kind without converting anything else: this
// is all the work done for the ordinary workload objects of a repository.
func typeMeta(m *yaml.Node) (apiVersion, kind string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		switch k.Value {
		case "apiVersion":
			if v := deref(m.Content[i+1]); v != nil && v.Kind == yaml.ScalarNode {
				apiVersion = v.Value
			}
		case "kind":
			if v := deref(m.Content[i+1]); v != nil && v.Kind == yaml.ScalarNode {
				kind = v.Value
			}
		}
	}
	return apiVersion, kind
}

// classify decides whether an object is kept and whether it is served by
// the cluster under that apiVersion.
func classify(apiVersion, kind string) (k Kind, known, keep bool) {
	k = Kind(kind)
	switch k {
	case KindICSP, KindIDMS, KindITMS:
		// A mirror kind under any other apiVersion is a real mistake (the
		// Konflux sample's operator.openshift.io IDMS): keep it to report.
		return k, apiVersion == k.APIVersion(), true
	case KindImage:
		if apiVersion == k.APIVersion() {
			return k, true, true
		}
		// image.openshift.io/v1 Image is another API (an image stream
		// image); only config.openshift.io at the wrong version, or a
		// misspelling of that group, is ours.
		_, _, near := NearMiss(apiVersion, kind)
		return k, false, strings.HasPrefix(apiVersion, "config.openshift.io/") || near
	case KindMachineConfig, KindFeatureGate, KindClusterVersion, KindMachineConfiguration:
		return k, true, apiVersion == k.APIVersion()
	case KindClusterImagePolicy, KindImagePolicy:
		// Both apiVersions decode; whether the cluster serves the one
		// written depends on its release and feature set.
		served := apiVersion == k.APIVersion() || apiVersion == APIVersionV1Alpha1
		return k, served, served || strings.HasPrefix(apiVersion, "config.openshift.io/")
	}
	// A misspelt mirror kind is kept, unknown, so that it is reported.
	_, _, near := NearMiss(apiVersion, kind)
	return k, false, near
}

func (fp *fileParse) object(n *yaml.Node, doc, item int, apiVersion, kind string, inferred bool) {
	if item >= 0 && fp.over != nil && fp.over() {
		fp.res.stopped = true
		return
	}
	k, known, keep := classify(apiVersion, kind)
	if !keep {
		fp.unmodelled(n, doc, item, apiVersion, kind, inferred)
		return
	}
	o := &Object{
		APIVersion: apiVersion,
		Kind:       k,
		File:       fp.name,
		Doc:        doc,
		Item:       item,
		Node:       n,
		src:        fp.source(),
	}
	if m := deref(mapValue(n, "metadata")); m != nil {
		if v := deref(mapValue(m, "name")); v != nil && v.Kind == yaml.ScalarNode {
			o.Name = v.Value
		}
	}
	content, err := toContent(n)
	if err != nil {
		code := "decode-error"
		if errors.Is(err, errAliasExpansion) {
			code = "alias-expansion"
		}
		fp.res.problems = append(fp.res.problems, Problem{Pos: o.Position(), Code: code,
			Message: fmt.Sprintf("%s: %v", o.Ref(), err)})
		// Without Content no rule can look at the object; positions alone
		// would only produce misleading findings.
		return
	}
	o.setContent(content, inferred)
	if known {
		if err := o.decodeTyped(); err != nil {
			// Kept, unknown, with Content: rules can still look at the rest
			// of the object, the renderer ignores it as the cluster would.
			var msgs []string
			for _, is := range o.decodeProblems(err) {
				msgs = append(msgs, is.msg)
				fp.res.problems = append(fp.res.problems, Problem{Pos: is.pos, Code: "decode-error", Message: is.msg})
			}
			o.DecodeError = strings.Join(msgs, "\n")
			known = false
		}
	}
	o.Known = known
	fp.res.objects = append(fp.res.objects, o)
}

// deref follows alias nodes (bounded, in case of a malformed graph).
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// mapValue returns the value of the last entry with key in mapping m (the
// last one wins, as in the YAML-to-JSON conversion kubectl does).
func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	var v *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			v = m.Content[i+1]
		}
	}
	return v
}

func maxLine(n *yaml.Node, cur int) int {
	// The document node's last child is enough for an estimate of where the
	// next document starts; walking the whole tree is not worth it.
	for n != nil {
		if n.Line > cur {
			cur = n.Line
		}
		if len(n.Content) == 0 {
			break
		}
		n = n.Content[len(n.Content)-1]
	}
	return cur
}

var (
	lineErrRE   = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	anchorErrRE = regexp.MustCompile(`unknown anchor '(.*)' referenced`)
)

// parseProblem turns a yaml.v3 error into a positioned Problem. yaml.v3
// reports positions only inside the message ("yaml: line N: ..."), and some
// errors carry none; those are placed as well as we can.
func (fp *fileParse) parseProblem(err error, doc int) Problem {
	msg := err.Error()
	pos := Position{File: fp.name}
	if m := lineErrRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		pos.Line = syntaxLine(fp.data, line, m[2])
	} else if m := anchorErrRE.FindStringSubmatch(msg); m != nil {
		pos.Line, pos.Column = fp.findAlias(m[1])
	} else if strings.Contains(msg, "control characters are not allowed") {
		if i := firstControl(fp.data); i >= 0 {
			pos.Line, pos.Column = offsetPosition(fp.data, i)
		}
	}
	if pos.Line == 0 {
		// The failing document starts after the last one decoded.
		pos.Line = fp.lastLine + 1
		if doc == 0 {
			pos.Line = 1
		}
	}
	src := newSource(fp.data)
	if pos.Line > src.lines() {
		pos.Line = src.lines()
	}
	if pos.Column == 0 {
		// yaml.v3 reports only a line: point at its first non-blank
		// character, which is where editors put line-only diagnostics.
		pos.Column = src.firstNonBlank(pos.Line)
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := lineErrRE.FindStringSubmatch(err.Error()); m != nil {
		msg = m[2]
	}
	msg = "YAML syntax error: " + msg
	if doc > 0 {
		msg += fmt.Sprintf(" (in document %d; the documents before it were read, nothing after this error was)", doc+1)
	} else {
		msg += " (nothing after this error in the file was read)"
	}
	if looksTemplated(fp.data) {
		msg += "; the file looks like a Helm/Jinja template ({{ }}): lint the rendered output instead"
	}
	return Problem{Pos: pos, Code: CodeParseError, Message: msg}
}

// commentedJSON reports whether a .json file that does not parse is no
// manifest whatever it meant: a tsconfig.json, devcontainer.json or VS
// Code settings file with comments, which YAML cannot read. Every object
// names its kind, and the text holds no "kind" (nor a numeric escape, the
// only way a string can spell a letter without writing it), so nothing in
// it goes unchecked and its syntax error is not reported. A file refused
// for its depth is still reported.
func commentedJSON(name string, data []byte, err error) bool {
	if path.Ext(filepath.ToSlash(name)) != ".json" || strings.Contains(err.Error(), "max depth") {
		return false
	}
	return !bytes.Contains(data, []byte("kind")) && !numericEscape.Match(data)
}

// numericEscape is an escape naming a character by its code, as JSON
// (\u) and YAML's double-quoted strings (\x, \u, \U) write them.
var numericEscape = regexp.MustCompile(`\\[xuU]`)

func (fp *fileParse) findAlias(name string) (line, col int) {
	if i := bytes.Index(fp.data, []byte("*"+name)); i >= 0 {
		return offsetPosition(fp.data, i)
	}
	return 0, 0
}

func looksTemplated(data []byte) bool {
	return bytes.Contains(data, []byte("{{")) && bytes.Contains(data, []byte("}}"))
}

// firstControl returns the offset of the first character YAML forbids in
// a stream (C0 controls other than tab/LF/CR, DEL, C1 controls but NEL).
func firstControl(data []byte) int {
	for i, r := range string(data) {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == 0x85:
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0xfffe || r == 0xffff:
			return i
		}
	}
	return -1
}
