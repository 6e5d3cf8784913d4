package gitrev

import (
	"bytes"
	"path/filepath"
	"strings"
)

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
	real, err := filepath.EvalSymlinks(top)
	if err != nil {
		return nil, err
	}
	// --stage gives the mode, which tells a submodule (160000) apart.
	staged, err := git(real, "ls-files", "-z", "--stage", "--full-name")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, rec := range bytes.Split(staged, []byte{0}) {
		meta, path, ok := strings.Cut(string(rec), "\t")
		if !ok {
			continue
		}
		p := filepath.Join(real, filepath.FromSlash(path))
		if strings.HasPrefix(meta, "160000 ") {
			p += string(filepath.Separator)
		}
		out = append(out, p)
	}
	if !untracked {
		return out, nil
	}
	others, err := git(real, "ls-files", "-z", "--others", "--exclude-standard", "--full-name")
	if err != nil {
		return nil, err
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
		out = append(out, p)
	}
	return out, nil
}

// Blobs gives the blob id of every regular file the index holds whose
// work-tree copy git does not see as changed, by absolute path below top
// with its symlinks resolved (as Files names them): the content's id
// without reading the file. A file git sees as changed (`git diff-files`:
// its content or only its stat data differ from the index's) is left out,
// so its id is computed from what the work tree holds.
func Blobs(top string) (map[string]string, error) {
	real, err := filepath.EvalSymlinks(top)
	if err != nil {
		return nil, err
	}
	staged, err := git(real, "ls-files", "-z", "--stage", "--full-name")
	if err != nil {
		return nil, err
	}
	changed, err := git(real, "diff-files", "-z", "--name-only")
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, p := range bytes.Split(changed, []byte{0}) {
		skip[string(p)] = true
	}
	out := map[string]string{}
	for _, rec := range bytes.Split(staged, []byte{0}) {
		meta, path, ok := strings.Cut(string(rec), "\t")
		if !ok || skip[path] {
			continue
		}
		// "<mode> <blob> <stage>": regular files only (not links or
		// submodules), and only the merged stage (not a conflict's sides).
		f := strings.Fields(meta)
		if len(f) != 3 || (f[0] != "100644" && f[0] != "100755") || f[2] != "0" {
			continue
		}
		out[filepath.Join(real, filepath.FromSlash(path))] = f[1]
	}
	return out, nil
}
