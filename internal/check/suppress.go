package check

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/parallel"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// The three ways to suppress a finding. Each needs a reason; a suppression
// without one, or one that matches nothing, is itself reported.
// The third is a comment (manifest.IgnoreMarker) on the offending line or
// the line above it: "# mirrorlint:ignore <rule-id> <reason>".
const (
	// IgnoreAnnotation on an object: "<rule-id>: <reason>", one per line.
	IgnoreAnnotation = "mirrorlint.io/ignore"
)

var commentDirective = regexp.MustCompile(`#\s*mirrorlint:ignore(?:\s+(\S+))?(?:\s+(.*?))?\s*$`)

// UnusedSuppressionRule and InvalidSuppressionRule report suppressions
// themselves; they have no Check of their own.
var (
	UnusedSuppressionRule = &Rule{
		ID: "unused-suppression", Severity: Warning, Origin: OriginTool,
		Summary: "A suppression matches no finding.",
		Doc:     doc("unused-suppression"),
	}
	InvalidSuppressionRule = &Rule{
		ID: "invalid-suppression", Severity: Error, Origin: OriginTool,
		Summary: "A suppression has no rule id or no reason.",
		Doc:     doc("invalid-suppression"),
	}
)

// syntaxHint says how each kind of suppression is written.
var syntaxHint = map[string]string{
	"annotation": `write "mirrorlint.io/ignore: <rule-id>: <reason>"`,
	"comment":    `write "# mirrorlint:ignore <rule-id> <reason>"`,
	"config":     "give the ignore entry a rule: and a reason:",
}

type directive struct {
	kind   string // annotation | comment | config
	rule   string
	reason string
	pos    manifest.Position
	file   string // comment: file; annotation: object file (as displayed)
	canon  string // file, absolute and symlink-free: the same file has one name
	line   int    // comment line
	object string // annotation: Kind/name
	ignore int    // config: index in Config.Ignore
	used   bool
}

type suppressions struct {
	byKey map[string]*directive
	order []*directive
	canon sync.Map // file → canonical name (see canonical and Engine.Prepare)
	// realPath names a file by its real path: the run's access root's
	// (whose listings already know most files), else one resolver for
	// the engine, each directory resolved once.
	realPath func(string) string
	res      safefs.Resolver
	// marked holds each file's lines with a suppression comment marker
	// (by canonical name), from the loader's read or, for a file no
	// object was read from, from one read in the run: a file is read for
	// its comments at most once however many clusters and objects it has.
	marked map[string][]manifest.MarkedLine
}

// canonical names a file the same way whatever path led to it: objects of
// a kustomize build are named after their base as the tree was loaded, the
// relocation may name the same file relative to another root. Directives
// and findings meet under this name; "" and the stream (manifest.StreamName) stay as they are.
func (s *suppressions) canonical(file string) string {
	if file == "" || manifest.IsStream(file) {
		return file
	}
	if c, ok := s.canon.Load(file); ok {
		return c.(string)
	}
	c := s.realPath(file)
	s.canon.Store(file, c)
	return c
}

// Prepare names by their real paths the files cl's objects were read
// from, for Settle: resolving the files of a cluster of thousands is a
// good part of settling it, and settling is done one cluster at a time,
// while Prepare may run for several clusters at once and beside Check.
func (e *Engine) Prepare(cl *cluster.Cluster) {
	s := e.suppressions()
	var files []string
	seen := map[string]bool{}
	for _, o := range cl.Objects {
		if !seen[o.File] {
			seen[o.File] = true
			files = append(files, o.File)
		}
	}
	const chunk = 256
	parallel.Each((len(files)+chunk-1)/chunk, func(i int) {
		for _, f := range files[i*chunk : min((i+1)*chunk, len(files))] {
			s.canonical(f)
		}
	})
}

// markedLines returns the marked lines of a file (canonical name key, as
// displayed file), reading it only when neither the loader's result nor an
// earlier cluster gave them.
func (e *Engine) markedLines(key, file string) []manifest.MarkedLine {
	if l, ok := e.sup.marked[key]; ok {
		return l
	}
	var l []manifest.MarkedLine
	if data, err := e.source(file); err == nil {
		l = manifest.FindMarked(data)
	}
	e.sup.marked[key] = l
	return l
}

func (s *suppressions) add(key string, d *directive) *directive {
	if s.byKey == nil {
		s.byKey = map[string]*directive{}
	}
	if old, ok := s.byKey[key]; ok {
		return old
	}
	s.byKey[key] = d
	s.order = append(s.order, d)
	return d
}

