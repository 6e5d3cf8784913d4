// Package archdoc holds docs/architecture.md to the module's real import
// graph: the import table between its imports markers must list exactly
// the module packages each package imports (test files not counted), and
// every arrow of the diagram between its graph markers must be an import.
// `go test ./internal/archdoc -update` rewrites the table; the diagram and
// the prose are written by hand.
package archdoc

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the import table of docs/architecture.md from the module's packages")

const (
	module     = "github.com/mirrorlint/mirrorlint"
	docName    = "docs/architecture.md"
	tableBegin = "<!-- imports:begin -->"
	tableEnd   = "<!-- imports:end -->"
	graphBegin = "<!-- graph:begin -->"
	graphEnd   = "<!-- graph:end -->"
)

// graph maps a module package (its path inside the module, "." for the
// root) to the module packages it imports, each with where the import is
// first written.
type graph map[string]map[string]token.Position

// moduleGraph lists the module's packages with `go list` (which applies
// the build constraints) and reads their non-test files' imports for the
// position of each.
func moduleGraph(t *testing.T, root string) graph {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles,CgoFiles,Imports", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	g := graph{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath, Dir   string
			GoFiles, CgoFiles []string
			Imports           []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		name, ok := inModule(p.ImportPath)
		if !ok {
			t.Fatalf("go list ./... listed %s, outside %s", p.ImportPath, module)
		}
		deps := map[string]bool{}
		for _, imp := range p.Imports {
			if dep, ok := inModule(imp); ok {
				deps[dep] = true
			}
		}
		imports := map[string]token.Position{}
		fset := token.NewFileSet()
		for _, file := range slices.Concat(p.GoFiles, p.CgoFiles) {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, file), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range f.Imports {
				path, _ := strconv.Unquote(spec.Path.Value)
				dep, ok := inModule(path)
				if _, seen := imports[dep]; ok && deps[dep] && !seen {
					pos := fset.Position(spec.Pos())
					if rel, err := filepath.Rel(root, pos.Filename); err == nil {
						pos.Filename = filepath.ToSlash(rel)
					}
					imports[dep] = pos
				}
			}
		}
		for dep := range deps {
			if _, ok := imports[dep]; !ok {
				imports[dep] = token.Position{Filename: p.Dir} // an import go list reports but no file spells
			}
		}
		g[name] = imports
	}
	return g
}

// inModule gives a module package's path inside the module.
func inModule(importPath string) (string, bool) {
	if importPath == module {
		return ".", true
	}
	rest, ok := strings.CutPrefix(importPath, module+"/")
	return rest, ok
}

// table is the import table as the document writes it: each package's
// row line and the imports it lists.
type table struct {
	line    map[string]int
	imports map[string]map[string]bool
}

// section gives the lines strictly between begin and end, and the number
// of the first of them.
func section(doc []byte, begin, end string) (lines []string, first int, err error) {
	all := strings.Split(string(doc), "\n")
	b := slices.Index(all, begin)
	e := slices.Index(all, end)
	if b < 0 || e < b {
		return nil, 0, fmt.Errorf("%s: no %s … %s section: add the markers, each on a line of its own", docName, begin, end)
	}
	return all[b+1 : e], b + 2, nil
}

// parseTable reads rows of the form | `pkg` | `dep`, `dep` | (— for none).
func parseTable(lines []string, first int) (table, []string) {
	tb := table{line: map[string]int{}, imports: map[string]map[string]bool{}}
	var problems []string
	for i, l := range lines {
		n := first + i
		cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		if len(cells) != 2 {
			if strings.TrimSpace(l) != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: a row has two cells, the package and what it imports: %q", docName, n, l))
			}
			continue
		}
		pkgCell, depCell := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		if pkgCell == "package" || strings.Trim(pkgCell, "-") == "" {
			continue // the header and its rule
		}
		pkg, ok := unquote(pkgCell)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s:%d: the package is written in backquotes: %q", docName, n, pkgCell))
			continue
		}
		if prev, dup := tb.line[pkg]; dup {
			problems = append(problems, fmt.Sprintf("%s:%d: %s has a row already at line %d: merge them", docName, n, pkg, prev))
			continue
		}
		tb.line[pkg] = n
		tb.imports[pkg] = map[string]bool{}
		if depCell == "—" {
			continue
		}
		for _, d := range strings.Split(depCell, ",") {
			dep, ok := unquote(strings.TrimSpace(d))
			if !ok {
				problems = append(problems, fmt.Sprintf("%s:%d: imports are backquoted and separated by commas (— for none): %q", docName, n, d))
				continue
			}
			tb.imports[pkg][dep] = true
		}
	}
	return tb, problems
}

func unquote(cell string) (string, bool) {
	s, ok := strings.CutPrefix(cell, "`")
	if !ok {
		return "", false
	}
	s, ok = strings.CutSuffix(s, "`")
	return s, ok && s != "" && !strings.Contains(s, "`")
}

