package ztp

import (
	"errors"
	"os"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// What a generator reads, named without reading it, for discovery: which
// files are applied through a generator rather than as written, and which
// clusters an edit to a source CR concerns. dir is the directory the
// generator runs in (see Dirs.Dir).

// ManifestFiles lists the files the manifests of a PolicyGenerator (its
// mapping node, run in the directory dir) name: a path's file, or the YAML
// files of its directory, as Manifests reads them, without reading them.
// Paths that name nothing are left out (the expansion reports them), and
// so are directories holding a kustomization (ManifestKustomizations).
func ManifestFiles(dir string, gen *yaml.Node) []string {
	out, _ := manifestPaths(dir, gen)
	return out
}

// ManifestKustomizations lists the manifest directories of a
// PolicyGenerator that hold a kustomization, which the generator builds
// (Kustomization): what their builds read, only a kustomization's graph
// knows.
func ManifestKustomizations(dir string, gen *yaml.Node) []string {
	_, kusts := manifestPaths(dir, gen)
	return kusts
}

func manifestPaths(dir string, gen *yaml.Node) (files, kusts []string) {
	for _, p := range seq(gen, "policies") {
		for _, m := range seq(p, "manifests") {
			rel := scalar(m, "path")
			if rel == "" {
				continue
			}
			full := filepath.Join(dir, filepath.FromSlash(rel))
			fi, err := os.Stat(full)
			if err != nil {
				continue
			}
			if !fi.IsDir() {
				files = append(files, full)
				continue
			}
			names, err := manifestDir(full)
			if errors.Is(err, ErrKustomization) {
				kusts = append(kusts, full)
			}
			for _, n := range names {
				files = append(files, filepath.Join(full, n))
			}
		}
	}
	return files, kusts
}

// SourceCRFiles lists the source CRs a generator (its mapping node, run in
// the directory dir) reads from dir's source-crs directory: a
// PolicyGenTemplate's fileNames, a PolicyGenerator's paths into
// source-crs/. Those not there are left out: the configured directories
// or the ZTP container supply them, or the expansion reports them.
func SourceCRFiles(dir string, gen *yaml.Node) []string {
	var out []string
	if Generator(scalar(gen, "apiVersion"), scalar(gen, "kind")) == "PolicyGenTemplate" {
		for _, sf := range seq(value(gen, "spec"), "sourceFiles") {
			name := scalar(sf, "fileName")
			if name == "" {
				continue
			}
			p := filepath.Join(dir, SourceCRDir, filepath.FromSlash(name))
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				out = append(out, p)
			}
		}
		return out
	}
	files, _ := manifestPaths(dir, gen)
	for _, f := range files {
		if InSourceCRDir(f) {
			out = append(out, f)
		}
	}
	return out
}
