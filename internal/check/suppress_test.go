package check

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

const commentedSource = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: b
spec:
  imageDigestMirrors:
  - source: quay.io/b # mirrorlint:ignore every-source vendor registry, known
    mirrors: [m.io/b]
`

// TestSuppressionUnderAnotherName: the objects name a file one way
// ("m.yaml", loaded from the working directory), the finding another (an
// absolute path, as a relocation may write it). The comment is one
// directive, used, not also an unused one under the other name.
func TestSuppressionUnderAnotherName(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte(commentedSource), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	set, err := manifest.Load([]string{"m.yaml"}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := NewRegistry(everySource, UnusedSuppressionRule, InvalidSuppressionRule)
	e := &Engine{Rules: reg, Relocate: func(_ *cluster.Cluster, fs []Finding) []Finding {
		for i := range fs {
			fs[i].File = filepath.Join(dir, "sub", "..", fs[i].File)
		}
		return fs
	}}
	fs, _, err := e.Lint(&cluster.Cluster{Objects: set.Objects, Settings: cluster.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Suppressed == nil {
		t.Errorf("findings %+v, want one, suppressed", fs)
	}
	if extra := e.Finish(); len(extra) != 0 {
		t.Errorf("Finish: %+v, want nothing", extra)
	}
}

// TestUnusedOnlyWhenEveryReaderLinted: a suppression that matched nothing
// in this run is reported unused only when every cluster reading its file
// was linted; another cluster may need it. Invalid ones are always
// reported.
func TestUnusedOnlyWhenEveryReaderLinted(t *testing.T) {
	cl := loadCluster(t, map[string]string{"m.yaml": strings.Replace(twoSources, "every-source: reviewed", "other-rule: reviewed", 1)})
	reg, _ := NewRegistry(everySource, &Rule{ID: "other-rule", Severity: Warning, Summary: "test"}, UnusedSuppressionRule, InvalidSuppressionRule)
	cfg := &config.Config{Path: ".mirrorlint.yaml", Ignore: []config.Ignore{{Rule: "other-rule", Reason: "stale"}}}
	for _, tc := range []struct {
		linted func(string) bool
		want   string
	}{
		{nil, "config:other-rule annotation:no-such-rule annotation:other-rule comment:invalid"},
		{func(string) bool { return true }, "config:other-rule annotation:no-such-rule annotation:other-rule comment:invalid"},
		{func(string) bool { return false }, "annotation:no-such-rule comment:invalid"},
		{func(f string) bool { return f != "" }, "annotation:no-such-rule annotation:other-rule comment:invalid"},
	} {
		e := &Engine{Rules: reg, Config: cfg, AllReadersLinted: tc.linted}
		if _, _, err := e.Lint(cl); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range e.Finish() {
			kind := f.Message[strings.Index(f.Message, "(")+1 : strings.Index(f.Message, ")")]
			switch {
			case f.Rule == InvalidSuppressionRule.ID:
				got = append(got, kind+":invalid")
			case strings.Contains(f.Message, "unknown rule no-such-rule"):
				got = append(got, kind+":no-such-rule")
			default:
				got = append(got, kind+":"+strings.Fields(f.Message[strings.Index(f.Message, " of ")+4:])[0])
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("got %s\nwant %s", strings.Join(got, " "), tc.want)
		}
	}
}

// TestSuppressionSourceNeverReadsADevice: a finding placed on a file that
// is a link to /dev/zero (the walk refused it, a relocation may still name
// it) is not read for suppression comments; reading it would never end.
func TestSuppressionSourceNeverReadsADevice(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte(commentedSource), 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	set, err := manifest.Load([]string{filepath.Join(dir, "m.yaml")}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := NewRegistry(everySource, UnusedSuppressionRule, InvalidSuppressionRule)
	var asked []string
	e := &Engine{Rules: reg,
		Source: func(file string) ([]byte, error) { asked = append(asked, file); return os.ReadFile(file) },
		Relocate: func(_ *cluster.Cluster, fs []Finding) []Finding {
			for i := range fs {
				fs[i].File = zero
			}
			return fs
		}}
	fs, _, err := e.Lint(&cluster.Cluster{Objects: set.Objects, Settings: cluster.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range asked {
		if f == zero {
			t.Fatalf("the suppression step asked for %s", zero)
		}
	}
	if len(fs) != 1 || fs[0].Suppressed != nil {
		t.Errorf("findings %+v, want one, not suppressed (the comment is not in the file it was placed on)", fs)
	}
}

// TestPreparedClustersSettleAlike: clusters whose files' names Prepare
// resolved beforehand, for all of them at once, settle to exactly the
// findings and the unused suppressions of an engine that resolves each
// name as it meets it; the files are read through a linked directory, so
// a name's resolution is what matches a comment to its finding.
func TestPreparedClustersSettleAlike(t *testing.T) {
	dir := t.TempDir()
	var clusters []*cluster.Cluster
	for i := range 4 {
		sub := filepath.Join(dir, "real", strings.Repeat("d", i+1))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		text := commentedSource + "---\n" + strings.Replace(commentedSource, "name: b", "name: c", 1)
		if i%2 == 1 {
			text = strings.ReplaceAll(text, " # mirrorlint:ignore every-source vendor registry, known", "")
		}
		if err := os.WriteFile(filepath.Join(sub, "m.yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("real", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		set, err := manifest.Load([]string{filepath.Join(dir, "link", strings.Repeat("d", i+1))}, manifest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		clusters = append(clusters, &cluster.Cluster{Objects: set.Objects, Settings: cluster.Defaults()})
	}
	reg, _ := NewRegistry(everySource, UnusedSuppressionRule, InvalidSuppressionRule)
	settle := func(prepare bool) []Finding {
		e := &Engine{Rules: reg}
		if prepare {
			done := make(chan struct{})
			for _, cl := range clusters {
				go func() { e.Prepare(cl); done <- struct{}{} }()
			}
			for range clusters {
				<-done
			}
			for _, cl := range clusters {
				for _, o := range cl.Objects {
					if c, ok := e.sup.canon.Load(o.File); !ok || !strings.Contains(c.(string), "/real/") {
						t.Fatalf("%s: not prepared to its real name (%v)", o.File, c)
					}
				}
			}
		}
		var all []Finding
		for _, cl := range clusters {
			fs, _, err := e.Lint(cl)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, fs...)
		}
		return append(all, e.Finish()...)
	}
	want, got := settle(false), settle(true)
	if suppressed := len(want) - len(slices.DeleteFunc(slices.Clone(want), func(f Finding) bool { return f.Suppressed != nil })); suppressed == 0 {
		t.Fatal("no finding was suppressed: the test compares nothing")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("prepared:\n%+v\nas met:\n%+v", got, want)
	}
}