// renderTable writes the table of g, packages and imports sorted.
func renderTable(g graph) []string {
	lines := []string{"| package | imports (module packages, test files not counted) |", "|---|---|"}
	for _, pkg := range sortedKeys(g) {
		var deps []string
		for _, d := range sortedKeys(g[pkg]) {
			deps = append(deps, "`"+d+"`")
		}
		cell := strings.Join(deps, ", ")
		if cell == "" {
			cell = "—"
		}
		lines = append(lines, "| `"+pkg+"` | "+cell+" |")
	}
	return lines
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// tableProblems compares the table with the graph, each problem placed
// where it is to be fixed: an unlisted import at the import, a listed one
// that is not written at its row.
func tableProblems(tb table, g graph) []string {
	var problems []string
	const fix = "add it (`go test ./internal/archdoc -update` rewrites the table) and make the diagram and the package tables say the same"
	for _, pkg := range sortedKeys(g) {
		row, ok := tb.line[pkg]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: package %s has no row in the import table: %s", docName, pkg, fix))
			continue
		}
		for _, dep := range sortedKeys(g[pkg]) {
			if !tb.imports[pkg][dep] {
				problems = append(problems, fmt.Sprintf("%s: %s imports %s, which %s:%d does not list: %s", g[pkg][dep], pkg, dep, docName, row, fix))
			}
		}
		for _, dep := range sortedKeys(tb.imports[pkg]) {
			if _, ok := g[pkg][dep]; !ok {
				problems = append(problems, fmt.Sprintf("%s:%d: the table says %s imports %s, but it does not: remove it from the row (or run `go test ./internal/archdoc -update`) and from the diagram and prose", docName, row, pkg, dep))
			}
		}
	}
	for _, pkg := range sortedKeys(tb.line) {
		if _, ok := g[pkg]; !ok {
			problems = append(problems, fmt.Sprintf("%s:%d: %s is not a package of the module: remove its row (or run `go test ./internal/archdoc -update`)", docName, tb.line[pkg], pkg))
		}
	}
	return problems
}

// diagramProblems checks the diagram's lines `a, b ──► c ──► d`: every
// package after an arrow imports every package before it. A name is a
// module path (render, cmd/mirrorlint) or one under internal/ written
// without it.
func diagramProblems(lines []string, first int, g graph) []string {
	var problems []string
	resolve := func(n int, name string) (string, bool) {
		for _, p := range []string{name, "internal/" + name} {
			if _, ok := g[p]; ok {
				return p, true
			}
		}
		problems = append(problems, fmt.Sprintf("%s:%d: the diagram names %q, which is no package of the module (names are module paths, internal/ left out)", docName, first+n, name))
		return "", false
	}
	arrows := 0
	for i, l := range lines {
		if !strings.Contains(l, "──►") {
			continue
		}
		var prev []string
		for j, seg := range strings.Split(l, "──►") {
			var cur []string
			for _, name := range strings.Split(seg, ",") {
				if p, ok := resolve(i, strings.TrimSpace(name)); ok {
					cur = append(cur, p)
				}
			}
			if j > 0 {
				for _, to := range cur {
					for _, from := range prev {
						arrows++
						if _, ok := g[to][from]; !ok {
							problems = append(problems, fmt.Sprintf("%s:%d: the diagram draws %s ──► %s, but %s does not import %s: redraw the arrow from what it imports", docName, first+i, from, to, to, from))
						}
					}
				}
			}
			prev = cur
		}
	}
	if arrows == 0 {
		problems = append(problems, fmt.Sprintf("%s:%d: the diagram has no arrow `a ──► b` to check", docName, first))
	}
	return problems
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not two levels up: %v", err)
	}
	return root
}

func TestImportTable(t *testing.T) {
	root := moduleRoot(t)
	path := filepath.Join(root, filepath.FromSlash(docName))
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := moduleGraph(t, root)
	lines, first, err := section(doc, tableBegin, tableEnd)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		all := strings.Split(string(doc), "\n")
		b := first - 1
		out := slices.Concat(all[:b], renderTable(g), all[b+len(lines):])
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	tb, problems := parseTable(lines, first)
	problems = append(problems, tableProblems(tb, g)...)
	for _, p := range problems {
		t.Error(p)
	}
}

func TestDiagram(t *testing.T) {
	root := moduleRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(docName)))
	if err != nil {
		t.Fatal(err)
	}
	lines, first, err := section(doc, graphBegin, graphEnd)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range diagramProblems(lines, first, moduleGraph(t, root)) {
		t.Error(p)
	}
}

// The checks fail on the changes they are there for: an import added
// without its row entry, an entry whose import was removed, a new package
// without a row, and an arrow that is no import.
func TestChecksSeeDrift(t *testing.T) {
	g := graph{
		"internal/a": {},
		"internal/b": {"internal/a": {Filename: "b.go", Line: 3, Column: 2}},
	}
	tb, problems := parseTable(renderTable(g), 10)
	if len(problems) != 0 || len(tableProblems(tb, g)) != 0 {
		t.Fatalf("a table rendered from the graph does not match it: %v %v", problems, tableProblems(tb, g))
	}

	added := graph{
		"internal/a": {"internal/c": {Filename: "a.go", Line: 5, Column: 2}},
		"internal/b": g["internal/b"],
		"internal/c": {},
	}
	got := strings.Join(tableProblems(tb, added), "\n")
	for _, want := range []string{
		"a.go:5:2: internal/a imports internal/c, which docs/architecture.md:12 does not list",
		"package internal/c has no row",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}

	removed := graph{"internal/a": {}, "internal/b": {}}
	if got := strings.Join(tableProblems(tb, removed), "\n"); !strings.Contains(got, "docs/architecture.md:13: the table says internal/b imports internal/a, but it does not") {
		t.Errorf("a listed import that is gone is not reported:\n%s", got)
	}

	got = strings.Join(diagramProblems([]string{"a ──► b", "b ──► a, nowhere"}, 40, g), "\n")
	for _, want := range []string{
		"docs/architecture.md:41: the diagram draws internal/b ──► internal/a, but internal/a does not import internal/b",
		`docs/architecture.md:41: the diagram names "nowhere"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagram problems lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, ":40:") {
		t.Errorf("the true arrow a ──► b is reported:\n%s", got)
	}
}
