package pipeline

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The findings kept for the files given: those in them, and those
// elsewhere that name a place in them, unless such a finding is the other
// side of one in them (each of two copies reported with the other
// related): a finding about a file not given that only repeats one about
// the given file is dropped.
func TestFilterKeepsOneSideOfAPair(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{"int/a.yaml": "", "prod/a.yaml": "", "other/b.yaml": ""})
	given, prod, other := filepath.Join(dir, "int/a.yaml"), filepath.Join(dir, "prod/a.yaml"), filepath.Join(dir, "other/b.yaml")
	pos := func(file string, line int) manifest.Position {
		return manifest.Position{File: file, Line: line, Column: 9}
	}
	finding := func(rule string, at manifest.Position, related ...manifest.Position) check.Finding {
		f := check.Finding{Rule: rule, Position: at}
		for _, r := range related {
			f.Related = append(f.Related, check.Location{Position: r})
		}
		return f
	}
	fs := []check.Finding{
		finding("duplicate-object", pos(given, 4), pos(prod, 4)),
		finding("duplicate-object", pos(prod, 4), pos(given, 4)), // the other side: dropped
		finding("mirror-order-conflict", pos(prod, 9), pos(given, 9)),
		finding("duplicate-object", pos(other, 4), pos(given, 4)), // the given one does not name it back
		finding("repository-lowercase", pos(prod, 10)),
	}
	sc := &scope{only: []string{manifest.RealPath(given)}}
	var got []string
	for _, f := range sc.filter(fs) {
		rel, _ := filepath.Rel(dir, f.File)
		got = append(got, f.Rule+" "+filepath.ToSlash(rel))
	}
	want := []string{"duplicate-object int/a.yaml", "mirror-order-conflict prod/a.yaml", "duplicate-object other/b.yaml"}
	if !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}
