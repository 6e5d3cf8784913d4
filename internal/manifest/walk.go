package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// walkItem is one entry of the walk, in walk order: a file to parse, or a
// problem found while walking (a symlink pointing outside the tree, an
// unreadable directory) that keeps its place in the output.
type walkItem struct {
	osPath  string // path to open
	name    string // Object.File: the argument joined with the path inside it
	stdin   bool   // the stream LoadReader reads
	problem *Problem
	// template is a file such as icsp.yaml.j2: not parsed (it is not
	// YAML until rendered), only looked at for mirror kinds to report.
	template bool
}

// pendingLink is a symlink met during the walk. Links are followed only
// after the real tree has been walked, so a file reachable both directly and
// through a link is reported under its real path.
type pendingLink struct {
	osPath, name, rel string
	real              string // the link's own path in its real directory
	root              *walkRoot
}

type walkRoot struct {
	real string // the root argument with symlinks resolved, absolute
	// files is Options.Files for this root: nil when there is none, or
	// when the root argument holds none of its members.
	files *FileSet
}

// reads reports whether the file at real (found inside the root) is read.
func (r *walkRoot) reads(real string) bool { return r.files == nil || r.files.Contains(real) }

// enters reports whether the walk descends into the directory real.
func (r *walkRoot) enters(real string) bool { return r.files == nil || r.files.Enters(real) }

type walker struct {
	opts    Options
	exclude []string
	items   []walkItem
	links   []pendingLink
	// seenFiles and seenDirs hold real (symlink-free) absolute paths, so
	// each file is read once per Load however many links lead to it, and a
	// link to an ancestor directory cannot loop.
	seenFiles map[string]bool
	seenDirs  map[string]bool
	// named are the other files whose base name Options.ListNames holds.
	named []string
	// notApplied holds the chart and source-crs directories already
	// reported, by real path: each is reported once.
	notApplied map[string]bool
	// kindAt and realDirs remember, per directory, what unappliedKindAt
	// found and the directory's real path: a list of many files (the
	// pre-commit list, the inputs' pass over a tree's files) then costs a
	// map lookup per ancestor instead of several system calls.
	kindAt   map[string]string
	realDirs map[string]string
}

func newWalker(opts Options) *walker {
	ex := make([]string, 0, len(opts.Exclude))
	for _, p := range opts.Exclude {
		if p = strings.Trim(filepath.ToSlash(p), "/"); p != "" {
			ex = append(ex, p)
		}
	}
	return &walker{opts: opts, exclude: ex, seenFiles: map[string]bool{}, seenDirs: map[string]bool{}, notApplied: map[string]bool{},
		kindAt: map[string]string{}, realDirs: map[string]string{}}
}

// manifestExt reports whether a file found inside a directory is read.
func manifestExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// templateExt reports a template of a manifest (Jinja2, Go templates):
// x.yaml.j2, x.yml.tpl... Ansible roles and scripts keep mirror objects in
// such files, which the walk would otherwise skip without a word.
func templateExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".j2", ".jinja", ".jinja2", ".tpl", ".tmpl", ".gotmpl":
		return manifestExt(strings.TrimSuffix(name, filepath.Ext(name)))
	}
	return false
}

func displayName(arg, rel string) string {
	if rel == "" {
		return filepath.ToSlash(filepath.Clean(arg))
	}
	return filepath.ToSlash(filepath.Join(arg, filepath.FromSlash(rel)))
}

func (w *walker) problem(name, code, msg string) {
	w.items = append(w.items, walkItem{name: name, problem: &Problem{Pos: Position{File: name}, Code: code, Message: msg}})
}

// skip records something left out on purpose (see Problem.Warning).
func (w *walker) skip(name, code, msg string) {
	w.items = append(w.items, walkItem{name: name, problem: &Problem{Pos: Position{File: name}, Code: code, Message: msg, Warning: true}})
}

