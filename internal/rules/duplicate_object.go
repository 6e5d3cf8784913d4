package rules

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var duplicateObject = &check.Rule{
	ID:       "duplicate-object",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "Two objects of one kind share a name in a cluster: the last one applied replaces the other.",
	Doc:      doc("duplicate-object"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		whole := c.Cluster != nil && c.Cluster.WholeTree()
		for _, g := range check.Duplicates(c.Cluster.Objects) {
			kept := g[len(g)-1]
			same := identical(g)
			hint := ""
			switch {
			case ocMirrorRuns(g):
				hint = ocMirrorRunsHint
			case whole && severalDirs(g):
				hint = wholeInputHint
			}
			for _, o := range g {
				var f *check.Finding
				if same {
					// Applying the copies in turn ends where applying
					// one does; only tools that refuse or warn on the
					// repeat notice it.
					f = c.Report(o, manifest.Path{"metadata", "name"},
						"%s is defined %d times in this cluster with the same content (also at %s): nothing is lost when one replaces another, but a kustomize build holding both is refused and an Argo CD application syncing both warns (RepeatedResourceWarning); keep one copy per cluster",
						kindName(o), len(g), others(g, o))
					f.Message += hint
					f.AtMost(check.Warning)
				} else if o == kept {
					f = c.Report(o, manifest.Path{"metadata", "name"},
						"%s is defined %d times in this cluster (also at %s): the cluster holds one object per name, so this one, applied last, replaces the others; mirrorlint renders with it",
						kindName(o), len(g), others(g, o))
					f.Message += hint
				} else {
					f = c.Report(o, manifest.Path{"metadata", "name"},
						"%s is defined again at %s: the cluster holds one object per name, so the one applied last (%s) replaces this one, whose content is lost; mirrorlint renders without it",
						kindName(o), others(g, o), kept.Locate(manifest.Path{"metadata", "name"}))
					f.Message += hint
				}
				for _, x := range g {
					if x != o {
						f.Also(x, manifest.Path{"metadata", "name"})
					}
				}
			}
		}
	},
}

// wholeInputHint ends a duplicate's message when the cluster is the
// whole input and the copies are in different directories: a tree with
// no kustomization and no cluster layout may still hold one directory per
// environment or release (deploy/<x>/{staging,production}), which only
// its own tooling tells apart.
const wholeInputHint = "; this cluster is the whole tree, since no kustomization or cluster layout names its clusters: if these directories are applied to different clusters, name them under clusters: in .mirrorlint.yaml"

// ocMirrorRunsHint ends a duplicate's message when the copies are the
// results of separate oc-mirror v1 runs: each run writes its
// ImageContentSourcePolicies under the same names (operator-0, release-0,
// ...) holding only the images that run mirrored, so the newer run's
// object does not carry the older one's mirrors.
const ocMirrorRunsHint = "; the copies come from separate oc-mirror runs (oc-mirror-workspace/results-*), which give each run's ImageContentSourcePolicy the same name but only the images that run mirrored, so applying the newer one drops the older one's mirrors: merge their repositoryDigestMirrors into one object, or rename one"

// ocMirrorRuns reports whether the objects of a group come from more than
// one oc-mirror v1 results directory.
func ocMirrorRuns(g []*manifest.Object) bool {
	runs := map[string]bool{}
	for _, o := range g {
		run := ocMirrorRun(o.File)
		if run == "" {
			return false
		}
		runs[run] = true
	}
	return len(runs) > 1
}

// ocMirrorRun returns the oc-mirror-workspace/results-<id> directory a
// file is in, or "".
func ocMirrorRun(file string) string {
	dir := filepath.Dir(file)
	for d := dir; d != "." && d != filepath.Dir(d); d = filepath.Dir(d) {
		if base := filepath.Base(d); strings.HasPrefix(base, "results-") && filepath.Base(filepath.Dir(d)) == "oc-mirror-workspace" {
			return d
		}
	}
	return ""
}

// severalDirs reports whether the objects of a group come from files in
// more than one directory.
func severalDirs(g []*manifest.Object) bool {
	for _, o := range g[1:] {
		if filepath.Dir(o.File) != filepath.Dir(g[0].File) {
			return true
		}
	}
	return false
}

// identical reports whether the objects of a group hold the same content,
// key for key.
func identical(g []*manifest.Object) bool {
	for _, o := range g[1:] {
		if !reflect.DeepEqual(o.Content, g[0].Content) {
			return false
		}
	}
	return true
}

func kindName(o *manifest.Object) string {
	id := check.IdentityOf(o)
	if id.Namespace != "" {
		return fmt.Sprintf("%s %s/%s", o.Kind, id.Namespace, o.Name)
	}
	return o.Ref()
}

// others lists the positions of the group's other members.
func others(g []*manifest.Object, self *manifest.Object) string {
	var out []string
	for _, o := range g {
		if o != self {
			out = append(out, o.Locate(manifest.Path{"metadata", "name"}).String())
		}
	}
	return quoteList(out, 3)
}
