package render_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

// TestSignatureCorpus renders every case of the signature corpus (produced
// by MCO's own code for 4.19, 4.20 and 4.21) and of the copy in testdata:
// every expected node file byte for byte and no other, the same refusal,
// the same warnings and ImagePolicy statuses. A case whose answer depends
// on object order must produce one of the recorded answers' sets of files.
func TestSignatureCorpus(t *testing.T) {
	corpus.RunBoth(t, "testdata/signature", corpus.SharedSignature, runSignatureCorpus)
}

func runSignatureCorpus(t *testing.T, root string) {
	cases, err := corpus.Cases(root, "manifests")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no cases under %s", root)
	}
	counts := map[string]int{}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			counts[checkSignatureCase(t, c)]++
		})
	}
	t.Logf("%s: %d cases: %v", root, len(cases), counts)
}

func checkSignatureCase(t *testing.T, c corpus.Case) string {
	in, err := c.CheckInput()
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	out, err := render.Render(in.Input)
	expected := func(name string) string { return corpus.ReadTrim(c.Expected(name)) }

	if answers := expected("order-dependent.txt"); answers != "" {
		if err != nil {
			t.Fatalf("order-dependent case refused: %v", err)
		}
		got := strings.Join(nodeFileNames(out), ", ")
		if !strings.Contains(answers, "files "+got+"\n") && !strings.HasSuffix(answers, "files "+got) {
			t.Errorf("files %s are none of MCO's answers:\n%s", got, answers)
		}
		return "order-dependent"
	}

	var statuses []render.ImagePolicyStatus
	if want := expected("error.txt"); want != "" {
		var r *render.Refusal
		if !errors.As(err, &r) {
			t.Fatalf("want refusal %q, got err=%v", want, err)
		}
		if r.Error() != want {
			t.Fatalf("refusal:\n got %q\nwant %q", r.Error(), want)
		}
		if in.Object(r.Subject) == nil && r.Reason != render.ReasonReleaseImage {
			t.Errorf("refusal %q names no object of the tree (%+v)", r.Error(), r.Subject)
		}
		statuses = r.ImagePolicyStatuses
	} else {
		if err != nil {
			t.Fatalf("unexpected refusal: %v", err)
		}
		statuses = out.ImagePolicyStatuses
		compareNodeFiles(t, c, out)
		var warns []string
		for _, w := range out.Warnings {
			warns = append(warns, w.Message)
		}
		if got := strings.Join(warns, "\n"); got != expected("warnings.txt") {
			t.Errorf("warnings:\n got %q\nwant %q", got, expected("warnings.txt"))
		}
		if out.DefaultPolicy != in.DefaultPolicy {
			t.Errorf("Output.DefaultPolicy = %v, Input.DefaultPolicy = %v", out.DefaultPolicy, in.DefaultPolicy)
		}
	}
	var lines []string
	for _, s := range statuses {
		lines = append(lines, s.String())
	}
	if got := strings.Join(lines, "\n"); got != expected("imagepolicy-status.txt") {
		t.Errorf("ImagePolicy statuses:\n got %q\nwant %q", got, expected("imagepolicy-status.txt"))
	}
	if err != nil {
		return "refused"
	}
	return "rendered"
}

// nodeFiles lists what a render writes, by path relative to the case's
// expected/ directory (the layout `render -o` uses).
func nodeFiles(out *render.Output) map[string][]byte {
	files := map[string][]byte{}
	if out.Generated {
		files["registries.conf"] = out.RegistriesConf
	}
	if out.PolicyJSON != nil {
		files["policy.json"] = out.PolicyJSON
	}
	if out.SearchRegistriesConf != nil {
		files["registries.conf.d/01-image-searchRegistries.conf"] = out.SearchRegistriesConf
	}
	if out.SigstoreRegistriesYAML != nil {
		files["registries.d/sigstore-registries.yaml"] = out.SigstoreRegistriesYAML
	}
	for ns, data := range out.CRIOPolicies {
		files["crio/policies/"+ns+".json"] = data
	}
	return files
}

// nodeFileNames is how order-dependent.txt lists an answer: the node
// files with the two *-source.txt markers, sorted.
func nodeFileNames(out *render.Output) []string {
	names := []string{"policy-source.txt", "registries-source.txt"}
	for n := range nodeFiles(out) {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func compareNodeFiles(t *testing.T, c corpus.Case, out *render.Output) {
	t.Helper()
	got := nodeFiles(out)
	want := map[string][]byte{}
	root := c.Expected("")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".txt") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		want[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A file MCO did not write is the template on the node; the corpus may
	// leave it out (registries.conf) or record the template bytes.
	for name, marker := range map[string]string{"registries.conf": "registries-source.txt", "policy.json": "policy-source.txt"} {
		src := corpus.ReadTrim(c.Expected(marker))
		if _, gen := got[name]; gen != (src == "generated") {
			t.Errorf("%s generated = %v, want source %q", name, gen, src)
		}
		if src == "template" {
			if w, ok := want[name]; ok {
				tmpl := nodefiles.RegistriesConf()
				if name == "policy.json" {
					tmpl = nodefiles.PolicyJSON()
				}
				if !bytes.Equal(w, tmpl) {
					t.Errorf("%s: expected template bytes differ from the template", name)
				}
				delete(want, name)
			}
		}
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range want {
			if !yield(n) {
				return
			}
		}
		for n := range got {
			if _, ok := want[n]; !ok && !yield(n) {
				return
			}
		}
	}) {
		w, inWant := want[name]
		g, inGot := got[name]
		switch {
		case !inGot:
			t.Errorf("%s: MCO writes it, the render does not", name)
		case !inWant:
			t.Errorf("%s: the render writes it, MCO does not:\n%s", name, g)
		case !bytes.Equal(g, w):
			t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, g, w)
		}
	}
}
