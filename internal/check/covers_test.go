package check

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A rule's finding replaces, at the same place only, the findings of the
// rules it covers; elsewhere they stay.
func TestCoversDropsSamePlace(t *testing.T) {
	firstSource := &Rule{
		ID: "first-source", Severity: Error, Summary: "test rule", Covers: []string{"every-source"},
		Check: func(c *Pass) {
			for _, o := range c.Objects(manifest.KindIDMS) {
				if o.Name == "b" {
					c.Report(o, manifest.Path{"spec", "imageDigestMirrors", 0, "source"}, "first source of b")
				}
			}
		},
	}
	reg, err := NewRegistry(everySource, firstSource)
	if err != nil {
		t.Fatal(err)
	}
	cl := loadCluster(t, map[string]string{"m.yaml": twoSources})
	fs, _, err := (&Engine{Rules: reg}).Check(cl)
	if err != nil {
		t.Fatal(err)
	}
	got := byRule(fs)
	if len(got["first-source"]) != 1 || got["first-source"][0].Line != 20 {
		t.Fatalf("first-source: %+v", got["first-source"])
	}
	var lines []int
	for _, f := range got["every-source"] {
		lines = append(lines, f.Line)
	}
	// quay.io/b (line 20) is covered; a, c and d stay.
	if len(lines) != 3 || lines[0] != 11 || lines[1] != 23 || lines[2] != 25 {
		t.Errorf("every-source at lines %v, want [11 23 25]", lines)
	}
}

// A finding placed on the key holding an embedded document covers, too,
// the findings at the value inside it that it names as a related place;
// a place it does not name keeps its findings.
func TestCoversDropsRelatedPlace(t *testing.T) {
	onKey := &Rule{
		ID: "on-key", Severity: Error, Summary: "test rule", Covers: []string{"every-source"},
		Check: func(c *Pass) {
			for _, o := range c.Objects(manifest.KindIDMS) {
				if o.Name == "b" {
					f := c.Report(o, manifest.Path{"spec"}, "the first source of b, seen from its key")
					f.Related = append(f.Related, Location{Position: o.Locate(manifest.Path{"spec", "imageDigestMirrors", 0, "source"})})
				}
			}
		},
	}
	reg, err := NewRegistry(everySource, onKey)
	if err != nil {
		t.Fatal(err)
	}
	fs, _, err := (&Engine{Rules: reg}).Check(loadCluster(t, map[string]string{"m.yaml": twoSources}))
	if err != nil {
		t.Fatal(err)
	}
	got := byRule(fs)
	if len(got["on-key"]) != 1 || got["on-key"][0].Line == 20 {
		t.Fatalf("on-key: %+v", got["on-key"])
	}
	var lines []int
	for _, f := range got["every-source"] {
		lines = append(lines, f.Line)
	}
	if len(lines) != 3 || lines[0] != 11 || lines[1] != 23 || lines[2] != 25 {
		t.Errorf("every-source at lines %v, want [11 23 25]", lines)
	}
}