// skipUnapplied leaves out a directory no tool applies as written (see
// unappliedDir), reporting it once.
func (w *walker) skipUnapplied(u *unapplied) {
	key := u.osDir
	if real, err := filepath.EvalSymlinks(u.osDir); err == nil {
		key = real
	}
	if w.notApplied[key] {
		return
	}
	w.notApplied[key] = true
	if p := u.problem(); p != nil {
		w.items = append(w.items, walkItem{name: p.Pos.File, problem: p})
	}
}

// root walks one path argument.
func (w *walker) root(arg string) error {
	info, err := os.Stat(arg)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", arg, ErrNotFound)
		}
		w.problem(displayName(arg, ""), "read-error", fsMessage(err))
		return nil
	}
	real, err := w.realPath(arg, info)
	if err != nil {
		w.problem(displayName(arg, ""), "read-error", fsMessage(err))
		return nil
	}
	kindAt := w.unappliedKindAt
	if !info.IsDir() {
		// A file is none of the directories looked for: only its
		// ancestors are asked.
		kindAt = func(dir string) string {
			if dir == real {
				return ""
			}
			return w.unappliedKindAt(dir)
		}
	}
	if u := unappliedAncestor(real, displayName(arg, ""), kindAt); u != nil {
		if !w.excludedPath(displayName(arg, "")) {
			w.skipUnapplied(u)
		}
		return nil
	}
	if !info.IsDir() {
		// An explicit file is read whatever its extension: the user named it.
		name := displayName(arg, "")
		if w.excludedPath(name) || w.seenFiles[real] {
			return nil
		}
		w.seenFiles[real] = true
		w.items = append(w.items, walkItem{osPath: arg, name: name})
		return nil
	}
	r := &walkRoot{real: real, files: w.opts.Files}
	if r.files != nil && !r.files.Enters(real) {
		// A directory named on the command line that holds nothing of
		// the set (an ignored or foreign directory): read it as named.
		r.files = nil
	}
	if !w.seenDirs[real] {
		w.seenDirs[real] = true
		// The directories the walk may enter are listed at once first
		// (into the run's memo); the walk below decides in order.
		w.opts.Access.Prefetch(real, r.enters)
		w.dir(r, arg, arg, "", real)
	}
	for len(w.links) > 0 {
		l := w.links[0]
		w.links = w.links[1:]
		w.follow(l, arg)
	}
	return nil
}

// realPath is filepath.EvalSymlinks and filepath.Abs of a path argument:
// for a regular file that is not a link, its directory's real path (asked
// once per directory) joined with its name.
func (w *walker) realPath(arg string, info fs.FileInfo) (string, error) {
	if !info.Mode().IsRegular() {
		return realAbs(arg)
	}
	if li, err := os.Lstat(arg); err != nil || li.Mode()&fs.ModeSymlink != 0 {
		return realAbs(arg)
	}
	dir := filepath.Dir(arg)
	rd, ok := w.realDirs[dir]
	if !ok {
		var err error
		if rd, err = realAbs(dir); err != nil {
			return "", err
		}
		w.realDirs[dir] = rd
	}
	return filepath.Join(rd, filepath.Base(arg)), nil
}

func realAbs(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(real)
}

func (w *walker) unappliedKindAt(dir string) string {
	k, ok := w.kindAt[dir]
	if !ok {
		k = unappliedKindAt(dir)
		w.kindAt[dir] = k
	}
	return k
}

