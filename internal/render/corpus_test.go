package render

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sharedCorpus = "../../../shared/corpus/public/render"

// TestCorpus renders every case of the shared corpus (when present) and of
// the copy kept in testdata, comparing bytes, refusals and warnings.
func TestCorpus(t *testing.T) {
	t.Run("testdata", func(t *testing.T) { runCorpus(t, "testdata/corpus") })
	t.Run("shared", func(t *testing.T) {
		if _, err := os.Stat(sharedCorpus); err != nil {
			t.Skipf("shared corpus not available at %s: %v", sharedCorpus, err)
		}
		runCorpus(t, sharedCorpus)
	})
}

func runCorpus(t *testing.T, root string) {
	cases, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var identical, refusals, n int
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		n++
		dir := filepath.Join(root, c.Name())
		t.Run(c.Name(), func(t *testing.T) {
			kind := checkCase(t, dir)
			switch kind {
			case "identical":
				identical++
			case "refusal":
				refusals++
			}
		})
	}
	t.Logf("%s: %d cases, %d rendered identically, %d refusals matched", root, n, identical, refusals)
	if n == 0 {
		t.Fatalf("no cases under %s", root)
	}
}

func checkCase(t *testing.T, dir string) string {
	in, err := loadTree(filepath.Join(dir, "manifests"))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	in.ReleaseImage = readTrim(filepath.Join(dir, "release-image.txt"))
	exp := filepath.Join(dir, "expected")

	// 4.13.0 refused ICSP mixed with IDMS/ITMS before anything else.
	mixIn := in
	mixIn.Version = Version{Minor: 13, Patch: 0}
	_, mixErr := Render(mixIn)
	mixRefused := mixErr != nil && strings.HasPrefix(mixErr.Error(), "error: both imagecontentsourcepolicy and")
	if wantMix := readTrim(filepath.Join(exp, "icsp-mixing.txt")) == "reject"; wantMix != mixRefused {
		t.Errorf("4.13.0 mix refusal = %v (err %v), want %v", mixRefused, mixErr, wantMix)
	}

	out, err := Render(in)

	if want := readTrim(filepath.Join(exp, "error.txt")); want != "" {
		var r *Refusal
		if !errors.As(err, &r) {
			t.Fatalf("want refusal %q, got err=%v", want, err)
		}
		if r.Error() != want {
			t.Fatalf("refusal:\n got %q\nwant %q", r.Error(), want)
		}
		if r.Reason != ReasonReleaseImage && r.Subject.Kind == "" {
			t.Errorf("refusal %q has no subject", r.Error())
		}
		return "refusal"
	}
	if err != nil {
		t.Fatalf("unexpected refusal: %v", err)
	}
	wantConf, err := os.ReadFile(filepath.Join(exp, "registries.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.RegistriesConf, wantConf) {
		t.Fatalf("registries.conf differs:\n--- got\n%s\n--- want\n%s", out.RegistriesConf, wantConf)
	}
	if src := readTrim(filepath.Join(exp, "registries-source.txt")); (src == "generated") != out.Generated {
		t.Errorf("Generated=%v, want source %q", out.Generated, src)
	}
	wantSearch, err := os.ReadFile(filepath.Join(exp, "search-registries.conf"))
	if err != nil {
		wantSearch = nil
	}
	if !bytes.Equal(out.SearchRegistriesConf, wantSearch) {
		t.Errorf("search drop-in:\n got %q\nwant %q", out.SearchRegistriesConf, wantSearch)
	}
	var gotWarn []string
	for _, w := range out.Warnings {
		gotWarn = append(gotWarn, w.Message)
		if w.Subject.Kind != kindImage {
			t.Errorf("warning %q has subject %+v", w.Message, w.Subject)
		}
	}
	wantWarn := readTrim(filepath.Join(exp, "warnings.txt"))
	if strings.Join(gotWarn, "\n") != wantWarn {
		t.Errorf("warnings:\n got %q\nwant %q", strings.Join(gotWarn, "\n"), wantWarn)
	}
	return "identical"
}