// suppress marks the findings a directive silences. objFiles, when not
// nil, holds each finding's file before relocation: the file of the object
// its annotations are on.
func (e *Engine) suppress(cl *cluster.Cluster, fs []Finding, objFiles []string) []Finding {
	canon := e.suppressions().canonical
	// Annotations, per object.
	annots := map[string][]*directive{} // canonical file|Kind/name → directives
	files := map[string]string{}        // canonical → as displayed (first seen)
	seeFile := func(file string) {
		if c := canon(file); files[c] == "" {
			files[c] = file
		}
	}
	var fresh []*directive // annotation directives first seen in this cluster
	for _, o := range cl.Objects {
		seeFile(o.File)
		raw := annotation(o)
		if raw == "" {
			continue
		}
		key := canon(o.File) + "|" + o.Ref()
		for i, line := range splitDirectives(raw) {
			rule, reason, _ := strings.Cut(line, ":")
			d := &directive{kind: "annotation", rule: strings.TrimSpace(rule), reason: strings.TrimSpace(reason),
				pos: o.Locate(manifest.Path{"metadata", "annotations", IgnoreAnnotation}), file: o.File, canon: canon(o.File), object: o.Ref()}
			if got := e.sup.add("a|"+key+"|"+strconv.Itoa(i), d); got == d {
				fresh = append(fresh, d)
			} else {
				d = got
			}
			annots[key] = append(annots[key], d)
		}
	}
	e.relocateDirectives(cl, fresh)
	for _, f := range fs {
		seeFile(f.File)
	}
	// Inline comments, in files that hold objects or findings. The lines
	// the loader noted (or the text it kept) are reused; only files that no
	// object was read from (an origin file a streamed finding was mapped
	// to, a file a kustomize build read) are read, once per run.
	if e.sup.marked == nil {
		e.sup.marked = map[string][]manifest.MarkedLine{}
	}
	for _, o := range cl.Objects {
		key := canon(o.File)
		if _, ok := e.sup.marked[key]; ok || key == "" || manifest.IsStream(key) {
			continue
		}
		if l, ok := o.Marked(); ok {
			e.sup.marked[key] = l
		} else if t := o.Text(); t != nil {
			e.sup.marked[key] = manifest.FindMarked(t)
		}
	}
	comments := map[string]map[int]*directive{}
	for key, file := range files {
		if file == "" || manifest.IsStream(file) {
			continue
		}
		for _, ml := range e.markedLines(key, file) {
			m := commentDirective.FindStringSubmatch(ml.Text)
			if m == nil {
				continue
			}
			n := ml.Line
			col := strings.Index(ml.Text, "#") + 1
			d := &directive{kind: "comment", rule: m[1], reason: m[2], file: file, canon: key, line: n,
				pos: manifest.Position{File: file, Line: n, Column: col}}
			d = e.sup.add("c|"+key+"|"+strconv.Itoa(n), d)
			if comments[key] == nil {
				comments[key] = map[int]*directive{}
			}
			comments[key][n] = d
		}
	}
	// Config entries.
	var cfgDirs []*directive
	if e.Config != nil {
		for i, ig := range e.Config.Ignore {
			d := &directive{kind: "config", rule: ig.Rule, reason: strings.TrimSpace(ig.Reason), ignore: i,
				pos: manifest.Position{File: e.Config.Path, Line: e.Config.IgnoreLine(i), Column: 1}, object: ig.Object}
			cfgDirs = append(cfgDirs, e.sup.add("g|"+strconv.Itoa(i), d))
		}
	}

	for i := range fs {
		f := &fs[i]
		if f.Rule == ProblemRule.ID || f.Rule == LimitRule.ID || f.Rule == InvalidSuppressionRule.ID || f.Rule == UnusedSuppressionRule.ID {
			continue
		}
		match := func(d *directive) bool {
			if d == nil || d.rule != f.Rule || d.reason == "" || d.rule == "" {
				return false
			}
			d.used = true
			if f.Suppressed == nil {
				f.Suppressed = &Suppression{Kind: d.kind, Reason: d.reason}
			}
			return true
		}
		ref := f.Object.Kind + "/" + f.Object.Name
		annotFile := f.File
		if objFiles != nil {
			annotFile = objFiles[i]
		}
		for _, d := range annots[canon(annotFile)+"|"+ref] {
			match(d)
		}
		if c := comments[canon(f.File)]; c != nil {
			match(c[f.Line])
			match(c[f.Line-1])
		}
		for _, d := range cfgDirs {
			ig := e.Config.Ignore[d.ignore]
			if ig.Path != "" && !GlobMatch(ig.Path, f.File) {
				continue
			}
			if ig.Object != "" && ig.Object != f.Object.Kind+"/"+f.Object.Name {
				continue
			}
			match(d)
		}
	}
	return fs
}

