package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// declared finds the clusters the config file names. Paths are relative to
// the config file; a directory holding a kustomization is built, anything
// else is read as it is. Path arguments other than "." keep the clusters
// that include one of them.
func (d *discoverer) declared(res *Result) (*Result, error) {
	cfg := d.opts.Config
	cfgDir := "."
	if cfg.Path != "" {
		cfgDir = filepath.Dir(cfg.Path)
	}
	abs, err := filepath.Abs(cfgDir)
	if err != nil {
		return nil, err
	}
	arg := cfgDir
	if wd, err := os.Getwd(); err == nil {
		if rel, ok := manifest.Within(wd, abs); ok {
			arg = rel
		}
	}
	d.setNames(&namer{roots: []root{{abs: abs, arg: arg}}})
	res.Set = &manifest.Set{}
	for _, cc := range cfg.Clusters {
		cl := &Cluster{Name: cc.Name, Source: FromConfig, Reason: "declared in " + d.names.display(absOr(cfg.Path)),
			ReleaseImage: cc.ReleaseImage, OpenShiftVersion: cc.OpenShiftVersion, res: d.res, d: d}
		var pas []string
		for _, p := range cc.Paths {
			pa, err := filepath.Abs(cfg.Resolve(p))
			if err != nil {
				return nil, err
			}
			if _, err := os.Stat(pa); err != nil {
				return nil, fmt.Errorf("%s: cluster %s: path %s: %w", cfg.Path, cc.Name, p, manifest.ErrNotFound)
			}
			pas = append(pas, pa)
		}
		skip, built := d.overlaps(pas)
		for i, pa := range pas {
			shown := d.names.display(pa)
			cl.Paths = append(cl.Paths, shown)
			switch {
			case skip[i]:
				// Another path's kustomization builds it, patches applied;
				// its inputs are that build's inputs already.
			case d.isKustDir(pa):
				cl.parts = append(cl.parts, part{kust: pa})
				kusts, files := d.graph.Closure(pa)
				d.markRunDirs(kusts)
				for _, f := range files {
					cl.addInput(f, d.names)
				}
			default:
				pt, err := d.plainPart(shown, pa, built)
				if err != nil {
					return nil, err
				}
				cl.parts = append(cl.parts, pt)
				for _, f := range pt.files {
					cl.addInput(f, d.names)
				}
				if pt.dir != "" {
					cl.dirs = append(cl.dirs, pt.dir)
				}
			}
		}
		sort.Strings(cl.Inputs)
		res.Clusters = append(res.Clusters, cl)
	}
	res.all = res.Clusters
	if !onlyDot(d.opts.Paths) {
		res.Clusters = including(res.Clusters, d.opts.Paths)
		if len(res.Clusters) == 0 {
			return nil, fmt.Errorf("no cluster declared in %s includes %s: %w", cfg.Path, strings.Join(d.opts.Paths, ", "), manifest.ErrNotFound)
		}
	}
	seen := map[string]bool{}
	for _, c := range res.Clusters {
		for _, f := range c.Inputs {
			if !seen[f] {
				seen[f] = true
				res.Set.Files = append(res.Set.Files, f)
			}
		}
	}
	return res, nil
}

// plainPart lists a declared path that is no kustomization: a file or a
// directory read as it is, minus the files one of the cluster's
// kustomizations builds (built).
func (d *discoverer) plainPart(shown, abs string, built map[string]bool) (part, error) {
	l, err := manifest.List([]string{shown}, d.opts.Load)
	if err != nil {
		return part{}, err
	}
	d.listings = append(d.listings, l)
	pt := part{}
	for _, n := range l.Names() {
		a := manifest.AbsName(n)
		if _, seen := d.listed[a]; !seen {
			d.listed[a] = n
		}
		if !built[a] {
			pt.files = append(pt.files, a)
		}
	}
	d.stats.Files += len(l.Files())
	if isDir(abs) {
		pt.dir = abs
	}
	return pt, nil
}

func (d *discoverer) isKustDir(abs string) bool { return isDir(abs) && d.graph.Get(abs) != nil }

// overlaps finds, among one declared cluster's paths (absolute), those
// another of its kustomization paths already builds: a base directory an
// overlay references, a file it lists. Reading them again would add the
// unpatched copy of objects the overlay patches, and whichever copy came
// first would win. built holds every file the kept kustomizations read,
// for plain directories that are only partly built. Two kustomizations
// that reference each other (a cycle) keep the first declared.
func (d *discoverer) overlaps(pas []string) (skip []bool, built map[string]bool) {
	type closure struct{ kusts, files map[string]bool }
	cls := make([]*closure, len(pas))
	for j, pa := range pas {
		if !d.isKustDir(pa) {
			continue
		}
		kusts, files := d.graph.Closure(pa)
		c := &closure{kusts: map[string]bool{}, files: map[string]bool{}}
		for _, k := range kusts {
			if k.Dir != pa {
				c.kusts[k.Dir] = true
			}
		}
		for _, f := range files {
			c.files[f] = true
		}
		cls[j] = c
	}
	covers := func(j, i int) bool {
		c := cls[j]
		return c != nil && j != i && (c.kusts[pas[i]] || c.files[pas[i]])
	}
	skip = make([]bool, len(pas))
	built = map[string]bool{}
	for i := range pas {
		for j := range pas {
			if covers(j, i) && !(covers(i, j) && i < j) {
				skip[i] = true
				break
			}
		}
	}
	for j, c := range cls {
		if c != nil && !skip[j] {
			for f := range c.files {
				built[f] = true
			}
		}
	}
	return skip, built
}
