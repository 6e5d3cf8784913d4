package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The command is wiring: flags, a request, writers, an exit code. The
// packages that hold the domain's logic (rules, cluster discovery, the
// renderer's pieces, the drain decision, value tracing) are reached
// through the pipeline and the packages built on it, never called from
// here directly.
func TestCommandImportsNoDomainPackage(t *testing.T) {
	t.Parallel()
	forbidden := []string{
		"internal/rules", "internal/cluster", "internal/scopes", "internal/mirrororder",
		"internal/nodefiles", "internal/drain", "internal/trace", "internal/build", "internal/kustomization",
		"internal/schema",
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range forbidden {
				if path == "github.com/mirrorlint/mirrorlint/"+bad {
					t.Errorf("%s imports %s", f, path)
				}
			}
		}
	}
}