// relocateDirectives moves annotation directives where Relocate moves
// findings on them (the origin file of a streamed object), so a report
// about the suppression names the file it is written in.
func (e *Engine) relocateDirectives(cl *cluster.Cluster, ds []*directive) {
	if e.Relocate == nil || len(ds) == 0 {
		return
	}
	fs := make([]Finding, len(ds))
	for i, d := range ds {
		kind, name, _ := strings.Cut(d.object, "/")
		fs[i] = Finding{Position: d.pos, Object: ObjectRef{Kind: kind, Name: name}, Path: "metadata.annotations"}
	}
	fs = e.Relocate(cl, fs)
	if len(fs) != len(ds) {
		return
	}
	for i, d := range ds {
		d.pos = fs[i].Position
	}
}

// Finish reports invalid suppressions and those that matched nothing in
// any cluster linted by this engine. Call it once, after every Lint.
func (e *Engine) Finish() []Finding {
	if e.sup == nil {
		return nil
	}
	var out []Finding
	for _, d := range e.sup.order {
		var f Finding
		switch {
		case d.rule == "" || d.reason == "":
			what := "a reason"
			if d.rule == "" {
				what = "a rule id and a reason"
			}
			f = Finding{Rule: InvalidSuppressionRule.ID, Severity: e.severity(InvalidSuppressionRule.ID, InvalidSuppressionRule.Severity),
				Message: "suppression (" + d.kind + ") needs " + what + ": " + syntaxHint[d.kind]}
		case e.Rules.Get(d.rule) == nil && !strings.Contains(d.rule, "/"):
			f = Finding{Rule: UnusedSuppressionRule.ID, Severity: e.severity(UnusedSuppressionRule.ID, UnusedSuppressionRule.Severity),
				Message: "suppression (" + d.kind + ") names unknown rule " + d.rule}
		case !d.used && !e.allReadersLinted(d):
			// Another cluster, not linted in this run, may need it.
			continue
		case !d.used:
			f = Finding{Rule: UnusedSuppressionRule.ID, Severity: e.severity(UnusedSuppressionRule.ID, UnusedSuppressionRule.Severity),
				Message: "suppression (" + d.kind + ") of " + d.rule + " matches no finding: remove it"}
		default:
			continue
		}
		if f.Severity == Off {
			continue
		}
		f.Position = d.pos
		if d.kind == "annotation" {
			kind, name, _ := strings.Cut(d.object, "/")
			f.Object = ObjectRef{Kind: kind, Name: name}
			f.Path = "metadata.annotations." + IgnoreAnnotation
		}
		out = append(out, f)
	}
	Sort(out)
	return out
}

// allReadersLinted asks AllReadersLinted about the file a directive is
// in; config entries are about the whole tree.
func (e *Engine) allReadersLinted(d *directive) bool {
	if e.AllReadersLinted == nil {
		return true
	}
	if d.kind == "config" {
		return e.AllReadersLinted("")
	}
	return e.AllReadersLinted(d.canon)
}

// suppressions is the run's suppression bookkeeping, made on first use.
func (e *Engine) suppressions() *suppressions {
	e.supOnce.Do(func() {
		s := &suppressions{}
		s.realPath = s.res.RealPath
		if e.Access != nil {
			s.realPath = e.Access.RealPath
		}
		e.sup = s
	})
	return e.sup
}

// source is a file's bytes for its suppression comments. A finding's file
// may be one the walk refused to read (a link to /dev/zero, a file outside
// the repository): it is checked through the access layer first, so a
// suppression lookup never reads what loading did not.
func (e *Engine) source(file string) ([]byte, error) {
	if err := e.Access.Check(file); err != nil {
		return nil, err
	}
	if e.Source != nil {
		return e.Source(file)
	}
	return e.Access.ReadFile(file)
}

func annotation(o *manifest.Object) string {
	md, _ := o.Content["metadata"].(map[string]any)
	an, _ := md["annotations"].(map[string]any)
	s, _ := an[IgnoreAnnotation].(string)
	return s
}

func splitDirectives(s string) []string {
	var out []string
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ';' }) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// GlobMatch matches a finding's file against a config ignore path with
// manifest.MatchGlob, after making both comparable: the file may be an OS
// path ("a\\b.yaml", "./a/../b.yaml") and the pattern may start with "./".
func GlobMatch(pattern, name string) bool {
	name = strings.TrimPrefix(path.Clean(strings.ReplaceAll(name, "\\", "/")), "./")
	return manifest.MatchGlob(strings.TrimPrefix(pattern, "./"), name)
}
