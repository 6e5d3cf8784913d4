package report

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Options carries what the formats read by other tools (SARIF, GitHub
// annotations, JUnit, the job summary) need beyond the findings: those tools
// resolve paths against the repository root, not against wherever mirrorlint
// happened to run.
type Options struct {
	// Base is the repository root finding paths are made relative to: the
	// git top level when mirrorlint runs inside a repository, else "" for
	// the working directory. It does not follow --context: code scanning
	// and annotations resolve paths against the repository whatever part
	// of it was loaded.
	Base string
	// Files lists every file that was linted, so that JUnit can report the
	// files that passed; when empty, only files with findings appear.
	Files []string
	// Getenv reads the GitHub environment for the job summary; nil means
	// os.Getenv. Tests replace it.
	Getenv func(string) string
}

// Configurable is implemented by writers that take Options.
type Configurable interface {
	Configure(Options) Writer
}

// Configure hands o to w when w takes options, and returns w unchanged
// otherwise, so the command can configure every output the same way.
func Configure(w Writer, o Options) Writer {
	if c, ok := w.(Configurable); ok {
		return c.Configure(o)
	}
	return w
}

func (o Options) getenv(k string) string {
	if o.Getenv != nil {
		return o.Getenv(k)
	}
	return os.Getenv(k)
}

// RelPath turns a finding's file (absolute, or relative to the working
// directory) into a forward-slash path relative to base (the working
// directory when base is ""), without a leading "./". A file outside base
// gets its absolute path: a "../" path would name a different file for a
// tool resolving it against the repository root. The stream's name
// (manifest.StreamName) is returned as is.
func RelPath(base, file string) string {
	p, _ := repoPath(base, file)
	return p
}

// repoPath is RelPath, and whether the path it returns is relative to base.
func repoPath(base, file string) (string, bool) {
	if file == "" || manifest.IsStream(file) {
		return file, false
	}
	if rel, ok := below(base, file); ok {
		return filepath.ToSlash(rel), true
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(file)), "./"), !filepath.IsAbs(file)
	}
	return filepath.ToSlash(abs), false
}

// below returns file relative to dir ("" for the working directory) when
// it lies below dir. Paths are compared as written first, then free of
// symlinks: git reports its top level resolved, while the user may have
// reached it (or the file) through a link.
func below(dir, file string) (string, bool) {
	if dir == "" {
		dir = "."
	}
	absDir, err1 := filepath.Abs(dir)
	absFile, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return "", false
	}
	if rel, ok := relBelow(absDir, absFile); ok {
		return rel, true
	}
	if r, err := filepath.EvalSymlinks(absDir); err == nil {
		absDir = r
	}
	if r, err := filepath.EvalSymlinks(absFile); err == nil {
		absFile = r
	}
	return relBelow(absDir, absFile)
}

func relBelow(dir, file string) (string, bool) {
	rel, in := manifest.Within(dir, file)
	return rel, in && rel != "."
}

// fileURI is the file: URI of a forward-slash absolute path, for SARIF
// locations outside the repository.
func fileURI(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path: file:///C:/...
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// DisplayPath is how people see a finding's file (text and json): the
// shortest relative path from the working directory for a file below it,
// or one the user named with a relative path ("../base/x.yaml"); anything
// else by its absolute path. DisplayPaths also names files inside the
// repository relative to the working directory.
func DisplayPath(file string) string {
	return newDisplayer("", true).show(file)
}

// displayer names files for people, relative to the working directory.
type displayer struct {
	wd     string // the working directory, symlinks resolved
	top    string // the repository's top level ("" outside one), resolved
	keepUp bool   // relative paths may climb out of the working directory
	seen   map[string]string
}

func newDisplayer(top string, keepUp bool) *displayer {
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	d := &displayer{wd: manifest.RealPath(wd), keepUp: keepUp, seen: map[string]string{}}
	if top != "" {
		d.top = manifest.RealPath(top)
	}
	return d
}

func (d *displayer) show(file string) string {
	p, ok := d.seen[file]
	if !ok {
		p = d.path(file)
		d.seen[file] = p
	}
	return p
}

func (d *displayer) path(file string) string {
	if file == "" || manifest.IsStream(file) {
		return file
	}
	abs := file
	if !filepath.IsAbs(file) {
		// A relative path is relative to the working directory; "../"
		// steps are the file system's, so they are resolved from the
		// directory free of symlinks. A path that climbs out and back in
		// (../../../x/y/z/sub/a.yaml, from a context at the top level)
		// becomes sub/a.yaml.
		abs = filepath.Join(d.wd, file)
	}
	if rel, ok := below(d.wd, abs); ok {
		return rel
	}
	if !filepath.IsAbs(file) {
		// Climbing out of the working directory. A lint run shows it
		// relative, as the user typed it; a KRM function runs in the
		// kustomization root, a directory the user may never have been
		// in, so there it is absolute.
		if d.keepUp {
			if rel, err := filepath.Rel(d.wd, abs); err == nil {
				return rel
			}
			return filepath.Clean(file)
		}
		return abs
	}
	// An absolute path (a kustomize base, a file loaded from the context)
	// inside the repository is named relative to the working directory
	// too, so every path of a run reads the same way.
	if d.keepUp && d.top != "" {
		real := manifest.RealPath(abs)
		if _, in := manifest.Within(d.top, real); in {
			if _, wdIn := manifest.Within(d.top, d.wd); wdIn {
				if rel, err := filepath.Rel(d.wd, real); err == nil {
					return rel
				}
			}
		}
	}
	return filepath.Clean(abs)
}

// DisplayPaths returns fs with every file (the finding's and its related
// locations') named as DisplayPath names it, and a file inside the
// repository top (the git top level; "" for none) relative to the working
// directory even when reached by absolute path. fs itself is not modified.
func DisplayPaths(fs []check.Finding, top string) []check.Finding {
	return displayPaths(fs, newDisplayer(top, true))
}

// FunctionDisplayPaths is DisplayPaths for the KRM function, which runs in
// the kustomization root: files outside it are named by absolute path.
func FunctionDisplayPaths(fs []check.Finding) []check.Finding {
	return displayPaths(fs, newDisplayer("", false))
}

func displayPaths(fs []check.Finding, d *displayer) []check.Finding {
	if len(fs) == 0 {
		return fs
	}
	out := make([]check.Finding, len(fs))
	for i, f := range fs {
		f.File = d.show(f.File)
		if len(f.Related) > 0 {
			rel := make([]check.Location, len(f.Related))
			for j, l := range f.Related {
				l.File = d.show(l.File)
				rel[j] = l
			}
			f.Related = rel
		}
		out[i] = f
	}
	return out
}
