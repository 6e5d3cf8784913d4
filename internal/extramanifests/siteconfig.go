package extramanifests

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// entrySettings is what one SiteConfig cluster entry says of its extra
// manifests, as the siteconfig-generator decodes it: extraManifestPath,
// extraManifests.searchPaths (set, even empty, disables the container's
// own extra manifests) and extraManifests.filter.
type entrySettings struct {
	path        string
	searchSet   bool
	searchPaths []string
	filter      *filter
}

func readEntry(cluster map[string]any) entrySettings {
	var es entrySettings
	es.path = scalarString(cluster["extraManifestPath"])
	em, _ := cluster["extraManifests"].(map[string]any)
	if sp, ok := em["searchPaths"].([]any); ok {
		es.searchSet = true
		for _, p := range sp {
			es.searchPaths = append(es.searchPaths, scalarString(p))
		}
	}
	if f, ok := em["filter"].(map[string]any); ok {
		es.filter = readFilter(f)
	}
	return es
}

// dirs are the directories the entry reads, as written.
func (es entrySettings) dirs() []string {
	if es.searchSet {
		return es.searchPaths
	}
	if es.path != "" {
		return []string{es.path}
	}
	return nil
}

// scalarString is a scalar as yaml.v3 decodes it into a string field: the
// text it is written with.
func scalarString(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// SiteConfigDirs lists the directories the siteconfig-generator reads
// extra manifests from for the clusters of a SiteConfig document (n, its
// mapping node), as written: relative to the directory it runs in.
func SiteConfigDirs(n *yaml.Node) []string {
	var doc map[string]any
	if n == nil || n.Decode(&doc) != nil {
		return nil
	}
	spec, _ := doc["spec"].(map[string]any)
	clusters, _ := spec["clusters"].([]any)
	var out []string
	for _, c := range clusters {
		cm, _ := c.(map[string]any)
		for _, d := range readEntry(cm).dirs() {
			if d != "" && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// chosen is one manifest the generator puts in the site's ConfigMap.
type chosen struct {
	name string // its data key: the file name, or a template's rendered name
	file string
	// template is set for a .tmpl file of a search path, which the
	// generator renders per node role (name is then role-name).
	template bool
}

// siteConfig finds a SiteConfig cluster's extra manifests as the
// siteconfig-generator's getExtraManifest does.
func (b *builder) siteConfig() {
	s := b.site
	v, _ := s.Path.Lookup(s.Object.Content)
	entry, _ := v.(map[string]any)
	es := readEntry(entry)
	runDir := filepath.Dir(filepath.FromSlash(s.Object.File))
	if b.tree.RunDir != nil {
		if d := b.tree.RunDir(s.Object.File); d != "" {
			runDir = d
		}
	}
	byName := map[string]chosen{}
	var order []string
	add := func(c chosen) {
		if _, ok := byName[c.name]; !ok {
			order = append(order, c.name)
		}
		byName[c.name] = c // a later search path's file replaces an earlier one's
	}
	// With the container's own manifests in the set, or a directory not
	// read, the filter may name a manifest the repository does not show.
	builtIn := !es.searchSet
	unknown := builtIn
	base := s.Path.Child("extraManifestPath")
	if es.searchSet {
		base = s.Path.Child("extraManifests", "searchPaths")
	}
	for i, rel := range es.dirs() {
		at := base
		if es.searchSet {
			at = base.Child(i)
		}
		files, ok := b.listDir(runDir, rel, s.Object.Locate(at), es.searchSet)
		if !ok {
			unknown = true
			continue
		}
		for _, f := range files {
			name := filepath.Base(filepath.FromSlash(f))
			if es.searchSet && strings.HasSuffix(name, ".tmpl") {
				// Rendered once per node role, named <role>-<name>.
				for _, role := range roles(entry) {
					add(chosen{name: role + "-" + strings.TrimSuffix(name, ".tmpl"), file: f, template: true})
				}
				continue
			}
			add(chosen{name: name, file: f})
		}
	}
	if builtIn {
		b.set.From = append([]string{"the ztp-site-generate container's own extra manifests (not in the repository)"}, b.set.From...)
	}
	kept, ok := b.applyFilter(es.filter, order, unknown)
	if !ok {
		return
	}
	b.readChosen(kept, byName)
}

// listDir lists the files the generator reads from the directory rel of
// runDir: the directory's own files, not its subdirectories nor the names
// starting with a dot. A directory that is not there fails the generator
// when the path is relative (it reads it from the repository); an
// absolute one names the container's file system.
func (b *builder) listDir(runDir, rel string, at manifest.Position, search bool) ([]string, bool) {
	dir := join(runDir, rel)
	field := "extraManifestPath"
	if search {
		field = "extraManifests.searchPaths entry"
	}
	if filepath.IsAbs(rel) {
		b.problem(CodeNotLinted, at, "%s %s is a path in the ztp-site-generate container, not in the repository: the extra manifests the generator reads there are not linted", field, rel).Incomplete = true
		return nil, false
	}
	real, err := b.tree.Access.Resolve(filepath.FromSlash(dir))
	var refusal *safefs.Refusal
	if errors.As(err, &refusal) {
		b.problem(CodeNotLinted, at, "%s %s leads out of the repository (%s): the extra manifests the generator reads there are not linted", field, rel, dir).Incomplete = true
		return nil, false
	}
	var entries []os.DirEntry
	if err == nil {
		entries, err = b.tree.Access.ReadRealDir(real)
	}
	if err != nil {
		hint := "write the path relative to that directory"
		beside := join(filepath.Dir(filepath.FromSlash(b.site.Object.File)), rel)
		if fi, statErr := b.tree.Access.Stat(filepath.FromSlash(beside)); statErr == nil && fi.IsDir() && beside != dir {
			hint = fmt.Sprintf("%s is beside the SiteConfig, but the path is relative to the directory the generator runs in: write it relative to that directory", beside)
		}
		b.problem(CodeRefused, at, "%s %s: the siteconfig-generator runs in %s and finds no directory %s there (%v), so it fails: could not build the entire SiteConfig, and none of its clusters is installed; %s",
			field, rel, shownDir(runDir), dir, pathError(err), hint)
		return nil, false
	}
	b.set.Dirs = append(b.set.Dirs, dir)
	b.set.From = append(b.set.From, "the files of "+dir)
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		full := join(dir, name)
		if fi, err := b.tree.Access.Stat(filepath.FromSlash(full)); err != nil || fi.IsDir() {
			continue // a subdirectory, or a link out of the repository
		}
		out = append(out, full)
	}
	return out, true
}

// roles are the distinct roles of the entry's nodes, sorted: a template
// is rendered once for each.
func roles(entry map[string]any) []string {
	nodes, _ := entry["nodes"].([]any)
	var out []string
	for _, n := range nodes {
		m, _ := n.(map[string]any)
		r := scalarString(m["role"])
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// shownDir names a directory for a message: "." for the working directory.
func shownDir(dir string) string {
	if dir == "" {
		return "."
	}
	return filepath.ToSlash(dir)
}

// pathError is the cause of a file system error without the path it
// names, which the message says already.
func pathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
