package migrate

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// roots hold manifest trees with ICSPs: this project's testdata, then the
// shared corpus when it is there.
var roots = []string{
	"testdata",
	"../render/testdata",
	"../drain/testdata",
	"../impact/testdata",
	corpus.SharedRender,
	corpus.SharedDrain,
}

// TestRoundTrip migrates every tree holding an ICSP in place (in a copy)
// and checks that the nodes get byte-identical registries.conf and drop-in.
func TestRoundTrip(t *testing.T) {
	cases := 0
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			t.Logf("skipping %s: %v", root, err)
			continue
		}
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() || !hasICSP(path) {
				return nil
			}
			cases++
			t.Run(path, func(t *testing.T) { roundTrip(t, path) })
			return fs.SkipDir
		})
	}
	t.Logf("%d trees with ICSPs migrated", cases)
	if cases == 0 {
		t.Fatal("no ICSP case found")
	}
}

// hasICSP reports whether dir (a manifests tree, not a case directory) has
// an ICSP directly in a file of its own level or below, and no
// subdirectory that is itself a case (with expected/).
func hasICSP(dir string) bool {
	if filepath.Base(dir) != "manifests" && filepath.Base(dir) != "testdata" {
		return false
	}
	set, err := manifest.Load([]string{dir}, manifest.Options{})
	if err != nil {
		return false
	}
	for _, o := range set.Objects {
		if o.Known && o.Kind == manifest.KindICSP {
			return filepath.Base(dir) == "manifests" || dir == "testdata"
		}
	}
	return false
}

func roundTrip(t *testing.T, dir string) {
	release := corpus.ReadTrim(filepath.Dir(dir), "release-image.txt")
	work := filepath.Join(t.TempDir(), "m")
	if err := os.CopyFS(work, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	before := renderTree(t, work, release)

	set, err := manifest.Load([]string{work}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	seen := map[string]bool{}
	for _, o := range set.Objects {
		if o.Known && o.Kind == manifest.KindICSP && !seen[o.File] {
			seen[o.File] = true
			files = append(files, o.File)
		}
	}
	cs, err := Plan(files, Options{InPlace: true})
	var re *RefusedError
	if errors.As(err, &re) {
		// migrate refuses what the API server would refuse in an IDMS;
		// MCO 4.16+ (the default version here) refuses the same values
		// in an ICSP, so such a tree never rendered.
		if before.refused == "" {
			t.Errorf("migrate refuses a tree MCO renders: %v", err)
		}
		t.Logf("refused by migrate: %v", err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	unpinned := false
	for _, c := range cs {
		unpinned = unpinned || len(c.Notes) > 0
	}
	if err := Apply(cs, false); err != nil {
		t.Fatal(err)
	}
	after := renderTree(t, work, release)
	if before.refused != "" {
		// A refusal of the ICSP/IDMS mix is what migrating fixes; any
		// other refusal must survive the migration unchanged (an empty
		// after.refused is a change too: the migration lost the bad entry).
		mix := strings.Contains(before.refused, "error: both imagecontentsourcepolicy and")
		// Removing tags and digests fixes what MCO refused them for.
		if after.refused != before.refused && !((mix || unpinned) && after.refused == "") {
			t.Errorf("refusal changed:\n%s\n%s", before.refused, after.refused)
		}
		t.Logf("refused before migration: %s", before.refused)
		return
	}
	if after.refused != "" {
		t.Fatalf("refused after migration: %s", after.refused)
	}
	if !bytes.Equal(before.conf, after.conf) || !bytes.Equal(before.dropIn, after.dropIn) {
		t.Fatalf("render differs after migration:\n%s\n---\n%s", before.conf, after.conf)
	}
	left, _ := manifest.Load([]string{work}, manifest.Options{})
	for _, o := range left.Objects {
		if o.Kind == manifest.KindICSP && o.Known {
			t.Errorf("ICSP %s left in %s", o.Name, o.File)
		}
	}
}

type rendered struct {
	conf, dropIn []byte
	refused      string
}

func renderTree(t *testing.T, dir, release string) rendered {
	t.Helper()
	p, err := project.Open(project.Options{Paths: []string{dir}, ConfigPath: "none", ReleaseImage: release})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Set.Problems) > 0 {
		t.Skipf("tree does not load cleanly: %v", p.Set.Problems[0])
	}
	r := project.Render(p.Clusters[0])
	if r.Refusal != nil {
		return rendered{refused: r.Refusal.Error()}
	}
	return rendered{conf: r.Output.RegistriesConf, dropIn: r.Output.SearchRegistriesConf}
}
