package policy

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mirrorlint/mirrorlint/policies"
)

// source is one .rego file as found on disk or in the embedded library.
type source struct {
	// name is what messages show: the path as given on the command line
	// joined with the path inside it, or "policies/<file>" for the library.
	name    string
	text    string
	builtin bool
	test    bool
}

// collect reads the embedded library (when builtin) and every .rego file
// under dirs, in a stable order; test files are included only when tests.
func collect(dirs []string, builtin, tests bool) ([]source, error) {
	var out []source
	if builtin {
		entries, err := fs.ReadDir(policies.FS, ".")
		if err != nil {
			return nil, fmt.Errorf("built-in policies: %w", err)
		}
		for _, e := range entries {
			if !isRego(e.Name(), tests) {
				continue
			}
			b, err := fs.ReadFile(policies.FS, e.Name())
			if err != nil {
				return nil, fmt.Errorf("built-in policies: %w", err)
			}
			out = append(out, source{name: policies.Dir + "/" + e.Name(), text: string(b), builtin: true, test: isTest(e.Name())})
		}
	}
	for _, dir := range dirs {
		files, err := regoFiles(dir, tests)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, fmt.Errorf("policy %s: %w", f, err)
			}
			out = append(out, source{name: f, text: string(b), test: isTest(f)})
		}
	}
	return out, nil
}

// regoFiles lists the .rego files under root (or root itself when it is a
// file). Hidden directories such as .git are not entered: they never hold
// policies and can be large.
func regoFiles(root string, tests bool) ([]string, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("policy directory %s: %w", root, err)
	}
	if !st.IsDir() {
		if !strings.HasSuffix(root, ".rego") {
			return nil, fmt.Errorf("policy %s: not a directory or a .rego file", root)
		}
		if !tests && isTest(root) {
			return nil, nil
		}
		return []string{root}, nil
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if isRego(d.Name(), tests) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("policy directory %s: %w", root, err)
	}
	sort.Strings(files)
	return files, nil
}

func isRego(name string, tests bool) bool {
	return strings.HasSuffix(name, ".rego") && (tests || !isTest(name))
}

func isTest(name string) bool { return strings.HasSuffix(name, "_test.rego") }