// dir walks one real directory; osPath is how to reach it, rel its slash
// path relative to the root argument, real its symlink-free path.
func (w *walker) dir(r *walkRoot, arg, osPath, rel, real string) {
	entries, err := w.opts.Access.ReadRealDir(real)
	if err != nil && osPath != real {
		entries, err = os.ReadDir(osPath) // for the error, naming the path as reached
	}
	if err != nil {
		w.problem(displayName(arg, rel), "read-error", "cannot read directory: "+fsMessage(err))
		// ReadDir returns what it could read before the error.
	}
	if u := unappliedDir(osPath, displayName(arg, rel), entries); u != nil {
		w.skipUnapplied(u)
		return
	}
	for _, e := range entries {
		name := e.Name()
		childRel := path.Join(rel, name)
		if w.excluded(childRel) {
			continue
		}
		childOS := filepath.Join(osPath, name)
		childReal := filepath.Join(real, name)
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			w.links = append(w.links, pendingLink{osPath: childOS, name: displayName(arg, childRel), rel: childRel, real: childReal, root: r})
		case t.IsDir():
			if name == ".git" || w.seenDirs[childReal] || !r.enters(childReal) {
				continue
			}
			w.seenDirs[childReal] = true
			w.dir(r, arg, childOS, childRel, childReal)
		case t.IsRegular():
			// FIFOs, sockets and devices are skipped: opening a FIFO named
			// x.yaml would block forever.
			if (manifestExt(name) || templateExt(name)) && !w.seenFiles[childReal] && r.reads(childReal) {
				w.seenFiles[childReal] = true
				w.items = append(w.items, walkItem{osPath: childOS, name: displayName(arg, childRel), template: !manifestExt(name)})
			} else if w.opts.ListNames[name] && r.reads(childReal) {
				w.named = append(w.named, displayName(arg, childRel))
			}
		}
	}
}

// follow resolves a symlink found in the walk. Links that stay inside the
// root are followed (once per real target); links leaving the root are
// reported and not read, so a checkout cannot make mirrorlint read
// /etc or another repository.
func (w *walker) follow(l pendingLink, arg string) {
	target, err := filepath.EvalSymlinks(l.osPath)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) || strings.Contains(err.Error(), "too many links") {
			w.skip(l.name, "symlink-loop", "symlink loop: "+l.name+" points back into itself; not read")
		} else if manifestExt(l.name) {
			msg := "broken symlink: " + fsMessage(err)
			if dest, rerr := os.Readlink(l.osPath); rerr == nil && errors.Is(err, fs.ErrNotExist) {
				msg = fmt.Sprintf("broken symlink: %s points to %s, which does not exist", l.name, dest)
			}
			w.problem(l.name, "read-error", msg)
		}
		return
	}
	if target, err = filepath.Abs(target); err != nil {
		w.problem(l.name, "read-error", fsMessage(err))
		return
	}
	if _, in := Within(l.root.real, target); !in {
		// The link is named by what it holds, as committed, not by the
		// machine's path it resolves to.
		dest, err := os.Readlink(l.osPath)
		if err != nil {
			dest = target
		}
		w.skip(l.name, "symlink-outside", fmt.Sprintf("symlink points outside %s (to %s); not followed", arg, dest))
		return
	}
	info, err := os.Stat(target)
	if err != nil {
		w.problem(l.name, "read-error", fsMessage(err))
		return
	}
	switch {
	case info.IsDir():
		if path.Base(l.rel) == ".git" || w.seenDirs[target] || !(l.root.enters(l.real) || l.root.enters(target)) {
			return
		}
		w.seenDirs[target] = true
		w.dir(l.root, arg, l.osPath, l.rel, target)
	case info.Mode().IsRegular():
		// Git holds the link, not its target: either in the set will do.
		if manifestExt(l.name) && !w.seenFiles[target] && (l.root.reads(l.real) || l.root.reads(target)) {
			w.seenFiles[target] = true
			w.items = append(w.items, walkItem{osPath: l.osPath, name: l.name})
		}
	}
}

// fsMessage words a file-system error without the system call that failed
// ("lstat x: permission denied" becomes "cannot read x: permission
// denied"): the call is an implementation detail, the path and cause are not.
func fsMessage(err error) string {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Sprintf("symlink loop at %s", pe.Path)
	}
	verb := "read"
	if pe.Op == "open" {
		verb = "open"
	}
	return fmt.Sprintf("cannot %s %s: %v", verb, pe.Path, pe.Err)
}
