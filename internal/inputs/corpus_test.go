package inputs

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

var sharedInputs = corpus.SharedRoot + "/corpus/public/inputs"

// caseKinds reads index.json: case name → builder kind.
func caseKinds(t *testing.T, root string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "index.json"))
	if err != nil {
		t.Skipf("inputs corpus not present: %v", err)
	}
	var idx []struct{ Case, Kind string }
	if err := json.Unmarshal(b, &idx); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range idx {
		out[e.Case] = e.Kind
	}
	return out
}

func readCase(t *testing.T, c corpus.Case) *Result {
	t.Helper()
	set, err := manifest.Load([]string{filepath.Join(c.Dir, "manifests")}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	return Read(set.Objects, render.Version{})
}

var findingLine = regexp.MustCompile(`^(manifests/\S+?):(\d+): `)

// TestCorpus holds every case of the inputs corpus: each expected finding
// at its file:line as an error or warning and no other error or warning,
// the objects the component creates byte for byte, the nodes' and the
// bootstrap node's registries.conf. The additionalTrustedCA cases (kind
// ca_*) are registry-CA inputs, tested with the Image/cluster CA files.
func TestCorpus(t *testing.T) {
	kinds := caseKinds(t, sharedInputs)
	cases, err := corpus.Cases(sharedInputs, "expected/findings.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if strings.HasPrefix(kinds[c.Name], "ca_") {
				t.Skip("additionalTrustedCA case: registry CAs are not read here")
			}
			res := readCase(t, c)
			checkFindings(t, c, res)
			checkObjects(t, c, res)
		})
	}
}

func checkFindings(t *testing.T, c corpus.Case, res *Result) {
	t.Helper()
	var want []string
	b, _ := os.ReadFile(c.Expected("findings.txt"))
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if m := findingLine.FindStringSubmatch(l); m != nil {
			want = append(want, m[1]+":"+m[2])
		}
	}
	var got []string
	for _, f := range res.Findings {
		if f.Severity < check.Warning {
			continue
		}
		rel, err := filepath.Rel(c.Dir, f.Pos.File)
		if err != nil {
			rel = f.Pos.File
		}
		got = append(got, filepath.ToSlash(rel)+":"+strconv.Itoa(f.Pos.Line))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		var msgs []string
		for _, f := range res.Findings {
			msgs = append(msgs, f.String())
		}
		t.Errorf("findings at %v, want %v\n%s", got, want, strings.Join(msgs, "\n"))
	}
}

// created is the one cluster of a case that creates objects.
func created(t *testing.T, res *Result) *Cluster {
	t.Helper()
	var out []*Cluster
	for _, c := range res.Clusters {
		if !c.Refused {
			out = append(out, c)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d clusters created, want 1", len(out))
	}
	return out[0]
}

func checkObjects(t *testing.T, c corpus.Case, res *Result) {
	t.Helper()
	want, err := os.ReadFile(c.Expected("objects.yaml"))
	if err != nil {
		// Refused before any object exists, or the ICSPs of
		// imageContentSources, which the corpus leaves unconfirmed (its
		// README): those it does not judge, an IDMS it would have.
		for _, cl := range res.Clusters {
			if !cl.Refused && len(cl.IDMSs) > 0 {
				t.Errorf("cluster %s creates an ImageDigestMirrorSet; the case expects no object", cl.Name)
			}
		}
		return
	}
	cl := created(t, res)
	got, err := cl.ObjectsYAML()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("objects.yaml:\n%s\nwant:\n%s", got, want)
	}
	if wantConf, err := os.ReadFile(c.Expected("registries.conf")); err == nil {
		out, err := render.Render(cl.RenderInput(corpus.CorpusVersion))
		if err != nil {
			t.Fatalf("render: %v", err)
		}
		if !bytes.Equal(out.RegistriesConf, wantConf) {
			t.Errorf("registries.conf:\n%s\nwant:\n%s", out.RegistriesConf, wantConf)
		}
	}
	if wantBoot, err := os.ReadFile(c.Expected("bootstrap-registries.conf")); err == nil {
		if !bytes.Equal(cl.Bootstrap, wantBoot) {
			t.Errorf("bootstrap registries.conf:\n%q\nwant:\n%q", cl.Bootstrap, wantBoot)
		}
	}
}
