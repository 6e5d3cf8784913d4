// The corpus test is an external test package: it loads cases with the real
// loader (internal/corpus, through internal/check), which imports render.
package render_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// TestCorpus renders every case of the shared corpus (when present) and of
// the copy kept in testdata, comparing bytes, refusals and warnings.
func TestCorpus(t *testing.T) {
	corpus.RunBoth(t, "testdata/corpus", corpus.SharedRender, runCorpus)
}

func runCorpus(t *testing.T, root string) {
	cases, err := corpus.Cases(root, "")
	if err != nil {
		t.Fatal(err)
	}
	var identical, refusals int
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			kind := checkCase(t, c)
			switch kind {
			case "identical":
				identical++
			case "refusal":
				refusals++
			}
		})
	}
	t.Logf("%s: %d cases, %d rendered identically, %d refusals matched", root, len(cases), identical, refusals)
	if len(cases) == 0 {
		t.Fatalf("no cases under %s", root)
	}
}

func checkCase(t *testing.T, c corpus.Case) string {
	in, err := c.RenderInput()
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	expected := func(name string) string { return corpus.ReadTrim(c.Expected(name)) }

	// 4.13.0 refused ICSP mixed with IDMS/ITMS while editing
	// registries.conf: with its own message, or with an earlier refusal
	// (release image, validation) that the fixed 4.13.27 gives as well.
	mixIn := in
	mixIn.Version = render.Version{Minor: 13, Patch: 0}
	_, mixErr := render.Render(mixIn)
	fixedIn := in
	fixedIn.Version = render.Version{Minor: 13, Patch: 27}
	_, fixedErr := render.Render(fixedIn)
	hasMix := len(in.ICSPs) > 0 && len(in.IDMSs)+len(in.ITMSs) > 0
	mixRefused := mixErr != nil && (strings.Contains(mixErr.Error(), ": error: both imagecontentsourcepolicy and") ||
		hasMix && fixedErr != nil && fixedErr.Error() == mixErr.Error())
	if wantMix := expected("icsp-mixing.txt") == "reject"; wantMix != mixRefused {
		t.Errorf("4.13.0 mix refusal = %v (err %v), want %v", mixRefused, mixErr, wantMix)
	}

	out, err := render.Render(in)

	if want := expected("error.txt"); want != "" {
		var r *render.Refusal
		if !errors.As(err, &r) {
			t.Fatalf("want refusal %q, got err=%v", want, err)
		}
		if r.Error() != want {
			t.Fatalf("refusal:\n got %q\nwant %q", r.Error(), want)
		}
		if r.Reason != render.ReasonReleaseImage && r.Subject.Kind == "" {
			t.Errorf("refusal %q has no subject", r.Error())
		}
		return "refusal"
	}
	if err != nil {
		t.Fatalf("unexpected refusal: %v", err)
	}
	wantConf, err := os.ReadFile(c.Expected("registries.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.RegistriesConf, wantConf) {
		t.Fatalf("registries.conf differs:\n--- got\n%s\n--- want\n%s", out.RegistriesConf, wantConf)
	}
	if src := expected("registries-source.txt"); (src == "generated") != out.Generated {
		t.Errorf("Generated=%v, want source %q", out.Generated, src)
	}
	wantSearch, err := os.ReadFile(c.Expected("search-registries.conf"))
	if err != nil {
		wantSearch = nil
	}
	if !bytes.Equal(out.SearchRegistriesConf, wantSearch) {
		t.Errorf("search drop-in:\n got %q\nwant %q", out.SearchRegistriesConf, wantSearch)
	}
	var gotWarn []string
	for _, w := range out.Warnings {
		gotWarn = append(gotWarn, w.Message)
		if w.Subject.Kind != string(manifest.KindImage) {
			t.Errorf("warning %q has subject %+v", w.Message, w.Subject)
		}
	}
	wantWarn := expected("warnings.txt")
	if strings.Join(gotWarn, "\n") != wantWarn {
		t.Errorf("warnings:\n got %q\nwant %q", strings.Join(gotWarn, "\n"), wantWarn)
	}
	return "identical"
}
