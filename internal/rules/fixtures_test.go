package rules

import (
	"bufio"
	"flag"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

var update = flag.Bool("update", false, "rewrite testdata/<rule>/bad*/expected.txt from the current findings")

// lintDir lints one directory as one cluster. settings.txt in it may set
// "version 4.N[.P]" and "releaseImage REF", one per line.
func lintDir(t *testing.T, dir string) []check.Finding {
	t.Helper()
	set, err := manifest.Load([]string{dir}, manifest.Options{Unmodelled: manifest.UnmodelledImages})
	if err != nil {
		t.Fatal(err)
	}
	cl := &cluster.Cluster{Objects: set.Objects, Problems: set.Problems, Settings: readSettings(t, dir)}
	eng := newEngine(t)
	fs, _, err := eng.Lint(cl)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func readSettings(t *testing.T, dir string) cluster.Settings {
	s := cluster.Defaults()
	data, err := os.ReadFile(filepath.Join(dir, "settings.txt"))
	if err != nil {
		return s
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch k {
		case "version":
			if s.Version, err = render.ParseVersion(v); err != nil {
				t.Fatal(err)
			}
			s.VersionAssumed = false
		case "releaseImage":
			s.ReleaseImage = v
		case "featureSet":
			s.FeatureSet = v
		case "noDefaultPolicy":
			s.NoDefaultPolicy = v == "true"
		}
	}
	return s
}

// findingLines renders the findings of one rule as
// "rule severity file:line:col: message", with file relative to dir: a
// fixture pins what the user reads, not only where.
func findingLines(fs []check.Finding, rule, dir string) []string {
	var out []string
	prefix := filepath.ToSlash(dir) + "/"
	for _, f := range fs {
		if f.Rule != rule {
			continue
		}
		file := strings.TrimPrefix(filepath.ToSlash(f.File), prefix)
		// A finding without a file (a flag's value) is listed by rule alone.
		pos := manifest.Position{File: file, Line: f.Line, Column: f.Column}.String()
		out = append(out, strings.Join(strings.Fields(strings.Join([]string{f.Rule, f.Severity.String(), pos + ":", f.Message}, " ")), " "))
	}
	sort.Strings(out)
	return out
}

// message after the position ("rule file:line:col severity: message").
func readExpected(t *testing.T, path string) []string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it, then review it)", err)
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// TestFixtures proves that each rule fires exactly where its bad fixtures
// say, and stays silent on its good fixtures.
func TestFixtures(t *testing.T) {
	t.Parallel()
	for _, r := range All() {
		t.Run(r.ID, func(t *testing.T) {
			dirs, _ := filepath.Glob(filepath.Join("testdata", r.ID, "*"))
			var bad, good int
			for _, dir := range dirs {
				base := filepath.Base(dir)
				switch {
				case strings.HasPrefix(base, "bad"):
					bad++
					exp := filepath.Join(dir, "expected.txt")
					fs := lintDir(t, dir)
					if *update {
						got := findingLines(fs, r.ID, dir)
						if err := os.WriteFile(exp, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
							t.Fatal(err)
						}
						continue
					}
					want := readExpected(t, exp)
					got := findingLines(fs, r.ID, dir)
					if len(want) == 0 {
						t.Errorf("%s: expected.txt lists no finding", dir)
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s:\n got: %s\nwant: %s", dir, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
					}
				case strings.HasPrefix(base, "good"):
					good++
					if got := findingLines(lintDir(t, dir), r.ID, dir); len(got) > 0 {
						t.Errorf("%s: rule fired on a good fixture:\n%s", dir, strings.Join(got, "\n"))
					}
				}
			}
			if bad == 0 || good == 0 {
				t.Errorf("testdata/%s needs bad/ and good/ fixtures (has %d bad, %d good)", r.ID, bad, good)
			}
		})
	}
}

func TestRuleMetadata(t *testing.T) {
	t.Parallel()
	reg := Registry() // panics on duplicate ids
	if engine := len(check.ProblemRules()) + 3; len(reg.All()) != len(All())+engine {
		t.Errorf("registry has %d rules, want %d", len(reg.All()), len(All())+engine)
	}
	for _, r := range All() {
		if r.Summary == "" || strings.Contains(r.Summary, "\n") {
			t.Errorf("%s: summary must be one non-empty line", r.ID)
		}
		if len(r.Doc) < 200 {
			t.Errorf("%s: doc is too short to explain why, what the cluster does and how to fix", r.ID)
		}
		if r.Check == nil || r.Origin == "" || r.Severity == check.Off {
			t.Errorf("%s: needs a Check, an Origin and a default severity", r.ID)
		}
		file := strings.ReplaceAll(r.ID, "-", "_") + ".go"
		if _, err := os.Stat(file); err != nil {
			t.Errorf("%s: expected its own file %s", r.ID, file)
		}
	}
}
