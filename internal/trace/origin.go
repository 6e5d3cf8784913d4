// Remapper points values of objects read from a stream
// (`kustomize build` output, a KRM ResourceList) back at the files those
// objects were written in.
//
// kustomize (with buildMetadata: [originAnnotations]) and KRM function
// runners name the source file in an annotation, but no runner passes line
// numbers, and the stream's own lines mean nothing to the user. So the
// source file is read again, the same object (kind + name) is found in it,
// and the finding's field path is located there.
//
// This is the stream half of value tracing (see trace.go).

package trace

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// Annotations naming the document index inside the origin file, written by
// KRM function runners next to the path annotations.
const (
	annoInternalIndex = "internal.config.kubernetes.io/index"
	annoLegacyIndex   = "config.kubernetes.io/index"
)

// Remapper moves positions on stream objects to their origin files. The zero value resolves origin paths
// against the working directory.
type Remapper struct {
	// Roots are the directories a relative origin path is tried against,
	// in order (the --context directory, then "."). kustomize writes origin
	// paths relative to the kustomization it built.
	Roots []string
	// Discover also tries every kustomization directory below the first
	// root when no root holds an origin path.
	Discover bool
	// Load reads the origin files; zero means the manifest defaults. Its
	// Access confines every read of an origin or patch file; nil confines
	// them to Roots.
	Load manifest.Options

	files    map[string]*sourceFile // by resolved path; nil entry: unreadable
	kustDirs *[]string
	patches  *PatchFinder // created on first use
}

type sourceFile struct {
	name    string
	objects []*manifest.Object
}

// AnyOrigin reports whether an object of objs names an origin file other
// than the one it was read from: when none does, Place changes nothing (an
// object built in-process already sits in its origin file), and a caller
// need not look each finding's object up among objs.
func AnyOrigin(objs []*manifest.Object) bool {
	return slices.ContainsFunc(objs, originElsewhere)
}

// originElsewhere reports whether o names an origin file other than its
// own: the objects Place moves. Objects discovery built in-process already
// sit in their origin file (File == Origin), with patched values relocated
// to their patches; reading the file again would only rename it.
func originElsewhere(o *manifest.Object) bool {
	return o.Origin != "" && o.Origin != o.File
}

// Place maps the position at of the value at path of the object kind/name
// (objs are the objects read from the stream) to the object's origin file,
// when the object names one; a position that is not on a stream object,
// or on one without an origin, is kept as it is. elsewhere reports that the value at path is
// not the origin file's (a patch set it, and no patch was found to hold
// it), so the position is the origin object rather than a line that does
// not hold the value.
func (r *Remapper) Place(objs []*manifest.Object, pos manifest.Position, kind, name, path string) (_ manifest.Position, elsewhere bool) {
	r.confine()
	streamObj := streamObject(objs, pos, kind, name)
	if streamObj == nil || !originElsewhere(streamObj) {
		return pos, false
	}
	src, o, file := r.source(streamObj)
	if src == nil {
		// The file is not here (built elsewhere, or a remote base): its
		// name still tells the user more than a line of the stream does.
		if manifest.IsStream(streamObj.File) || streamObj.File == "" {
			return manifest.Position{File: filepath.ToSlash(filepath.Clean(streamObj.Origin))}, false
		}
		return pos, false
	}
	if o == nil {
		return manifest.Position{File: src.name}, false
	}
	p := manifest.ParsePath(path)
	if len(p) == 0 {
		return o.Position(), false
	}
	if patched(streamObj, o, p) {
		if at, ok := r.patchPosition(streamObj, o, p, file); ok {
			return at, false
		}
		return o.Position(), true
	}
	if restated(streamObj, o, p) {
		if at, ok := r.patchPosition(streamObj, o, p, file); ok {
			return at, false
		}
	}
	// A finding about a key (an unknown field) was positioned on the key in
	// the stream; position it on the key in the source too.
	if pos == streamObj.LocateKey(p) && pos != streamObj.Locate(p) {
		return o.LocateKey(p), false
	}
	return o.Locate(p), false
}

// patched reports whether the stream object's value at p is not what the
// origin file writes there: missing from the file, or another scalar. A
// container that differs (an entry a patch extended) still sits where the
// file has it. metadata is left out: name prefixes, labels and the origin
// annotations themselves change it without any patch.
func patched(so, o *manifest.Object, p manifest.Path) bool {
	if p[0] == "metadata" {
		return false
	}
	sv, ok := p.Lookup(so.Content)
	if !ok {
		return false
	}
	ov, ok := p.Lookup(o.Content)
	if !ok {
		return true
	}
	switch sv.(type) {
	case map[string]any, []any:
		return false
	}
	return !reflect.DeepEqual(sv, ov)
}

// restated reports whether the stream object's value at p is the origin
// file's, unchanged, and one a patch may still have written over it (see
// restatable): the patch applied last is where it is fixed.
func restated(so, o *manifest.Object, p manifest.Path) bool {
	if !restatable(p) {
		return false
	}
	sv, ok := p.Lookup(so.Content)
	if !ok {
		return false
	}
	ov, ok := p.Lookup(o.Content)
	return ok && reflect.DeepEqual(sv, ov)
}

