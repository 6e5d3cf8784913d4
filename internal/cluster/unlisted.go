package cluster

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Unlisted returns the kustomization file (absolute) whose directory holds
// file without listing it, when no other kustomization nor a generator of
// one reads the file either: kustomize does not apply it, so it is in no
// cluster of the tree (see notListed). "" for any other file: one a
// kustomization reads, one in a directory without a kustomization, or one
// of a run that grouped nothing by kustomization (declared clusters,
// files given one by one, a stream).
//
// What other tools read from a kustomization's directory without kustomize
// (openshift-install's install-config.yaml) is the caller's to tell apart:
// this says only what kustomize leaves out.
func (r *Result) Unlisted(file string) string {
	if r.d == nil || r.d.graph == nil || manifest.IsStream(file) {
		return ""
	}
	abs := manifest.AbsName(file)
	dir := filepath.Dir(abs)
	if !r.d.isKust(dir) {
		return ""
	}
	kf := r.d.graph.Get(dir)
	if kf == nil || !slices.Contains(r.d.loose[kf.Path], abs) {
		return ""
	}
	return kf.Path
}

// ReportUnlisted reports file, which Unlisted says kustomize does not
// apply, as notListed reports the manifests it finds there: a
// not-in-kustomization warning at at, on every loaded cluster that reads
// the kustomization, with why (what is lost: ", so …") after the reason. It is for what discovery does not judge itself (the
// objects of kinds it keeps no warning for), so a cluster already warning
// about file gets nothing more. It reports whether a warning was added.
func (r *Result) ReportUnlisted(file string, at manifest.Position, why string) bool {
	kfPath := r.Unlisted(file)
	if kfPath == "" {
		return false
	}
	if kf := r.d.graph.Get(filepath.Dir(kfPath)); kf == nil || kf.Err != nil {
		return false // the kustomization's own problem says more, as in notListed
	}
	abs := manifest.AbsName(file)
	shown := r.d.names.display(abs)
	pr := unlistedProblem(shown, r.d.names.display(kfPath), at)
	if why != "" {
		pr.Message += ", " + why
	}
	added := false
	for _, c := range r.all {
		if !c.loaded || !c.Includes(kfPath) {
			continue
		}
		if slices.ContainsFunc(c.Problems, func(p manifest.Problem) bool {
			return p.Code == manifest.CodeNotInKustomization && p.Pos.File == shown
		}) {
			continue
		}
		c.Problems = append(c.Problems, pr)
		added = true
	}
	if added {
		r.updateSet()
	}
	return added
}

// unlistedProblem is the not-in-kustomization warning on file (as
// displayed), which the kustomization file kust does not list.
func unlistedProblem(file, kust string, at manifest.Position) manifest.Problem {
	return manifest.Problem{Pos: at, Code: manifest.CodeNotInKustomization, Warning: true,
		Message: fmt.Sprintf("%s is not listed in %s: kustomize does not apply it", file, kust)}
}
