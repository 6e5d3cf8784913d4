package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/render"
)

// The built-in library over real files: the ICSP mixing rule on every
// object, and the three opt-in organisation policies configured by data.
func TestBuiltinLibraryOnFixture(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{Builtin: true, DataFiles: []string{"testdata/data/org.yaml", "testdata/data/tags.json"}})
	fs, err := e.Evaluate(loadFixture(t, "testdata/mixed"))
	if err != nil {
		t.Fatal(err)
	}
	icsp := filepath.Join("testdata", "mixed", "icsp.yaml")
	sets := filepath.Join("testdata", "mixed", "sets.yaml")
	wants := []want{
		{"icsp-mixed-with-sets", check.Error, sets, 4, 9, "metadata.name", "1 ImageContentSourcePolicy object(s) (legacy) are used together with 2 ImageDigestMirrorSet/ImageTagMirrorSet object(s); OpenShift 4.13.0–4.13.26 refuses the mix outright (admission and MCO), later releases accept it while ImageContentSourcePolicy is deprecated. Keep one source of truth: convert the ICSPs with `mirrorlint migrate`"},
		{"mirror-registry-not-allowed", check.Error, sets, 19, 7, "spec.imageTagMirrors[0].mirrors[0]", `mirror "mirror.other.example/quay" is not on an allowed registry`},
		{"never-contact-required", check.Error, icsp, 7, 13, "spec.repositoryDigestMirrors[0].source", "an ImageContentSourcePolicy always allows contacting it"},
		{"never-contact-required", check.Error, sets, 7, 13, "spec.imageDigestMirrors[0].source", "set mirrorSourcePolicy: NeverContactSource"},
		{"tag-mirror-forbidden", check.Error, sets, 17, 13, "spec.imageTagMirrors[0].source", `tag mirrors for "quay.io" serve "quay.io/openshift-release-dev"`},
	}
	checkFindings(t, fs, wants)
	for _, f := range fs {
		if f.Rule == "icsp-mixed-with-sets" {
			if len(f.Related) != 2 || f.Related[0].Object.Name != "tags" || f.Related[0].Line != 14 ||
				f.Related[1].Object.Name != "legacy" || f.Related[1].File != icsp || f.Related[1].Line != 4 {
				t.Errorf("mixing finding should relate the other set and the ICSP: %+v", f.Related)
			}
		}
	}
}

func TestBuiltinOrgPoliciesOffWithoutData(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{Builtin: true})
	fs, err := e.Evaluate(loadFixture(t, "testdata/mixed"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if f.Rule != "icsp-mixed-with-sets" {
			t.Errorf("unexpected finding without data: %s", dump([]check.Finding{f}))
		}
	}
}

func TestICSPMixNamesAffectedTarget(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{Builtin: true})
	c := loadFixture(t, "testdata/mixed")
	v, _ := render.ParseVersion("4.13.10")
	c.Settings.Version = v
	fs, err := e.Evaluate(c)
	if err != nil || len(fs) == 0 {
		t.Fatalf("%v %v", fs, err)
	}
	if !strings.Contains(fs[0].Message, "the target release 4.13.10 refuses the mix outright") {
		t.Errorf("message does not name the target: %s", fs[0].Message)
	}
}

func TestDataFileErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files []string
		want  string
	}{
		// Placed at the key: a typo in a long data file is otherwise hard to find.
		{"unknown config key", []string{"testdata/data/typo.yaml"}, "data file testdata/data/typo.yaml:2:3: data.mirrorlint.allowed_mirror_registry: unknown key"},
		{"unknown key in JSON", []string{"testdata/data/typo.json"}, "data file testdata/data/typo.json:4:5: data.mirrorlint.never_contact_source: unknown key"},
		{"not a list", []string{"testdata/data/notlist.yaml"}, "data file testdata/data/notlist.yaml:3:30: data.mirrorlint.allowed_mirror_registries: want a list of strings"},
		{"not a string", []string{"testdata/data/notstring.yaml"}, "data file testdata/data/notstring.yaml:4:7: data.mirrorlint.never_contact_sources[1]: want a string"},
		{"conflicting files", []string{"testdata/data/org.yaml", "testdata/data/conflict.yaml"}, "data.mirrorlint.never_contact_sources is already set by testdata/data/org.yaml"},
		{"missing file", []string{"testdata/data/nope.yaml"}, "data file testdata/data/nope.yaml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(Options{Builtin: true, DataFiles: c.files})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

// The library's input holds only the kinds and members it reads
// (policies.Reads, policies.Fields), and its findings are the ones it gives
// over every object of the cluster with every member: here the mirror
// sets among ConfigMaps, a workload and a kind the loader has no type for,
// all kept whole. With a user policy the input holds everything.
func TestBuiltinInputHoldsWhatItReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"icsp.yaml", "sets.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", "mixed", f))
		if err != nil {
			t.Fatal(err)
		}
		testtree.WriteFile(t, filepath.Join(dir, f), string(data))
	}
	testtree.WriteFile(t, filepath.Join(dir, "others.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: quay.io, namespace: openshift-config}\ndata: {quay.io: x}\n---\n"+
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec: {template: {spec: {containers: [{name: a, image: quay.io/openshift-release-dev/x:1}]}}}\n---\n"+
		"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {imageDigestMirrors: [{source: quay.io, mirrors: [m.example/q]}]}\n")
	set, err := manifest.Load([]string{dir}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil || len(set.Problems) > 0 {
		t.Fatalf("%v %v", err, set.Problems)
	}
	c := check.NewContext(&cluster.Cluster{Name: "test", Objects: set.Objects, Settings: cluster.Defaults()})
	e := mustLoad(t, Options{Builtin: true, DataFiles: []string{"testdata/data/org.yaml", "testdata/data/tags.json"}})
	narrowed, err := e.Evaluate(c)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := buildInput(context.Background(), c, e.inputKinds(), e.inputFields())
	if n := v.(ast.Object).Get(ast.StringTerm("objects")).Value.(*ast.Array).Len(); n != 3 {
		t.Errorf("the library's input holds %d objects, want the 3 mirror objects", n)
	}
	if v.(ast.Object).Get(ast.StringTerm("rendered")) != nil {
		t.Error("the library's input holds the render, which no library policy reads")
	}
	whole := *e
	whole.anyKind = true // the input of a run with user policies: every object
	all, err := whole.Evaluate(c)
	if err != nil {
		t.Fatal(err)
	}
	if dump(narrowed) != dump(all) || len(all) == 0 {
		t.Errorf("over the kinds it reads:\n%s\nover every object:\n%s", dump(narrowed), dump(all))
	}
	if u := mustLoad(t, Options{Builtin: true, Dirs: []string{"testdata/policies"}}); u.inputKinds() != nil || u.inputFields() != nil {
		t.Errorf("with user policies the input is narrowed to kinds %v, members %v", u.inputKinds(), u.inputFields())
	}
}
