package gitrev

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync"
)

// WorkTree is what git says of the working tree at top, in the forms the
// loader asks for: Files (see Files) and, when asked, Blobs (see Blobs).
type WorkTree struct {
	Files []string
	Blobs map[string]string
}

// ReadWorkTree asks git about the working tree at top (a repository's top
// level, as TopLevel returns it) once: the index's entries, with untracked
// the files git does not ignore, with blobs the files it sees as changed.
// The commands run at once: on a large tree listing the untracked files
// (a walk of the whole tree) and finding the changed ones (a stat of
// every tracked file) each take tens of milliseconds, most of it waiting
// on the file system.
func ReadWorkTree(top string, untracked, blobs bool) (*WorkTree, error) {
	real, err := filepath.EvalSymlinks(top)
	if err != nil {
		return nil, err
	}
	// --stage gives the mode (a submodule is 160000) and the blob id.
	cmds := [][]string{{"ls-files", "-z", "--stage", "--full-name"}, nil, nil}
	if untracked {
		cmds[1] = []string{"ls-files", "-z", "--others", "--exclude-standard", "--full-name"}
	}
	if blobs {
		cmds[2] = []string{"diff-files", "-z", "--name-only"}
	}
	outs := make([][]byte, len(cmds))
	errs := make([]error, len(cmds))
	var wg sync.WaitGroup
	for i, args := range cmds {
		if args != nil {
			wg.Go(func() { outs[i], errs[i] = git(real, args...) })
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	w := &WorkTree{}
	staged, others, changed := outs[0], outs[1], outs[2]
	skip := map[string]bool{}
	for _, p := range bytes.Split(changed, []byte{0}) {
		skip[string(p)] = true
	}
	if blobs {
		w.Blobs = map[string]string{}
	}
	for _, rec := range bytes.Split(staged, []byte{0}) {
		meta, path, ok := strings.Cut(string(rec), "\t")
		if !ok {
			continue
		}
		p := filepath.Join(real, filepath.FromSlash(path))
		if strings.HasPrefix(meta, "160000 ") {
			p += string(filepath.Separator)
		}
		w.Files = append(w.Files, p)
		if !blobs || skip[path] {
			continue
		}
		// "<mode> <blob> <stage>": regular files only (not links or
		// submodules), and only the merged stage (not a conflict's sides).
		f := strings.Fields(meta)
		if len(f) != 3 || (f[0] != "100644" && f[0] != "100755") || f[2] != "0" {
			continue
		}
		w.Blobs[p] = f[1]
	}
	for _, rec := range bytes.Split(others, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		path := string(rec)
		p := filepath.Join(real, filepath.FromSlash(path))
		if strings.HasSuffix(path, "/") { // an untracked nested repository
			p += string(filepath.Separator)
		}
		w.Files = append(w.Files, p)
	}
	return w, nil
}

// Files lists the files of the working tree at top (a repository's top
// level, as TopLevel returns it) that git holds: the tracked files, and
// with untracked also the untracked files git does not ignore (.gitignore,
// .git/info/exclude, core.excludesFile), which is what `git add -A` would
// add. Paths are absolute, below top with its symlinks resolved, so they
// compare with the paths a directory walk finds. A submodule, and an
// untracked nested repository, are listed as their directory with a
// trailing separator: everything below belongs to them. Tracked files
// deleted from the working tree are listed too; a walk never meets them.
func Files(top string, untracked bool) ([]string, error) {
	w, err := ReadWorkTree(top, untracked, false)
	if err != nil {
		return nil, err
	}
	return w.Files, nil
}

// Blobs gives the blob id of every regular file the index holds whose
// work-tree copy git does not see as changed, by absolute path below top
// with its symlinks resolved (as Files names them): the content's id
// without reading the file. A file git sees as changed (`git diff-files`:
// its content or only its stat data differ from the index's) is left out,
// so its id is computed from what the work tree holds.
func Blobs(top string) (map[string]string, error) {
	w, err := ReadWorkTree(top, false, true)
	if err != nil {
		return nil, err
	}
	return w.Blobs, nil
}
