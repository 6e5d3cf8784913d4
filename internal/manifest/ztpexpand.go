package manifest

import (
	"path"
	"path/filepath"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/ztp"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Problem codes of a generator's expansion.
const (
	// CodeSourceCRMissing: a PolicyGenTemplate fileName or PolicyGenerator
	// path names no file, so what it delivers is unknown (a warning
	// problem; its rule reports it as info).
	CodeSourceCRMissing = ztp.CodeSourceMissing
	// CodeGeneratorInvalid: the generator would refuse its input.
	CodeGeneratorInvalid = ztp.CodeInvalid
	// CodePluginNotRun: a kustomization names an external plugin (KSOPS,
	// an exec or container function) that is not run; the build goes on
	// without it (a warning problem; its rule reports it as info).
	CodePluginNotRun = "plugin-not-run"
)

// nodeSpan is where a node of an expanded object sits when that is another
// file than the object's (a value inherited from a source CR).
type nodeSpan struct {
	file string
	src  *source
}

// recorder is the generator's Source on disk, keeping the text of every
// file read so that positions in it can be resolved to their end.
type recorder struct {
	ztp.Dirs
	srcs map[string]*source
}

func (r *recorder) keep(files ...ztp.File) {
	for _, f := range files {
		if r.srcs[f.Name] == nil {
			r.srcs[f.Name] = newSource(f.Data)
		}
	}
}

func (r *recorder) SourceCR(name string) (ztp.File, error) {
	f, err := r.Dirs.SourceCR(name)
	if err == nil {
		r.keep(f)
	}
	return f, err
}

func (r *recorder) Manifests(p string) ([]ztp.File, error) {
	fs, err := r.Dirs.Manifests(p)
	r.keep(fs...)
	return fs, err
}

// Kustomization keeps every file the build read: its objects' values sit
// in some, and an edit to any changes what the path delivers.
func (r *recorder) Kustomization(p string) (ztp.Kustomized, error) {
	k, err := r.Dirs.Kustomization(p)
	r.keep(k.Files...)
	return k, err
}

// expandGenerator reads a PolicyGenTemplate or PolicyGenerator of a file
// on disk by expanding it (package ztp): every object its policies deliver
// is read, values inherited from a source CR located there. An entry whose
// source CR is missing but is one of the disconnected-registry source CRs
// the ZTP container ships is read from the entry alone, as before; any
// other missing one is reported. false when the file is not on disk (a
// stream), where only the entries written out are read.
func (fp *fileParse) expandGenerator(n *yaml.Node, doc int) bool {
	if fp.osPath == "" {
		return false
	}
	fp.res.readOthers = true
	rec := &recorder{Dirs: fp.generatorDirs(), srcs: map[string]*source{}}
	if fp.access != nil {
		rec.ReadFile, rec.Stat = fp.access.ReadFile, fp.access.Stat
	}
	pols, probs := ztp.Expand(fp.name, n, rec)
	for f := range rec.srcs {
		if f != fp.name && !slices.Contains(fp.res.reads, f) {
			fp.res.reads = append(fp.res.reads, f)
		}
	}
	slices.Sort(fp.res.reads)
	for _, p := range pols {
		group, bound := "", ""
		var binding *ztp.Selector
		if p.Name != "" {
			group, bound, binding = p.Ref(), p.Selector.Describe(), &p.Selector
		}
		for _, o := range p.Objects {
			if o.ComplianceType != "mustnothave" {
				fp.expanded(o, doc, group, bound, binding, rec)
			}
		}
	}
	fallback := map[[2]int]bool{}
	var left []ztp.Problem
	for _, p := range probs {
		if p.Code == ztp.CodeSourceMissing {
			if at := fp.builtinEntry(n, p.Line, p.Column); at != nil {
				fallback[[2]int{p.Line, p.Column}] = true
				continue
			}
		}
		left = append(left, p)
	}
	fp.res.problems = append(fp.res.problems, generatorProblems(left)...)
	if len(fallback) > 0 {
		before := len(fp.res.objects)
		fp.builtinEntries(n, doc, fallback)
		// The entries read without their source CR belong to the same
		// policies, bound the same way.
		for _, o := range fp.res.objects[before:] {
			for _, p := range pols {
				if p.Name != "" && p.Ref() == o.DeliveredBy {
					o.BoundTo, o.Binding = p.Selector.Describe(), &p.Selector
				}
			}
		}
	}
	return true
}

// generatorDirs is where the generator of the file reads from: the
// directory it runs in (Options.GeneratorDir), named as positions name the
// file's directory, else the file's own directory.
func (fp *fileParse) generatorDirs() ztp.Dirs {
	own, shown := filepath.Dir(fp.osPath), path.Dir(fp.name)
	d := ztp.Dirs{Dir: own, Shown: shown, SourceCRs: fp.sourceCRs, Kustomize: fp.kustomize}
	if fp.runDir == nil {
		return d
	}
	run := fp.runDir(fp.osPath)
	if run == "" {
		return d
	}
	// The directory is named from the file's, so that the files the
	// generator reads there are named as the walk names them.
	abs, err := filepath.Abs(own)
	if err != nil {
		return d
	}
	rel, err := filepath.Rel(abs, run)
	if err != nil || rel == "." {
		return d
	}
	d.Dir, d.Shown, d.File = filepath.Join(own, rel), path.Join(shown, filepath.ToSlash(rel)), own
	return d
}

// generatorProblems are the problems of a generator's expansion. The
// source CRs it names that are missing from the same places are one
// problem at the first entry, the others related to it: a hub repository
// that takes its source CRs from the ZTP container misses dozens per
// generator, and one line each would bury everything else.
func generatorProblems(probs []ztp.Problem) []Problem {
	type gap struct {
		dir, near        string
		configured, path bool
	}
	at := map[gap]int{} // the group's problem in out
	var grouped [][]*ztp.MissingSourceCR
	var out []Problem
	for _, p := range probs {
		pos := Position{File: p.File, Line: p.Line, Column: p.Column}
		if m := p.SourceCR; m != nil {
			g := gap{m.Dir, m.Near, m.Configured, m.Path}
			if i, ok := at[g]; ok {
				out[i].Related = append(out[i].Related, pos)
				grouped[i] = append(grouped[i], m)
				continue
			}
			at[g] = len(out)
		}
		out = append(out, Problem{Pos: pos, Code: p.Code, Message: p.Message, Warning: p.Code == ztp.CodeSourceMissing})
		grouped = append(grouped, []*ztp.MissingSourceCR{p.SourceCR})
	}
	for i := range out {
		if len(grouped[i]) > 1 {
			out[i].Message = ztp.SourceCRsMissing(grouped[i])
		}
	}
	return out
}

// builtinEntry tells whether the fileName or path value at line:col names
// a source CR the loader knows the kind of without reading it.
func (fp *fileParse) builtinEntry(n *yaml.Node, line, col int) *yaml.Node {
	var found *yaml.Node
	walkNodes(n, func(c *yaml.Node) {
		if c.Kind == yaml.ScalarNode && c.Line == line && c.Column == col {
			if _, ok := ztpMirrorCRs[path.Base(c.Value)]; ok {
				found = c
			}
		}
	})
	return found
}

// builtinEntries reads the entries at the given fileName/path positions as
// the loader reads a generator that is not on disk.
func (fp *fileParse) builtinEntries(n *yaml.Node, doc int, at map[[2]int]bool) {
	only := func(v *yaml.Node) bool { return v != nil && at[[2]int{v.Line, v.Column}] }
	_, kind := typeMeta(n)
	if kind == "PolicyGenTemplate" {
		fp.policyGenTemplateIf(n, doc, only)
	} else {
		fp.policyGeneratorIf(n, doc, only)
	}
}

func walkNodes(n *yaml.Node, f func(*yaml.Node)) {
	if n == nil {
		return
	}
	f(n)
	for _, c := range n.Content {
		walkNodes(c, f)
	}
}

// expanded reads one object a generator delivers. Its root is placed on
// the entry's fileName/path line, so that a finding about the object as a
// whole sits in the generator.
func (fp *fileParse) expanded(o *ztp.Object, doc int, group, bound string, binding *ztp.Selector, rec *recorder) {
	root := o.Node
	root.Line, root.Column = o.At.Line, o.At.Column
	o.Files[root] = fp.name
	spans := map[*yaml.Node]nodeSpan{}
	for n, f := range o.Files {
		if f != fp.name {
			spans[n] = nodeSpan{file: f, src: rec.srcs[f]}
		}
	}
	before := len(fp.res.objects)
	fp.spans = spans
	// A manifest that is itself a ConfigurationPolicy, or holds only
	// object-templates-raw, is no object delivered: the generator makes it
	// the policy's template, and the objects it holds are delivered.
	if av, k := typeMeta(root); isConfigurationPolicy(av, k) {
		fp.configurationPolicy(root, doc, group)
	} else if k == "" && mapValue(root, "object-templates-raw") != nil {
		fp.objectTemplates(root, doc, group)
	} else {
		fp.wrapped(root, doc, group)
	}
	fp.spans = nil
	for _, obj := range fp.res.objects[before:] {
		obj.spans, obj.BoundTo, obj.Binding = spans, bound, binding
	}
}

// posOf is the position of a node of the object being read.
func (fp *fileParse) posOf(n *yaml.Node) Position {
	if s, ok := fp.spans[n]; ok {
		return Position{File: s.file, Line: n.Line, Column: n.Column}
	}
	return Position{File: fp.name, Line: n.Line, Column: n.Column}
}
