package impact

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Snapshot is a set of paths as they were at a git revision, written to a
// private temporary directory. The working tree, the index and HEAD are
// never touched: the files come from `git ls-tree` and `git cat-file`,
// which (unlike `git archive`) apply no export-ignore or export-subst
// attributes, so the old side is byte for byte what was committed.
type Snapshot struct {
	Rev string // as given
	// Dir is the temporary root; Paths the old-side paths to load, one per
	// requested path that existed at Rev; Missing the requested paths that
	// did not (a tree added by the change).
	Dir     string
	Paths   []string
	Missing []string
}

// Checkout materialises paths (relative to the working directory, as the
// user typed them; none means ".") at revision rev of the repository the
// working directory is in.
func Checkout(rev string, paths []string) (*Snapshot, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("--base %q: not a revision", rev)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	top, err := git("", nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--base needs a git repository: %w", err)
	}
	topDir := strings.TrimRight(string(top), "\n")
	commit, err := git(topDir, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("--base %q: no such commit in %s", rev, topDir)
	}
	commitID := strings.TrimSpace(string(commit))

	rels := make([]string, len(paths))
	for i, p := range paths {
		if p == "-" {
			return nil, fmt.Errorf("--base cannot be combined with standard input")
		}
		if rels[i], err = relativeToTop(topDir, p); err != nil {
			return nil, err
		}
	}

	s := &Snapshot{Rev: rev}
	if s.Dir, err = os.MkdirTemp("", "mirrorlint-base-"); err != nil {
		return nil, err
	}
	present, err := s.extract(topDir, commitID, rels)
	if err != nil {
		s.Close()
		return nil, err
	}
	for i, rel := range rels {
		if !present(rel) {
			s.Missing = append(s.Missing, paths[i])
			continue
		}
		s.Paths = append(s.Paths, filepath.Join(s.Dir, filepath.FromSlash(rel)))
	}
	return s, nil
}

// Close removes the temporary copy.
func (s *Snapshot) Close() {
	if s != nil && s.Dir != "" {
		os.RemoveAll(s.Dir)
	}
}

// Name maps a path inside the snapshot back to git's REV:path notation
// (path from the repository's top level), for positions in messages.
func (s *Snapshot) Name(p string) string {
	rel, err := filepath.Rel(s.Dir, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return p
	}
	return s.Rev + ":" + filepath.ToSlash(rel)
}

// relativeToTop turns a user path into a slash path from the top level
// ("" for the top itself), resolving symlinks on both sides so that
// /tmp vs /private/tmp style aliases do not defeat the comparison. The
// path need not exist any more in the working tree.
func relativeToTop(top, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return "", err
	}
	real := abs
	// Resolve the longest existing ancestor, then re-append the rest.
	for dir, rest := abs, ""; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			real = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	rel, err := filepath.Rel(realTop, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git repository at %s", p, top)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

type treeEntry struct {
	mode, oid, path string
}

// extract lists the blobs under rels at commit and writes them below s.Dir.
// It returns whether anything existed under a given rel.
func (s *Snapshot) extract(top, commit string, rels []string) (func(string) bool, error) {
	args := []string{"--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", commit}
	whole := false
	for _, r := range rels {
		if r == "" {
			whole = true
		}
	}
	if !whole {
		args = append(args, "--")
		args = append(args, rels...)
	}
	out, err := git(top, nil, args...)
	if err != nil {
		return nil, err
	}
	var entries []treeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, path, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-tree: unexpected line %q", rec)
		}
		if f[1] != "blob" {
			continue // submodules have no content here
		}
		entries = append(entries, treeEntry{mode: f[0], oid: f[2], path: path})
	}
	if err := s.writeBlobs(top, entries); err != nil {
		return nil, err
	}
	present := func(rel string) bool {
		if rel == "" {
			return true // the top level always existed, even if empty
		}
		for _, e := range entries {
			if e.path == rel || strings.HasPrefix(e.path, rel+"/") {
				return true
			}
		}
		return false
	}
	return present, nil
}

// writeBlobs streams every blob through one `git cat-file --batch`.
func (s *Snapshot) writeBlobs(top string, entries []treeEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var in bytes.Buffer
	for _, e := range entries {
		in.WriteString(e.oid + "\n")
	}
	out, err := git(top, &in, "cat-file", "--batch")
	if err != nil {
		return err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	for _, e := range entries {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[0] != e.oid {
			return fmt.Errorf("git cat-file: unexpected header %q", header)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return fmt.Errorf("git cat-file: unexpected header %q", header)
		}
		data := make([]byte, size)
		if _, err := io.ReadFull(r, data); err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		if _, err := r.Discard(1); err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		if err := s.writeEntry(e, data); err != nil {
			return err
		}
	}
	return nil
}

func (s *Snapshot) writeEntry(e treeEntry, data []byte) error {
	clean := filepath.Clean(filepath.FromSlash(e.path))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return fmt.Errorf("git ls-tree: refusing path %q", e.path)
	}
	dst := filepath.Join(s.Dir, clean)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	if e.mode == "120000" {
		// A committed symlink: recreate it only when it stays inside the
		// snapshot, so the loader never reads outside what was committed.
		target := string(data)
		if filepath.IsAbs(target) {
			return nil
		}
		resolved := filepath.Join(filepath.Dir(dst), target)
		if rel, err := filepath.Rel(s.Dir, resolved); err != nil || strings.HasPrefix(rel, "..") {
			return nil
		}
		return os.Symlink(target, dst)
	}
	return os.WriteFile(dst, data, 0o600)
}

// git runs git in dir ("" for the working directory) and returns stdout,
// with stderr in the error.
func git(dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	// A user's pager, editor or locale must not change what git prints.
	cmd.Env = append(os.Environ(), "GIT_PAGER=cat", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("git %s: %s", args[0], strings.TrimSpace(stderr.String()))
		}
		return nil, fmt.Errorf("git: %w", err)
	}
	return out, nil
}