// patchPosition looks for the patch that set the value at p among the
// kustomizations the stream may have been built from: those the origin
// path, taken relative to them, leads to file from.
func (r *Remapper) patchPosition(so, o *manifest.Object, p manifest.Path, file string) (manifest.Position, bool) {
	origin := filepath.FromSlash(so.Origin)
	if filepath.IsAbs(origin) {
		return manifest.Position{}, false
	}
	dirs := append([]string(nil), r.Roots...)
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	if r.Discover {
		dirs = append(dirs, r.kustomizations(dirs[0])...)
	}
	seen := map[string]bool{}
	for _, dir := range dirs {
		if seen[dir] || filepath.Join(dir, origin) != filepath.Clean(file) {
			continue
		}
		seen[dir] = true
		if r.patches == nil {
			r.patches = NewPatchFinder(r.Load)
		}
		if at, ok := r.patches.Position(dir, so, []string{so.Name, o.Name}, p); ok {
			return at, true
		}
	}
	return manifest.Position{}, false
}

// streamObject finds the stream object a position lies on: same file, kind
// and name, and the last such object starting at or before the line (a
// stream may hold the same kind/name twice, e.g. from two overlays).
func streamObject(objs []*manifest.Object, pos manifest.Position, kind, name string) *manifest.Object {
	if kind == "" && name == "" {
		return nil
	}
	var first, best *manifest.Object
	for _, o := range objs {
		if o.File != pos.File || string(o.Kind) != kind || o.Name != name {
			continue
		}
		if first == nil {
			first = o
		}
		if o.Node != nil && o.Node.Line <= pos.Line && (best == nil || o.Node.Line > best.Node.Line) {
			best = o
		}
	}
	if best == nil {
		return first
	}
	return best
}

// source finds the file an origin path names and the object in it. When
// the path resolves under several roots (an origin relative to one of many
// overlays), the file that holds the object wins.
func (r *Remapper) source(so *manifest.Object) (*sourceFile, *manifest.Object, string) {
	var firstFile *sourceFile
	for _, path := range r.candidates(so.Origin) {
		sf := r.load(path)
		if sf == nil {
			continue
		}
		if firstFile == nil {
			firstFile = sf
		}
		if o := SourceObject(sf.objects, so, docIndex(so)); o != nil {
			return sf, o, path
		}
	}
	return firstFile, nil, ""
}

// load reads an origin file once.
func (r *Remapper) load(path string) *sourceFile {
	if r.files == nil {
		r.files = map[string]*sourceFile{}
	}
	if sf, ok := r.files[path]; ok {
		return sf
	}
	set, err := manifest.Load([]string{path}, r.Load)
	var sf *sourceFile
	if err == nil && len(set.Objects) > 0 {
		sf = &sourceFile{name: set.Objects[0].File, objects: set.Objects}
	}
	r.files[path] = sf
	return sf
}

// candidates lists the existing files an origin path may name: under each
// root, then (with Discover, when no root has it) under every kustomization
// directory below the first root.
func (r *Remapper) candidates(origin string) []string {
	// The origin annotation may carry a repo/ref for remote bases; only
	// local paths can be re-read.
	if origin == "" || strings.Contains(origin, "://") {
		return nil
	}
	p := filepath.FromSlash(origin)
	if filepath.IsAbs(p) {
		if r.isFile(p) {
			return []string{filepath.Clean(p)}
		}
		return nil
	}
	roots := r.Roots
	if len(roots) == 0 {
		roots = []string{"."}
	}
	var out []string
	seen := map[string]bool{}
	try := func(root string) {
		if c := filepath.Join(root, p); !seen[c] && r.isFile(c) {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, root := range roots {
		try(root)
	}
	if len(out) == 0 && r.Discover {
		for _, dir := range r.kustomizations(roots[0]) {
			try(dir)
		}
	}
	return out
}

// kustomizations lists the directories below root holding a kustomization
// file, once: `kustomize build overlays/prod | mirrorlint lint -` gives
// origin paths relative to overlays/prod, which the stream does not name.
func (r *Remapper) kustomizations(root string) []string {
	if r.kustDirs != nil {
		return *r.kustDirs
	}
	var dirs []string
	const maxDirs = 20000 // a bound for huge trees; discovery is best effort
	n := 0
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n++; n > maxDirs {
				return filepath.SkipAll
			}
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if kustomization.IsFileName(d.Name()) {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	r.kustDirs = &dirs
	return dirs
}

// confine makes every read go through the access layer: the stream names
// its origin files, so a stream written by anyone (`lint -`, a KRM
// ResourceList) could name ../../dev/zero or a runner's credentials. With
// no Access given, the roots origin paths are relative to are the limit.
func (r *Remapper) confine() {
	if r.Load.Access != nil {
		return
	}
	roots := r.Roots
	if len(roots) == 0 {
		roots = []string{"."}
	}
	r.Load.Access = safefs.New(r.Load.MaxFileSize, roots...)
}

// isFile reports whether p is a regular file the access layer would read.
func (r *Remapper) isFile(p string) bool {
	st, err := r.Load.Access.Stat(p)
	return err == nil && st.Mode().IsRegular() && r.Load.Access.Check(p) == nil
}

// docIndex is the document index a KRM function runner recorded for the
// stream object in its origin file, or -1 when it recorded none
// (SourceObject takes any negative index as none).
func docIndex(o *manifest.Object) int {
	md, _ := o.Content["metadata"].(map[string]any)
	annos, _ := md["annotations"].(map[string]any)
	for _, k := range []string{annoInternalIndex, annoLegacyIndex} {
		if s, ok := annos[k].(string); ok {
			if n, err := strconv.Atoi(s); err == nil {
				return n
			}
		}
	}
	return -1
}
