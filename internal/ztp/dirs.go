package ztp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// SourceCRDir is where the ZTP generator looks for source CRs first: a
// source-crs directory in the directory it runs in, which kustomize makes
// the directory of the kustomization running it; then the copy built
// into its container.
const SourceCRDir = "source-crs"

// InSourceCRDir reports whether the file p lies in a source-crs directory,
// at any depth: a source CR, never applied as it is written.
func InSourceCRDir(p string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(filepath.Dir(p)), "/"), SourceCRDir)
}

// maxFile bounds what a source CR read can take.
const maxFile = safefs.DefaultMaxFileSize

// Dirs is the Source of a generator read from disk.
type Dirs struct {
	// Dir is the directory the generator's relative paths start from,
	// on disk: both generators resolve them from the directory kustomize
	// runs them in, the directory of the kustomization listing the
	// generator file; for a file no kustomization runs, the file's own.
	// Shown is the same as positions show it (the argument the file was
	// found under joined with the path inside).
	Dir, Shown string
	// File is the generator file's directory on disk when it is not Dir
	// (a kustomization running a generator of a subdirectory), where a
	// source-crs directory is looked for when a source CR is missing
	// (see nearby): the template may have been written for it.
	File string
	// SourceCRs are further directories holding source CRs (as the
	// repository's configuration names them), searched after Dir's own
	// source-crs.
	SourceCRs []string
	// Root bounds the search for a source-crs directory to suggest when a
	// source CR is missing; "" searches up to the file system root.
	Root string
	// ReadFile and Stat, when set, are how files are read (a layer
	// confining reads to the repository); os otherwise.
	ReadFile func(p string) ([]byte, error)
	Stat     func(p string) (os.FileInfo, error)
	// Kustomize, when set, builds a manifest directory holding a
	// kustomization (see Kustomization).
	Kustomize Kustomizer
}

func (d *Dirs) read(p string) ([]byte, error) {
	if d.ReadFile != nil {
		return d.ReadFile(p)
	}
	return readBounded(p)
}

func (d *Dirs) stat(p string) (os.FileInfo, error) {
	if d.Stat != nil {
		return d.Stat(p)
	}
	return os.Stat(p)
}

func (d *Dirs) shown(p string) string {
	rel, err := filepath.Rel(d.Dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return path.Join(d.Shown, filepath.ToSlash(rel))
}

// SourceCR reads name from the source-crs directory of Dir, then from the
// configured ones.
func (d *Dirs) SourceCR(name string) (File, error) {
	dirs := append([]string{filepath.Join(d.Dir, SourceCRDir)}, d.SourceCRs...)
	for _, dir := range dirs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		data, err := d.read(p)
		if err == nil {
			return File{Name: d.shown(p), Data: data}, nil
		}
		if !isNotExist(err) {
			return File{}, fmt.Errorf("the source CR %s cannot be read: %v", d.shown(p), cause(err))
		}
	}
	return File{}, d.missingSourceCR(name, dirs[0], false)
}

// missingSourceCR says that the source CR name is in neither dir (the
// source-crs directory of Dir) nor the configured ones, and how to supply
// it: ZTP hub repositories often keep only their own source CRs and take
// the rest from the container. A source-crs directory elsewhere that holds
// it is named too (MissingSourceCR.Near): the generator or its
// kustomization may sit in the wrong place. path: a PolicyGenerator
// manifest path, not a PolicyGenTemplate fileName.
func (d *Dirs) missingSourceCR(name, dir string, path bool) error {
	m := &MissingSourceCR{Name: name, Dir: d.shown(dir), Configured: len(d.SourceCRs) > 0, Near: d.nearby(name), Path: path}
	msg := fmt.Sprintf("the source CR %s is not in %s%s, so what it delivers is not linted%s", name, m.Dir, m.configured(), m.hint(false))
	if m.Near != "" {
		msg += "; " + m.Near + " holds one"
	}
	return &missing{msg: msg, sourceCR: m}
}

// SourceCRsMissing tells several source CRs one generator names, all
// missing from the same places (and held by the same directory above, if
// any), as one problem: the first few by name, the rest counted (their
// entries are listed with the problem).
func SourceCRsMissing(ms []*MissingSourceCR) string {
	const named = 3
	var distinct []string
	for _, m := range ms {
		if !slices.Contains(distinct, m.Name) {
			distinct = append(distinct, m.Name)
		}
	}
	shown := distinct
	if len(distinct) > named+1 {
		shown = append(distinct[:named:named], fmt.Sprintf("and %d more", len(distinct)-named))
	}
	entries := ""
	if len(ms) > len(distinct) {
		entries = fmt.Sprintf(" in %d entries", len(ms))
	}
	msg := fmt.Sprintf("%d source CRs this generator names%s are not in %s%s (%s, each entry listed with this finding), so what they deliver is not linted%s",
		len(distinct), entries, ms[0].Dir, ms[0].configured(), strings.Join(shown, ", "), ms[0].hint(true))
	if ms[0].Near != "" {
		msg += "; " + ms[0].Near + " holds them"
	}
	return msg
}

func (m *MissingSourceCR) configured() string {
	if m.Configured {
		return " nor in the configured sourceCRs directories"
	}
	return ""
}

