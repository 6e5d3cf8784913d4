package cluster

import (
	"fmt"
	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/trace"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// loaded is what one part contributes to a cluster: a kustomize build or a
// plain load. A kustomization shared by several declared clusters is
// built once.
type loaded struct {
	objects  []*manifest.Object
	problems []manifest.Problem
	inputs   []string // absolute
	dirs     []string // absolute; every file under them is an input
	origins  map[*manifest.Object]*manifest.Object
	patches  []trace.PatchRef
}

// part is one thing a cluster is made of: a kustomization to build, or
// plain files read as they are.
type part struct {
	kust  string   // the kustomization directory; "" for plain files
	files []string // plain files, absolute
	dir   string   // the plain directory they were listed under, if any
}

// kustomization is the part of the kustomization in dir: its build when
// build is set, else the objects as written in the resource files it
// reads (for `mirrorlint clusters`, which builds nothing). The build
// itself comes from the build cache, run ahead by Load.
func (d *discoverer) kustomization(dir string, build bool) *loaded {
	l := &loaded{}
	kusts, files := d.graph.Closure(dir)
	l.inputs = files
	for _, f := range files {
		l.problems = append(l.problems, d.res.Problems(f)...)
	}
	// Patches of bases first: kustomize applies them before the overlay's,
	// and Relocate searches from the last.
	l.patches = trace.PatchesOf(kusts)
	if blocked := d.blocked(kusts); len(blocked) > 0 {
		l.problems = append(l.problems, blocked...)
		return l
	}
	generated, notRun := d.pluginParts(kusts)
	l.problems = append(l.problems, notRun...)
	l.problems = append(l.problems, d.leftOut(kusts)...)
	l.inputs, l.problems = d.generatorReads(kusts, l.inputs, l.problems)
	if !build {
		l.problems = append(l.problems, d.missing(kusts)...)
		for _, f := range kustomization.ResourceFiles(kusts) {
			l.objects = append(l.objects, d.res.Objects(f)...)
		}
		l.objects = append(l.objects, generated...)
		return l
	}
	b := d.builds.Get(dir)
	if b.Err != nil {
		// kustomize stops at the first entry it cannot read; the other
		// entries naming no file are listed too, so that one run shows
		// every fix.
		bp := d.buildProblem(b.Err, kusts)
		missing := d.missing(kusts)
		if kusts[0].Component && len(missing) == 0 {
			// A Component no kustomization of the tree includes: built
			// on its own, it lacks what an including kustomization would
			// hold (the source of a replacement, a patch's target). Not
			// checked, which is said, but no error of the tree's. A file
			// it names that does not exist is one, included or not.
			bp.Warning, bp.Incomplete = true, true
			bp.Message += "; this Component is included by no kustomization of the tree, so it is built on its own, without what a kustomization including it holds, and is not checked: lint a kustomization that lists it in components:"
		}
		l.problems = append(l.problems, bp)
		for _, m := range missing {
			if m.Pos != bp.Pos {
				l.problems = append(l.problems, m)
			}
		}
		return l
	}
	l.objects, l.origins = append(b.Objects, generated...), b.Origins
	l.problems = append(l.problems, b.Notes...)
	if len(l.problems) == 0 {
		// Problems in the build output (a patch that breaks a type) have
		// no source file of their own; when the inputs have problems
		// these are the same ones again.
		l.problems = append(l.problems, b.Problems...)
	}
	return l
}

// syntaxError returns the YAML syntax error the loader reported in file:
// placed at its line and naming a template the file looks like, it says
// what a kustomization's own parse error would say again.
func (d *discoverer) syntaxError(file string) (manifest.Problem, bool) {
	probs := d.res.Problems(file)
	if i := slices.IndexFunc(probs, func(p manifest.Problem) bool { return p.Code == manifest.CodeParseError }); i >= 0 {
		return probs[i], true
	}
	return manifest.Problem{}, false
}

// blocked lists what stops a closure from being built at all: a
// kustomization that does not parse, a remote entry that is not a
// resource, base or component (which builds leave out, see leftOut).
func (d *discoverer) blocked(kusts []*kustomization.File) []manifest.Problem {
	var out []manifest.Problem
	for i := len(kusts) - 1; i >= 0; i-- {
		k := kusts[i]
		if k.Err != nil {
			if p, ok := d.syntaxError(k.Path); ok {
				out = append(out, p) // the same problem, reported once
			} else {
				out = append(out, d.kustProblem(k, yamlErrLine(k.Err), 1, "kustomization does not parse: "+k.Err.Error()))
			}
		}
		for _, e := range k.Entries {
			if e.IsRemote() && !e.NotBuilt() {
				out = append(out, d.kustProblem(k, e.Line, e.Column,
					fmt.Sprintf("%s entry %q is remote; mirrorlint runs offline and does not fetch it: vendor it, or lint the `kustomize build` output with `mirrorlint lint -`", e.Field, e.Value)))
			}
		}
	}
	return out
}

// leftOut reports the entries of a closure that builds leave out
// (kustomization.File.LeftOut), once each, where they are written: the
// rest of the kustomization is built and linted, what they add is not.
func (d *discoverer) leftOut(kusts []*kustomization.File) []manifest.Problem {
	var out []manifest.Problem
	for i := len(kusts) - 1; i >= 0; i-- {
		k := kusts[i]
		for _, e := range k.LeftOut() {
			var msg string
			if e.IsHelm() {
				msg = fmt.Sprintf("%s entry %q inflates a Helm chart, which mirrorlint does not do (it runs no helm): the kustomization is built without it, so what the chart renders is not linted; "+
					"lint the rendered output (`kustomize build --enable-helm DIR | mirrorlint lint -`), or commit the chart's rendered manifests", e.Field, e.Value)
			} else if e.Field == "configMapGenerator" || e.Field == "secretGenerator" {
				msg = fmt.Sprintf("%s entry %q reads %q, which kustomize fetches over HTTP; mirrorlint runs offline and does not fetch it: the kustomization is built without the object this entry makes, so it is not linted; "+
					"vendor the file into the repository, or lint the `kustomize build` output with `mirrorlint lint -`", e.Field, e.Generated, e.Value)
			} else {
				msg = fmt.Sprintf("%s entry %q is remote; mirrorlint runs offline and does not fetch it: the kustomization is built without it, so what it adds is not linted; "+
					"vendor it, or lint the `kustomize build` output with `mirrorlint lint -`", e.Field, e.Value)
			}
			p := d.kustProblem(k, e.Line, e.Column, msg)
			p.Code, p.Warning, p.Incomplete = manifest.CodeNotBuilt, true, true
			out = append(out, p)
		}
	}
	return out
}

// leftOutNames quotes the entries of a closure that builds leave out,
// "" when there are none: a build that fails says it was built without
// them, since a patch of an object only a remote base or a chart adds
// finds nothing to patch in a build without them, which kustomize refuses.
func leftOutNames(kusts []*kustomization.File) string {
	var names []string
	for _, k := range kusts {
		for _, e := range k.LeftOut() {
			names = append(names, strconv.Quote(e.Value))
		}
	}
	return strings.Join(names, ", ")
}

// missing lists the local entries of a closure that do not exist: what a
// build would fail on first, found without building.
func (d *discoverer) missing(kusts []*kustomization.File) []manifest.Problem {
	var out []manifest.Problem
	for _, k := range kusts {
		for _, r := range k.Local() {
			if !r.Exists {
				out = append(out, d.kustProblem(k, r.Line, r.Column,
					fmt.Sprintf("%s entry %q does not exist%s: kustomize cannot build this", r.Field, r.Value, didYouMean(k.Dir, r.Value))))
			}
		}
	}
	return out
}

// plain is the part of plain files, from what Load read.
func (d *discoverer) plain(pt part) *loaded {
	l := &loaded{inputs: pt.files}
	for _, f := range pt.files {
		l.objects = append(l.objects, d.res.Objects(f)...)
		l.problems = append(l.problems, d.res.Problems(f)...)
	}
	if pt.dir != "" {
		l.dirs = append(l.dirs, pt.dir)
	}
	return l
}

// add merges a part into the cluster, once per object and problem.
func (c *Cluster) add(l *loaded, n *namer) {
	seen := map[string]bool{}
	for _, o := range c.Objects {
		seen[objKey(o)] = true
	}
	for _, o := range l.objects {
		if k := objKey(o); !seen[k] {
			seen[k] = true
			c.Objects = append(c.Objects, o)
		}
	}
	for _, p := range l.problems {
		if k := "problem:" + p.String(); !seen[k] {
			seen[k] = true
			c.Problems = append(c.Problems, p)
		}
	}
	for _, f := range l.inputs {
		c.addInput(f, n)
	}
	c.dirs = append(c.dirs, l.dirs...)
	c.patches = append(c.patches, l.patches...)
	if len(l.origins) > 0 && c.origins == nil {
		c.origins = map[*manifest.Object]*manifest.Object{}
	}
	for k, v := range l.origins {
		c.origins[k] = v
	}
}

func objKey(o *manifest.Object) string {
	return fmt.Sprintf("%s\x00%d\x00%d\x00%s\x00%s", o.File, o.Doc, o.Item, o.Kind, o.Name)
}

func (d *discoverer) kustProblem(k *kustomization.File, line, col int, msg string) manifest.Problem {
	if line <= 0 {
		line, col = 1, 1
	}
	return manifest.Problem{Pos: manifest.Position{File: d.names.display(k.Path), Line: line, Column: col}, Code: "kustomize-error", Message: msg}
}

// buildProblem positions a kustomize error on the entry it is about: the
// entry whose path appears last in the message, since kustomize wraps
// errors from the outermost kustomization inward. Last means ending last:
// a base's directory is a prefix of the missing file inside it
// (".../manager" of ".../manager/env-config.yaml"), and the file's own
// entry, deeper in the closure, is the one the error is about.
func (d *discoverer) buildProblem(err error, kusts []*kustomization.File) manifest.Problem {
	if p, ok := d.builds.ShapeProblem(err, kusts); ok { // a malformed entry: see build.Cache.ShapeProblem
		return p
	}
	msg := err.Error()
	if p, ok := d.patchTargetProblem(msg, kusts); ok {
		return p
	}
	if p, ok := d.replacementSourceProblem(msg, kusts); ok {
		return p
	}
	best, bestEnd := -1, -1
	var bestK *kustomization.File
	for _, k := range kusts {
		for i, e := range k.Entries {
			if e.Value == "" {
				continue
			}
			abs := filepath.Join(k.Dir, e.Value)
			for _, s := range []string{"'" + e.Value + "'", `"` + e.Value + `"`, abs} {
				if at := strings.LastIndex(msg, s); at >= 0 && at+len(s) > bestEnd {
					best, bestEnd, bestK = i, at+len(s), k
				}
			}
		}
	}
	text := "kustomize build failed: " + d.shortCause(msg)
	if names := leftOutNames(kusts); names != "" {
		text += fmt.Sprintf(" (mirrorlint built it without %s, which it does not fetch or inflate)", names)
	}
	if bestK == nil {
		// Patch errors rarely name the patch file ("replace operation does
		// not apply: doc is missing path"): blame the overlay's patch.
		if k, i := firstPatch(kusts); k != nil && patchError.MatchString(msg) {
			bestK, best = k, i
		} else {
			return d.kustProblem(kusts[0], 1, 1, text)
		}
	}
	e := bestK.Entries[best]
	if e.Value != "" && !e.IsPatch() && !exists(filepath.Join(bestK.Dir, e.Value)) {
		text = fmt.Sprintf("%s entry %q does not exist%s, so kustomize cannot build this cluster and it is not checked (kustomize: %s)", e.Field, e.Value, didYouMean(bestK.Dir, e.Value), d.shortCause(msg))
	}
	return d.kustProblem(bestK, e.Line, e.Column, text)
}

// noPatchTarget is kustomize's refusal of a patch whose target the
// kustomization's resources do not hold; the target is written
// Kind.version.group/name.namespace ([noNs] for none).
var noPatchTarget = regexp.MustCompile(`failed to find unique target for patch ([A-Za-z0-9]+)\.[^/\s]*/(\S+)\.\S+`)

// patchTargetProblem places a patch without a target on the patch entry
// that names it, the deepest kustomization's first (kustomize builds the
// bases first, and fails in the first that holds such a patch); kustomize's
// message names the target only.
func (d *discoverer) patchTargetProblem(msg string, kusts []*kustomization.File) (manifest.Problem, bool) {
	return d.notAmongProblem(msg, kusts, noPatchTarget, missingObject{what: "patch's target", noun: "patch", fix: "drop the patch",
		leftOutFix: "; vendor the remote base or commit the chart's rendered manifests, or lint the `kustomize build` output with `mirrorlint lint -`"},
		func(k *kustomization.File, kind, name string) (int, int, bool) {
			at := k.PatchFor(kind, name, d.res.Text)
			if at < 0 {
				return 0, 0, false
			}
			return k.Entries[at].Line, k.Entries[at].Column, true
		})
}

// noReplacementSource is kustomize's refusal of a replacement whose
// source selects no object: "nothing selected by ConfigMap.v1.[noGrp]/
// name.[noNs]:data.key".
var noReplacementSource = regexp.MustCompile(`nothing selected by ([A-Za-z0-9]+)\.[^/\s]*/([^\s.:\[]+)`)

// replacementSourceProblem places that refusal on the replacements entry
// naming the source, as patchTargetProblem places a patch's.
func (d *discoverer) replacementSourceProblem(msg string, kusts []*kustomization.File) (manifest.Problem, bool) {
	return d.notAmongProblem(msg, kusts, noReplacementSource, missingObject{what: "replacement's source", noun: "replacement", fix: "correct the source"},
		func(k *kustomization.File, kind, name string) (int, int, bool) {
			return k.ReplacementFor(kind, name, d.res.Text)
		})
}

// missingObject words a refusal of an entry that selects an object the
// build does not hold: what selects it, the entry's noun, and the fixes.
type missingObject struct{ what, noun, fix, leftOutFix string }

// notAmongProblem places kustomize's refusal re matches (its kind and
// name groups) on the entry find gives, innermost kustomization first,
// saying what the build was without when it left entries out.
func (d *discoverer) notAmongProblem(msg string, kusts []*kustomization.File, re *regexp.Regexp, w missingObject,
	find func(k *kustomization.File, kind, name string) (line, col int, ok bool)) (manifest.Problem, bool) {
	m := re.FindStringSubmatch(msg)
	if m == nil {
		return manifest.Problem{}, false
	}
	kind, name := m[1], m[2]
	for i := len(kusts) - 1; i >= 0; i-- {
		k := kusts[i]
		line, col, ok := find(k, kind, name)
		if !ok {
			continue
		}
		if names := leftOutNames(kusts); names != "" {
			return d.kustProblem(k, line, col, fmt.Sprintf(
				"this %s %s/%s is not among the objects mirrorlint builds of %s: it builds without %s, which it does not fetch or inflate and which may add it, so kustomize refuses the %s and this cluster is not checked%s (kustomize: %s)",
				w.what, kind, name, d.names.display(k.Dir), names, w.noun, w.leftOutFix, d.shortCause(msg))), true
		}
		return d.kustProblem(k, line, col, fmt.Sprintf(
			"this %s %s/%s is not among the objects of %s, so kustomize cannot build this cluster and it is not checked: add the object to its resources, or %s (kustomize: %s)",
			w.what, kind, name, d.names.display(k.Dir), w.fix, d.shortCause(msg))), true
	}
	return manifest.Problem{}, false
}

// didYouMean names the file of the entry's directory that value is
// probably a typo of, as a clause of a message; "" when none is close.
func didYouMean(dir, value string) string {
	if near := kustomization.Nearby(dir, value); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

func yamlErrLine(err error) int {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

var patchError = regexp.MustCompile(`(?i)patch|operation|\bop\b`)

// firstPatch returns the first patch entry, looking at the top-level
// kustomization (kusts[0]) first.
func firstPatch(kusts []*kustomization.File) (*kustomization.File, int) {
	for _, k := range kusts {
		for i, e := range k.Entries {
			if e.IsPatch() {
				return k, i
			}
		}
	}
	return nil, 0
}
