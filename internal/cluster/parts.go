package cluster

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// loaded is what one path contributes to a cluster: a kustomize build or a
// plain load. Declared clusters may share paths, so parts are cached.
type loaded struct {
	objects  []*manifest.Object
	problems []manifest.Problem
	inputs   []string // absolute
	dirs     []string // absolute; every file under them is an input
	origins  map[*manifest.Object]*manifest.Object
	patches  []patchRef
}

// discoverer holds what every cluster of one run shares.
type discoverer struct {
	opts  Options
	names *namer
	res   *resolver
	graph *graph
	stats *Stats
}

// kustomization builds the kustomization in dir once per run.
func (d *discoverer) kustomization(dir string) *loaded {
	key := "kustomize:" + dir
	if l, ok := d.res.sets[key]; ok {
		return l
	}
	l := &loaded{}
	d.res.sets[key] = l
	kf := d.graph.get(dir)
	kusts, files := d.graph.closure(dir)
	l.inputs = files
	for _, f := range files {
		l.problems = append(l.problems, d.res.problems(f)...)
	}
	// Patches of bases first: kustomize applies them before the overlay's,
	// and Relocate searches from the last.
	var blocked []manifest.Problem
	for i := len(kusts) - 1; i >= 0; i-- {
		k := kusts[i]
		if k.Err != nil {
			blocked = append(blocked, d.kustProblem(k, yamlErrLine(k.Err), 1, "kustomization does not parse: "+k.Err.Error()))
		}
		for _, e := range k.Entries {
			switch {
			case e.isHelm():
				blocked = append(blocked, d.kustProblem(k, e.Line, e.Column,
					fmt.Sprintf("%s entry %q inflates a Helm chart, which mirrorlint does not do (it runs no helm, offline or not): this cluster is not checked; "+
						"lint the rendered output instead (`kustomize build --enable-helm DIR | mirrorlint lint -`), or commit the chart's rendered manifests", e.Field, e.Value)))
			case e.isRemote():
				blocked = append(blocked, d.kustProblem(k, e.Line, e.Column,
					fmt.Sprintf("%s entry %q is remote; mirrorlint runs offline and does not fetch it: vendor it, or lint the `kustomize build` output with `mirrorlint lint -`", e.Field, e.Value)))
			case e.isPatch():
				pr := patchRef{kust: k, e: e}
				if e.Value != "" {
					pr.abs = filepath.Clean(filepath.Join(k.Dir, e.Value))
				}
				l.patches = append(l.patches, pr)
			}
		}
	}
	if len(blocked) > 0 {
		l.problems = append(l.problems, blocked...)
		return l
	}
	start := time.Now()
	b, err := build(kf, "kustomize build "+d.names.display(dir), d.opts.Load)
	d.stats.Builds++
	d.stats.Build += time.Since(start)
	if err != nil {
		l.problems = append(l.problems, d.buildProblem(err, kusts))
		return l
	}
	start = time.Now()
	l.objects, l.origins = remap(b, dir, d.res)
	d.stats.Remap += time.Since(start)
	if len(l.problems) == 0 {
		// Problems in the build output (a patch that breaks a type) have
		// no source file of their own; when the inputs have problems
		// these are the same ones again.
		l.problems = append(l.problems, b.Set.Problems...)
	}
	return l
}

// plain loads a file or directory as it is.
func (d *discoverer) plain(path string) *loaded {
	key := "plain:" + path
	if l, ok := d.res.sets[key]; ok {
		return l
	}
	l := &loaded{}
	d.res.sets[key] = l
	start := time.Now()
	set, err := manifest.Load([]string{path}, d.opts.Load)
	d.stats.Load += time.Since(start)
	if err != nil {
		l.problems = append(l.problems, manifest.Problem{Pos: manifest.Position{File: path}, Code: "read-error", Message: err.Error()})
		return l
	}
	d.stats.Files += len(set.Files)
	d.res.index(set)
	l.objects, l.problems = set.Objects, set.Problems
	for _, f := range set.Files {
		if abs, err := filepath.Abs(f); err == nil {
			l.inputs = append(l.inputs, abs)
		}
	}
	if abs, err := filepath.Abs(path); err == nil && isDir(abs) {
		l.dirs = append(l.dirs, abs)
	}
	return l
}

// without returns the part minus what files (absolute) hold: a plain
// directory declared next to a kustomization that builds some of its
// files contributes only the others.
func (l *loaded) without(files map[string]bool) *loaded {
	if len(files) == 0 {
		return l
	}
	drop := func(f string) bool {
		abs, err := filepath.Abs(f)
		return err == nil && files[abs]
	}
	out := &loaded{dirs: l.dirs, origins: l.origins, patches: l.patches}
	for _, o := range l.objects {
		if !drop(o.File) {
			out.objects = append(out.objects, o)
		}
	}
	for _, p := range l.problems {
		if !drop(p.Pos.File) {
			out.problems = append(out.problems, p)
		}
	}
	for _, f := range l.inputs {
		if !files[f] {
			out.inputs = append(out.inputs, f)
		}
	}
	return out
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

func (d *discoverer) kustProblem(k *kustFile, line, col int, msg string) manifest.Problem {
	if line <= 0 {
		line, col = 1, 1
	}
	return manifest.Problem{Pos: manifest.Position{File: d.names.display(k.Path), Line: line, Column: col}, Code: "kustomize-error", Message: msg}
}

// buildProblem positions a kustomize error on the entry it is about: the
// entry whose path appears last in the message, since kustomize wraps
// errors from the outermost kustomization inward.
func (d *discoverer) buildProblem(err error, kusts []*kustFile) manifest.Problem {
	if p, ok := d.shapeProblem(err, kusts); ok { // a malformed entry: see kustshape.go
		return p
	}
	msg := err.Error()
	best, bestAt := -1, -1
	var bestK *kustFile
	for _, k := range kusts {
		for i, e := range k.Entries {
			if e.Value == "" {
				continue
			}
			abs := filepath.Join(k.Dir, e.Value)
			for _, s := range []string{"'" + e.Value + "'", `"` + e.Value + `"`, abs} {
				if at := strings.LastIndex(msg, s); at > bestAt {
					best, bestAt, bestK = i, at, k
				}
			}
		}
	}
	text := "kustomize build failed: " + msg
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
	return d.kustProblem(bestK, e.Line, e.Column, text)
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
func firstPatch(kusts []*kustFile) (*kustFile, int) {
	for _, k := range kusts {
		for i, e := range k.Entries {
			if e.isPatch() {
				return k, i
			}
		}
	}
	return nil, 0
}
