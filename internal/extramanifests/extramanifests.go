package extramanifests

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/sites"
)

// Problem codes (manifest.Problem.Code) of a site's extra manifests, each
// reported under the rule of that name.
const (
	// CodeNotLinted: an extra manifest the spoke gets that mirrorlint does
	// not read (its directory or ConfigMap is not in the repository, a
	// template the generator renders, a patch of an installer manifest).
	CodeNotLinted = "extra-manifest-not-linted"
	// CodeRefused: the generator or assisted-service refuses the site's
	// extra manifests, so the spoke is not installed.
	CodeRefused = "extra-manifest-refused"
	// CodeDropped: documents of an extra-manifest file that the
	// siteconfig-generator drops (it keeps a file's first document).
	CodeDropped = "extra-manifest-documents-dropped"
)

// Tree is what finding a site's extra manifests needs of the repository
// beyond the site's own object. Files are named as the loader names them.
type Tree struct {
	// RunDir is the directory the siteconfig-generator runs a SiteConfig
	// file in (the directory of the kustomization listing it under
	// generators); nil, or "" for a file, is the file's own directory.
	RunDir func(file string) string
	// ConfigMaps are the ConfigMaps applied on the hub, loaded whole;
	// Unlisted those lying in a kustomization's directory that does not
	// list them, which kustomize does not apply.
	ConfigMaps, Unlisted []*manifest.Object
	// Generated are the ConfigMaps the tree's kustomizations generate
	// from files.
	Generated []Generated
	// Load reads manifest files as the run reads them; nil reads them with
	// manifest.Load and keep.
	Load func(files []string) *manifest.Set
	// Keep is what of other kinds than the mirror kinds is kept of a
	// ConfigMap value's manifests (the run's manifest.Options.Unmodelled).
	Keep manifest.Unmodelled
	// Access confines what is listed and read to the run's (nil: no
	// confinement).
	Access *safefs.Root
	// texts holds the files readText read, each read once however many
	// sites read it (their extra-manifest directory is often shared).
	texts map[string]text
}

// text is a file's bytes as readText read them, or why it could not.
type text struct {
	data []byte
	err  error
}

// Generated is a ConfigMap a kustomization's configMapGenerator writes:
// its data are the files it names.
type Generated struct {
	Name, Namespace string
	// At is the generator entry's first files item, in the kustomization.
	At manifest.Position
	// Hashed is set when kustomize appends its name suffix hash to Name
	// (generatorOptions or the entry's options do not disable it).
	Hashed bool
	Files  []GeneratedFile
}

// GeneratedFile is one data key of a generated ConfigMap and the file its
// value is, with the files item naming it.
type GeneratedFile struct {
	Key, File string
	At        manifest.Position
}

// Set is what a site's spoke gets as extra manifests.
type Set struct {
	// Objects are their objects, each value placed where it is written: in
	// its file, or on its line of the ConfigMap holding it.
	Objects []*manifest.Object
	// Files and Dirs are what the spoke reads: a change to one of the
	// files, or a file added to one of the directories, changes it.
	Files, Dirs []string
	// Problems say what is not linted, refused or dropped (the codes
	// above), with the loading problems of the files read.
	Problems []manifest.Problem
	// Refused is set when the generator or assisted-service refuses the
	// site for them: the spoke is never installed.
	Refused *Refusal
	// From says in words where they come from, for `mirrorlint clusters`
	// ("the files of siteconfig/extra-manifest"); empty without any.
	From []string
}

// Refusal is the first refusal of a site's extra manifests: the
// component's words, at the value refused.
type Refusal struct {
	Reason string
	Pos    manifest.Position
}

// For finds the extra manifests the spoke of site s gets, and reads them.
func For(s *sites.Site, t *Tree) *Set {
	b := &builder{site: s, tree: t, set: &Set{}}
	switch s.Kind {
	case sites.KindSiteConfig:
		b.siteConfig()
	case sites.KindClusterInstance:
		b.clusterInstance()
	}
	return b.set
}

// builder gathers one site's Set.
type builder struct {
	site *sites.Site
	tree *Tree
	set  *Set
}

// problem records a problem of the site's extra manifests and returns it,
// for the caller to mark further.
func (b *builder) problem(code string, pos manifest.Position, format string, args ...any) *manifest.Problem {
	pr := manifest.Problem{Pos: pos, Code: code, Message: fmt.Sprintf(format, args...)}
	switch code {
	case CodeNotLinted, CodeDropped:
		pr.Warning = true
	case CodeRefused:
		if b.set.Refused == nil {
			b.set.Refused = &Refusal{Reason: pr.Message, Pos: pos}
		}
	}
	b.set.Problems = append(b.set.Problems, pr)
	return &b.set.Problems[len(b.set.Problems)-1]
}

func (b *builder) readFile(f string) {
	if !slices.Contains(b.set.Files, f) {
		b.set.Files = append(b.set.Files, f)
	}
}

// load reads files as the run does.
func (b *builder) load(files []string) *manifest.Set {
	if b.tree.Load != nil {
		return b.tree.Load(files)
	}
	set, err := manifest.Load(files, manifest.Options{Unmodelled: b.tree.Keep, Access: b.tree.Access})
	if err != nil {
		return &manifest.Set{}
	}
	return set
}

// join is dir joined with rel as the loader names files: slash-separated,
// an absolute rel kept.
func join(dir, rel string) string {
	if filepath.IsAbs(rel) {
		return filepath.Clean(rel)
	}
	return path.Join(filepath.ToSlash(dir), filepath.ToSlash(rel))
}

// readText reads a file of the tree as the run may, once for every site.
func (b *builder) readText(file string) ([]byte, error) {
	t, ok := b.tree.texts[file]
	if !ok {
		t.data, t.err = b.tree.Access.ReadFile(filepath.FromSlash(file))
		if b.tree.texts == nil {
			b.tree.texts = map[string]text{}
		}
		b.tree.texts[file] = t
	}
	return t.data, t.err
}
