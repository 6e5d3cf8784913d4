package migrate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
)

const pinnedICSP = `apiVersion: operator.openshift.io/v1alpha1
kind: ImageContentSourcePolicy
metadata:
  name: redhat-operators
spec:
  repositoryDigestMirrors:
  - mirrors:
    - registry.test:5000/ubi8/ubi
    source: registry.redhat.io/ubi8/ubi@sha256:1111111111111111111111111111111111111111111111111111111111111111
  - mirrors:
    - registry.test:5000/openshift4/ose-cli
    source: registry.redhat.io/openshift4/ose-cli:v4.4
  - mirrors:
    - registry.test:5000/ubi8/ubi
    source: registry.redhat.io/ubi8/ubi@sha256:2222222222222222222222222222222222222222222222222222222222222222
  - mirrors:
    - other.test:5000/ubi8/ubi@sha256:3333333333333333333333333333333333333333333333333333333333333333
    source: registry.redhat.io/ubi8/ubi
`

// What the API server accepts, checked by hand: no tag or digest is left,
// the three ubi entries are one, with the mirror order MCO gives their
// three lists (unrelated one-mirror lists: alphabetical).
const pinnedIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: redhat-operators
spec:
  imageDigestMirrors:
  - source: registry.redhat.io/ubi8/ubi
    mirrors:
    - other.test:5000/ubi8/ubi
    - registry.test:5000/ubi8/ubi
  - source: registry.redhat.io/openshift4/ose-cli
    mirrors:
    - registry.test:5000/openshift4/ose-cli
`

// Tags and digests are removed and the entries that then share a source
// merged; the note says so.
func TestPinnedSourcesAreUnpinnedAndMerged(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "icsp.yaml")
	if err := os.WriteFile(in, []byte(pinnedICSP), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := Plan([]string{in}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || string(cs[0].New) != pinnedIDMS {
		t.Fatalf("got:\n%s\nwant:\n%s", cs[0].New, pinnedIDMS)
	}
	want := "ImageContentSourcePolicy redhat-operators: removed the tag or digest from 3 sources and 1 mirror — the API server refuses them in an ImageDigestMirrorSet, whose entries name whole repositories; 2 entries then named a source already listed and were merged into it (mirrors in the order MCO renders them), leaving 2 entries"
	if len(cs[0].Notes) != 1 || cs[0].Notes[0] != want {
		t.Fatalf("notes %q\nwant %q", cs[0].Notes, want)
	}
}

// What no rewriting can fix is refused, at the value, and nothing is
// planned.
func TestRefusedIDMSIsNotWritten(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "icsp.yaml")
	icsp := strings.Replace(pinnedICSP, "registry.redhat.io/openshift4/ose-cli:v4.4", "registry.redhat.io/OpenShift4/ose-cli", 1)
	if err := os.WriteFile(in, []byte(icsp), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := Plan([]string{in}, Options{InPlace: true})
	var re *RefusedError
	if !errors.As(err, &re) || len(cs) != 0 || !strings.HasPrefix(err.Error(), in+":12:13: ImageContentSourcePolicy redhat-operators cannot become an ImageDigestMirrorSet the API server accepts: spec.imageDigestMirrors[1].source: Invalid value: \"registry.redhat.io/OpenShift4/ose-cli\"") {
		t.Fatalf("changes %v, error %v", cs, err)
	}
}

// The real-world ICSP of 485 digest-pinned entries (old `oc adm catalog
// mirror` output, refused by MCO and by the IDMS schema) migrates to one the
// API server accepts, one entry per repository; its fixed successor, with
// plain sources and exact duplicates, migrates unchanged in content.
func TestRealWorldPinnedICSP(t *testing.T) {
	root := filepath.Join(corpus.SharedRoot, "realworld")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("real-world trees not available: %v", err)
	}
	for _, tc := range []struct {
		id      string
		entries int
		note    string
	}{
		{"055", 256, "removed the tag or digest from 485 sources — the API server"},
		{"054", 630, ""},
	} {
		t.Run(tc.id, func(t *testing.T) {
			cs, err := Plan([]string{filepath.Join(root, tc.id, "imageContentSourcePolicy.yaml")}, Options{OutDir: t.TempDir()})
			if err != nil || len(cs) != 1 {
				t.Fatalf("changes %d, error %v", len(cs), err)
			}
			note := strings.Join(cs[0].Notes, "\n")
			if tc.note == "" && note != "" || !strings.Contains(note, tc.note) {
				t.Errorf("notes %q, want %q", note, tc.note)
			}
			set, err := manifest.LoadReader("idms.yaml", strings.NewReader(string(cs[0].New)), manifest.Options{})
			if err != nil || len(set.Objects) != 1 || set.Objects[0].IDMS == nil {
				t.Fatalf("output does not load as one IDMS: %v %v", err, set.Problems)
			}
			o := set.Objects[0]
			if errs := schema.Validate("ImageDigestMirrorSet", o.Content); len(errs) != 0 {
				t.Errorf("the API server would refuse the output: %v", errs[0])
			}
			if n := len(o.IDMS.Spec.ImageDigestMirrors); n != tc.entries {
				t.Errorf("%d entries, want %d", n, tc.entries)
			}
			// The merged entries render as the separate, unpinned entries
			// would have: the same registries.conf.
			data, err := os.ReadFile(filepath.Join(root, tc.id, "imageContentSourcePolicy.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			unpinned := regexp.MustCompile(`@sha256:[0-9a-f]{64}`).ReplaceAll(data, nil)
			a, b := filepath.Join(t.TempDir(), "icsp"), filepath.Join(t.TempDir(), "idms")
			for dir, body := range map[string][]byte{a: unpinned, b: cs[0].New} {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "m.yaml"), body, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before, after := renderTree(t, a, ""), renderTree(t, b, "")
			if before.refused != "" || after.refused != "" || !bytes.Equal(before.conf, after.conf) {
				t.Errorf("render of the migration differs from the unpinned ICSP's (refused %q / %q)", before.refused, after.refused)
			}
		})
	}
}
