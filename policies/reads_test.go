package policies

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// kindLiteral finds a quoted word that may be a kind in a policy.
var kindLiteral = regexp.MustCompile(`"([A-Z][A-Za-z]+)"`)

// TestReadsDeclared: every kind of object the loader keeps that the
// library's policies name is in Reads, so a pre-commit run never leaves a
// file the library reads unparsed.
func TestReadsDeclared(t *testing.T) {
	for f, data := range libraryFiles(t) {
		for _, m := range kindLiteral.FindAllStringSubmatch(data, -1) {
			if manifest.Keeps(m[1]) && !slices.Contains(Reads, m[1]) {
				t.Errorf("%s names %s, which Reads does not declare", f, m[1])
			}
		}
	}
}

// libraryFiles are the library's policy files (not its tests), by name.
func libraryFiles(t *testing.T) map[string]string {
	t.Helper()
	files, err := fs.Glob(FS, "*.rego")
	if err != nil || len(files) == 0 {
		t.Fatalf("library files: %v %v", files, err)
	}
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.rego") {
			continue
		}
		data, err := fs.ReadFile(FS, f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(data)
	}
	return out
}

// TestFieldsDeclared: every reference the library's policies make to the
// input document names one of Fields as its first member, so that a run
// building only those gives them everything they read. A reference to
// input as a whole, or through a variable key, would read any member.
func TestFieldsDeclared(t *testing.T) {
	seen := map[string]bool{}
	for f, data := range libraryFiles(t) {
		mod, err := ast.ParseModuleWithOpts(f, data, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		ast.WalkRefs(mod, func(r ast.Ref) bool {
			if !r.HasPrefix(ast.InputRootRef) {
				return false
			}
			if len(r) < 2 {
				t.Errorf("%s:%d: reads input as a whole", f, r[0].Location.Row)
				return false
			}
			field, ok := r[1].Value.(ast.String)
			if !ok {
				t.Errorf("%s:%d: reads input through %v", f, r[0].Location.Row, r[1])
				return false
			}
			seen[string(field)] = true
			if !slices.Contains(Fields, string(field)) {
				t.Errorf("%s:%d: reads input.%s, which Fields does not declare", f, r[0].Location.Row, string(field))
			}
			return false
		})
	}
	for _, f := range Fields {
		if !seen[f] {
			t.Errorf("Fields declares %s, which no library policy reads", f)
		}
	}
}