// hint ends a missing source CR's message with what the generator does
// without it and how to supply it. The ZTP container falls back on its own
// copy of a PolicyGenTemplate's source CR; the policy generator reads a
// manifest path from the repository only, and refuses one naming no file.
func (m *MissingSourceCR) hint(plural bool) string {
	const supply = " source CRs there, or name the directory holding them in .mirrorlint.yaml (sourceCRs: [DIR])"
	switch {
	case m.Path && plural:
		return " (the policy generator refuses paths that name no file): put the ZTP container's" + supply
	case m.Path:
		return " (the policy generator refuses a path that names no file): put the ZTP container's" + supply
	case plural:
		return " (the ZTP container would use its own copies): put the container's" + supply
	}
	return " (the ZTP container would use its own copy): put the container's" + supply
}

// nearby finds a source-crs directory that holds name where the generator
// does not look, to name in the message: beside the generator file or
// above it (a kustomization of another directory runs it), then above
// Dir, whose own was searched already.
func (d *Dirs) nearby(name string) string {
	seen := map[string]bool{d.Dir: true}
	for _, start := range []string{d.File, filepath.Dir(d.Dir)} {
		for dir := start; dir != "" && !seen[dir]; dir = filepath.Dir(dir) {
			seen[dir] = true
			p := filepath.Join(dir, SourceCRDir, filepath.FromSlash(name))
			if fi, err := d.stat(p); err == nil && fi.Mode().IsRegular() {
				return d.shown(filepath.Join(dir, SourceCRDir))
			}
			if dir == d.Root || filepath.Dir(dir) == dir || (d.Root != "" && !strings.HasPrefix(dir, d.Root)) {
				break
			}
		}
	}
	return ""
}

// Manifests reads a PolicyGenerator manifest path relative to Dir: a
// file, or the YAML files of a directory; ErrKustomization for a
// directory holding a kustomization.
func (d *Dirs) Manifests(rel string) ([]File, error) {
	p := filepath.Join(d.Dir, filepath.FromSlash(rel))
	fi, err := d.stat(p)
	inner, intoSourceCRs := strings.CutPrefix(filepath.ToSlash(filepath.Clean(rel)), SourceCRDir+"/")
	if err != nil && isNotExist(err) && intoSourceCRs {
		// A path into source-crs/ is looked up in the configured source
		// CR directories too, as a PolicyGenTemplate fileName is.
		for _, dir := range d.SourceCRs {
			q := filepath.Join(dir, filepath.FromSlash(inner))
			if qi, qerr := d.stat(q); qerr == nil {
				p, fi, err = q, qi, nil
				break
			}
		}
	}
	if err != nil {
		if isNotExist(err) && intoSourceCRs {
			return nil, d.missingSourceCR(inner, filepath.Join(d.Dir, SourceCRDir), true)
		}
		if isNotExist(err) {
			return nil, &missing{msg: fmt.Sprintf("the manifest path %s names no file, so what it delivers is not linted (the policy generator refuses it)", d.shown(p))}
		}
		return nil, fmt.Errorf("the manifest path %s cannot be read: %v", d.shown(p), cause(err))
	}
	if !fi.IsDir() {
		data, err := d.read(p)
		if err != nil {
			return nil, fmt.Errorf("the manifest %s cannot be read: %v", d.shown(p), cause(err))
		}
		return []File{{Name: d.shown(p), Data: data}}, nil
	}
	names, err := manifestDir(p)
	if err != nil {
		if errors.Is(err, ErrKustomization) {
			return nil, err
		}
		return nil, fmt.Errorf("the manifest directory %s cannot be read: %v", d.shown(p), cause(err))
	}
	var out []File
	for _, n := range names {
		fp := filepath.Join(p, n)
		data, err := d.read(fp)
		if err != nil {
			return out, fmt.Errorf("the manifest %s cannot be read: %v", d.shown(fp), cause(err))
		}
		out = append(out, File{Name: d.shown(fp), Data: data})
	}
	return out, nil
}

// missing is a file a generator names that is not there; sourceCR is set
// for a source CR looked for in the usual places.
type missing struct {
	msg      string
	sourceCR *MissingSourceCR
}

func (m *missing) Error() string { return m.msg }
func (m *missing) Is(target error) bool {
	return target == fs.ErrNotExist
}

func isNotExist(err error) bool {
	return err != nil && (os.IsNotExist(err) || strings.Contains(err.Error(), "not a directory"))
}

// cause drops the machine path an *fs.PathError carries.
func cause(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func readBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrInvalid}
	}
	if fi.Size() > maxFile {
		return nil, fmt.Errorf("larger than %d MiB", maxFile>>20)
	}
	return io.ReadAll(io.LimitReader(f, maxFile+1))
}

// manifestDir lists, sorted, the files of a manifest directory the policy
// generator reads: its YAML files, not those of its subdirectories; or
// ErrKustomization when one is a kustomization, which it builds instead.
func manifestDir(p string) ([]string, error) {
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || (path.Ext(n) != ".yaml" && path.Ext(n) != ".yml") {
			continue
		}
		if n == "kustomization.yaml" || n == "kustomization.yml" {
			return nil, ErrKustomization
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}
