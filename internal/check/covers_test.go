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
