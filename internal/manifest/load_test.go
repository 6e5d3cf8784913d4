package manifest

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

type locCase struct {
	path string
	key  bool // LocateKey instead of Locate
	want string
}

func checkLocs(t *testing.T, o *Object, cases []locCase) {
	t.Helper()
	for _, c := range cases {
		var got Position
		if c.key {
			got = o.LocateKey(ParsePath(c.path))
		} else {
			got = o.Locate(ParsePath(c.path))
		}
		if span(got) != c.want || got.File != o.File {
			t.Errorf("%s: Locate(%s) key=%v = %s (%s), want %s", o.Ref(), c.path, c.key, span(got), got.File, c.want)
		}
	}
}

var multiIDMSLocs = []locCase{
	{"", false, "7:1-16:34"},
	{"metadata.name", false, "10:9-10:14"},
	{"spec.imageDigestMirrors[0].source", false, "13:13-13:22"},
	{"spec.imageDigestMirrors[0].mirrors[0]", false, "15:7-15:27"},
	{"spec.imageDigestMirrors[0].mirrors[1]", false, "16:7-16:34"},
	{"spec.imageDigestMirrors", true, "12:3-12:21"},
	{"spec.imageDigestMirrors[0].mirrors", true, "14:5-14:12"},
	// Missing paths: the deepest part that exists.
	{"spec.nothing", false, "11:1-11:5"},
	{"metadata.namespace", false, "9:1-9:9"},
	{"spec.imageDigestMirrors[0].mirrorSourcePolicy", false, "13:5-16:34"},
	{"spec.imageDigestMirrors[7]", false, "13:3-16:34"},
	{"spec.imageDigestMirrors[0].mirrors[1].deeper", false, "16:7-16:34"},
}

var multiITMSLocs = []locCase{
	{"", false, "21:1-29:45"},
	{"spec.imageTagMirrors[0].source", false, "27:15-27:30"},
	{"spec.imageTagMirrors[0].mirrors[1]", false, "28:34-28:49"},
	{"spec.imageTagMirrors[0].mirrorSourcePolicy", false, "29:27-29:45"},
}

func TestPositionsAcrossDocuments(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/positions/multi.yaml"}, Options{})
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	if len(s.Objects) != 2 {
		t.Fatalf("objects: %v", refs(s))
	}
	idms, itms := s.Objects[0], s.Objects[1]
	if idms.Ref() != "ImageDigestMirrorSet/first" || idms.Doc != 1 || idms.Item != -1 || idms.File != "testdata/positions/multi.yaml" {
		t.Errorf("idms: %s doc %d item %d file %s", idms.Ref(), idms.Doc, idms.Item, idms.File)
	}
	// Two empty documents sit between them and count as documents.
	if itms.Ref() != "ImageTagMirrorSet/second" || itms.Doc != 4 {
		t.Errorf("itms: %s doc %d", itms.Ref(), itms.Doc)
	}
	checkLocs(t, idms, multiIDMSLocs)
	checkLocs(t, itms, multiITMSLocs)
	if got := itms.ITMS.Spec.ImageTagMirrors[0].Source; got != "quay.io/it's" {
		t.Errorf("source %q", got)
	}
}

// BOM and CRLF must not move any position.
func TestPositionsBOMAndCRLF(t *testing.T) {
	t.Parallel()
	src := readFixture(t, "testdata/positions/multi.yaml")
	dir := t.TempDir()
	variants := map[string]string{
		"bom.yaml":      "\ufeff" + src,
		"crlf.yaml":     strings.ReplaceAll(src, "\n", "\r\n"),
		"bom-crlf.yaml": "\ufeff" + strings.ReplaceAll(src, "\n", "\r\n"),
	}
	for name, content := range variants {
		testtree.WriteFile(t, filepath.Join(dir, name), content)
	}
	s := mustLoad(t, []string{dir}, Options{})
	if len(s.Problems) != 0 || len(s.Objects) != 6 {
		t.Fatalf("problems %v objects %v", s.Problems, refs(s))
	}
	for _, o := range s.Objects {
		switch o.Kind {
		case KindIDMS:
			checkLocs(t, o, multiIDMSLocs)
		case KindITMS:
			checkLocs(t, o, multiITMSLocs)
		}
	}
}

func TestPositionsInLists(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/positions/list.yaml"}, Options{})
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	got := refs(s)
	want := []string{
		"ImageContentSourcePolicy/in-list@testdata/positions/list.yaml:8",
		"ImageDigestMirrorSet/typed-0@testdata/positions/list.yaml:21",
		"ImageDigestMirrorSet/typed-1@testdata/positions/list.yaml:27",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
	icsp, typed0 := s.Objects[0], s.Objects[1]
	if icsp.Doc != 0 || icsp.Item != 1 || !icsp.Known {
		t.Errorf("icsp doc %d item %d known %v", icsp.Doc, icsp.Item, icsp.Known)
	}
	checkLocs(t, icsp, []locCase{{"spec.repositoryDigestMirrors[0].source", false, "14:15-14:24"}})
	// Typed list items inherit apiVersion and kind from the list.
	if typed0.Doc != 1 || typed0.Item != 0 || !typed0.Known || typed0.APIVersion != "config.openshift.io/v1" || typed0.IDMS == nil {
		t.Fatalf("typed-0: %+v", typed0)
	}
	if typed0.IDMS.Kind != "ImageDigestMirrorSet" || typed0.Content["kind"] != "ImageDigestMirrorSet" {
		t.Errorf("typed-0 TypeMeta not filled: %v / %v", typed0.IDMS.TypeMeta, typed0.Content["kind"])
	}
	checkLocs(t, typed0, []locCase{{"spec.imageDigestMirrors[0].mirrors[0]", false, "26:17-26:32"}})
}

func TestPositionsInJSON(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/positions/image.json"}, Options{})
	if len(s.Problems) != 0 || len(s.Objects) != 1 {
		t.Fatalf("problems %v objects %v", s.Problems, refs(s))
	}
	o := s.Objects[0]
	if !o.Known || o.Image == nil || o.Image.Spec.RegistrySources.BlockedRegistries[1] != "b2.example.com" {
		t.Fatalf("image not decoded: %+v", o.Image)
	}
	checkLocs(t, o, []locCase{
		{"metadata.name", false, "4:23-4:32"},
		{"spec.registrySources.blockedRegistries[1]", false, "8:49-8:65"},
		{"spec.registrySources.blockedRegistries", true, "8:4-8:23"},
	})
}

func TestKnownKinds(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/kinds/all.yaml"}, Options{})
	if len(s.Problems) != 0 || len(s.Objects) != 5 {
		t.Fatalf("problems %v objects %v", s.Problems, refs(s))
	}
	for _, o := range s.Objects {
		if !o.Known || o.Content == nil || o.Node == nil {
			t.Errorf("%s: known %v content %v", o.Ref(), o.Known, o.Content != nil)
		}
		set := 0
		for _, p := range []bool{o.ICSP != nil, o.IDMS != nil, o.ITMS != nil, o.Image != nil, o.MachineConfig != nil} {
			if p {
				set++
			}
		}
		if set != 1 {
			t.Errorf("%s: %d typed pointers set", o.Ref(), set)
		}
	}
	if got := s.Objects[0].ICSP.Spec.RepositoryDigestMirrors[0].Mirrors[0]; got != "m.example.com/a" {
		t.Errorf("icsp mirror %q", got)
	}
	if got := s.Objects[1].IDMS.Spec.ImageDigestMirrors[0].MirrorSourcePolicy; got != "AllowContactingSource" {
		t.Errorf("idms policy %q", got)
	}
	if got := s.Objects[2].ITMS.Spec.ImageTagMirrors[0].Source; got != "quay.io/c" {
		t.Errorf("itms source %q", got)
	}
	if got := s.Objects[3].Image.Spec.RegistrySources.ContainerRuntimeSearchRegistries; len(got) != 1 || got[0] != "registry.example.com" {
		t.Errorf("image search %v", got)
	}
	mc := s.Objects[4].MachineConfig
	if mc.Name != "99-worker-registries" || !strings.Contains(string(mc.Spec.Config.Raw), "registries.conf") {
		t.Errorf("machineconfig %s %s", mc.Name, mc.Spec.Config.Raw)
	}
	// Content is JSON-compatible plain data: mode 420 is an int.
	files := s.Objects[4].Content["spec"].(map[string]any)["config"].(map[string]any)["storage"].(map[string]any)["files"].([]any)
	if m := files[0].(map[string]any)["mode"]; m != 420 {
		t.Errorf("mode %#v", m)
	}
}

func TestWrongAPIVersion(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/kinds/wrong.yaml"}, Options{})
	if len(s.Problems) != 0 {
		t.Fatalf("problems %v", s.Problems)
	}
	want := []string{"ImageDigestMirrorSet/wrong-group", "Image/wrong-version", "ImageTagMirrorSet/core-group"}
	if len(s.Objects) != len(want) {
		t.Fatalf("objects %v", refs(s))
	}
	for i, o := range s.Objects {
		if o.Ref() != want[i] || o.Known || o.Content == nil || o.Node == nil ||
			o.ICSP != nil || o.IDMS != nil || o.ITMS != nil || o.Image != nil || o.MachineConfig != nil {
			t.Errorf("object %d: %s known %v content %v", i, o.Ref(), o.Known, o.Content)
		}
	}
	if s.Objects[0].APIVersion != "operator.openshift.io/v1alpha1" {
		t.Errorf("apiVersion %q", s.Objects[0].APIVersion)
	}
}

func TestDecodeError(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/kinds/typeerror.yaml"}, Options{})
	ps := problemsWith(s, "decode-error")
	if len(ps) != 1 {
		t.Fatalf("problems %v", s.Problems)
	}
	p := ps[0]
	// Placed at the offending value, worded without Go type names.
	if span(p.Pos) != "7:5-7:28" || p.Pos.File != "testdata/kinds/typeerror.yaml" ||
		p.Message != "Image/cluster: spec.additionalTrustedCA: expected an object (key: value fields), found a list" {
		t.Errorf("problem %v", p)
	}
	// Still returned for rules (with Content), but not as Known.
	if len(s.Objects) != 1 || s.Objects[0].Known || s.Objects[0].Image != nil || s.Objects[0].Content == nil || s.Objects[0].DecodeError != p.Message {
		t.Errorf("objects %v", refs(s))
	}
}

// Type errors name the path with indexes, point at the value, and recognise
// values left by an unrendered template.
func TestDecodeErrorWording(t *testing.T) {
	t.Parallel()
	cases := []struct{ file, pos, msg string }{
		{"nested.yaml", "10:14-10:27", `ImageDigestMirrorSet/nested: spec.imageDigestMirrors[1].mirrors: expected a list, found a string ("${MIRROR_B}") — it looks like an unrendered template placeholder: render the template before linting`},
		{"nested.yaml", "18:14-18:17", `ImageTagMirrorSet/labels: metadata.labels.enabled: expected a string, found a boolean (yes) — quote it ("yes") to make it a string`},
		{"nested.yaml", "24:8-24:12", `ImageDigestMirrorSet/uid: metadata.uid: expected a string, found a number (1234) — quote it ("1234") to make it a string`},
		{"nested.yaml", "33:5-33:15", `ImageDigestMirrorSet/list-in-list: spec.imageDigestMirrors[1]: expected an object (key: value fields), found a list`},
		{"placeholder-list.yaml", "7:30-7:38", `ImageContentSourcePolicy/disconnected-internal-icsp: spec.repositoryDigestMirrors: expected a list, found a string ("$mirrors") — it looks like an unrendered template placeholder: render the template before linting`},
		// Every type error of an object, in file order, each at its value;
		// the quote hint only where quoting gives a valid value.
		{"several.yaml", "8:14-8:25", `ImageDigestMirrorSet/several: spec.imageDigestMirrors[0].mirrors: expected a list, found a string ("m.example/a")`},
		{"several.yaml", "9:25-9:26", `ImageDigestMirrorSet/several: spec.imageDigestMirrors[0].mirrorSourcePolicy: expected one of NeverContactSource, AllowContactingSource, found a number (5)`},
		{"several.yaml", "11:28-11:29", `ImageDigestMirrorSet/several: spec.imageDigestMirrors[1].mirrors[1]: expected a string, found a number (5) — quote it ("5") to make it a string`},
		{"several.yaml", "17:20-17:24", `Image/cluster: metadata.resourceVersion: expected a string, found a number (4.10) — quote it ("4.10") to make it a string`},
		{"several.yaml", "19:26-19:30", `Image/cluster: spec.imageStreamImportMode: expected one of Legacy, PreserveOriginal, found a boolean (true)`},
		// A field's own parser aborts json without a place: it is found,
		// and the errors after it are still reported.
		{"timestamp.yaml", "5:22-5:30", `ImageDigestMirrorSet/ts: metadata.creationTimestamp: invalid value: parsing time "notadate" as "2006-01-02T15:04:05Z07:00": cannot parse "notadate" as "2006"`},
		{"timestamp.yaml", "6:8-6:10", `ImageDigestMirrorSet/ts: metadata.uid: expected a string, found a number (12) — quote it ("12") to make it a string`},
		{"timestamp.yaml", "8:23-8:28", `ImageDigestMirrorSet/ts: spec.imageDigestMirrors: expected a list, found an object`},
		{"nan.yaml.txt", "5:15-5:19", `ImageDigestMirrorSet/nan: metadata.generation: .nan is not a number JSON can carry (no NaN or infinity); write a real number or quote it`},
	}
	s := mustLoad(t, []string{"testdata/typeerror"}, Options{})
	s.Problems = append(s.Problems, mustLoad(t, []string{"testdata/typeerror/nan.yaml.txt"}, Options{}).Problems...)
	ps := problemsWith(s, "decode-error")
	if len(ps) != len(cases) || len(s.Problems) != len(cases) {
		t.Fatalf("problems %v", s.Problems)
	}
	for i, c := range cases {
		p := ps[i]
		if p.Pos.File != "testdata/typeerror/"+c.file || span(p.Pos) != c.pos || p.Message != c.msg {
			t.Errorf("got  %s %s %s\nwant %s %s %s", p.Pos.File, span(p.Pos), p.Message, c.file, c.pos, c.msg)
		}
	}
	for _, o := range s.Objects {
		if o.Known || o.DecodeError == "" {
			t.Errorf("%s: known %v decode error %q", o.Ref(), o.Known, o.DecodeError)
		}
	}
	// Finding the later errors must not alter what rules read.
	o := findObject(t, s, "ImageDigestMirrorSet/several")
	if m := o.Content["spec"].(map[string]any)["imageDigestMirrors"].([]any)[0].(map[string]any); m["mirrors"] != "m.example/a" || m["mirrorSourcePolicy"] != 5 {
		t.Errorf("content changed: %v", m)
	}
	if strings.Count(o.DecodeError, "\n") != 2 {
		t.Errorf("DecodeError %q", o.DecodeError)
	}
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/origin"}, Options{})
	want := map[string]string{
		"from-origin":        "base/idms.yaml",
		"from-internal-path": "overlays/prod/idms.yaml",
		"from-legacy-path":   "legacy/idms.yaml",
		"none":               "",
	}
	if len(s.Objects) != len(want) {
		t.Fatalf("objects %v", refs(s))
	}
	for _, o := range s.Objects {
		if o.Origin != want[o.Name] {
			t.Errorf("%s: origin %q want %q", o.Name, o.Origin, want[o.Name])
		}
		if o.File != "testdata/origin/annotated.yaml" {
			t.Errorf("file %q", o.File)
		}
	}
}

func TestScalarsLikeKubectl(t *testing.T) {
	t.Parallel()
	s, _ := LoadReader("-", strings.NewReader(`apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: scalars
spec:
  <<: {extra: merged, imageDigestMirrors: overridden}
  imageDigestMirrors: []
  values: {a: yes, b: "yes", c: 0x10, d: 1.5, e: ~, f: 2024-01-02, "1": one}
`), Options{})
	if len(s.Problems) != 0 || len(s.Objects) != 1 {
		t.Fatalf("problems %v objects %v", s.Problems, refs(s))
	}
	o := s.Objects[0]
	labels := o.Content["spec"].(map[string]any)["values"].(map[string]any)
	want := map[string]any{"a": true, "b": "yes", "c": 16, "d": 1.5, "e": nil, "f": "2024-01-02", "1": "one"}
	if !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %#v", labels)
	}
	spec := o.Content["spec"].(map[string]any)
	if spec["extra"] != "merged" || !reflect.DeepEqual(spec["imageDigestMirrors"], []any{}) {
		t.Errorf("spec %#v", spec)
	}
	checkLocs(t, o, []locCase{{"spec.extra", false, "6:15-6:21"}})
}

func TestStdin(t *testing.T) {
	t.Parallel()
	content := readFixture(t, "testdata/positions/multi.yaml")
	s, err := LoadReader("-", strings.NewReader(content), Options{})
	if err != nil || len(s.Objects) != 2 || s.Objects[0].File != "-" || !reflect.DeepEqual(s.Files, []string{"-"}) {
		t.Fatalf("LoadReader: %v %v %v", err, refs(s), s.Files)
	}
	checkLocs(t, s.Objects[0], multiIDMSLocs)

	// Load reads paths only: there "-" is a file name like any other (the
	// command line turns it into a stream before anything is loaded).
	if _, err := Load([]string{"-"}, Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf(`Load("-") = %v, want ErrNotFound`, err)
	}
}

func TestMissingPathIsTheOnlyError(t *testing.T) {
	t.Parallel()
	_, err := Load([]string{"testdata/positions", "testdata/does-not-exist"}, Options{})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "testdata/does-not-exist") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Load([]string{"testdata/hostile"}, Options{}); err != nil {
		t.Fatalf("hostile input must not be an error: %v", err)
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	t.Parallel()
	one := mustLoad(t, []string{"testdata"}, Options{Workers: 1})
	many := mustLoad(t, []string{"testdata"}, Options{Workers: 8})
	if !reflect.DeepEqual(refs(one), refs(many)) || !reflect.DeepEqual(one.Problems, many.Problems) || !reflect.DeepEqual(one.Files, many.Files) {
		t.Fatalf("results differ:\n%v\n%v", refs(one), refs(many))
	}
}

func TestParsePathRoundTrip(t *testing.T) {
	t.Parallel()
	p := Path{"spec", "imageDigestMirrors", 0, "mirrors", 1}
	if got := ParsePath(p.String()); !reflect.DeepEqual(got, p) {
		t.Errorf("%v", got)
	}
}

// A List inside a List is flattened; Item counts the flattened sequence.
func TestNestedLists(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/lists/nested.yaml"}, Options{})
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	want := []string{
		"ImageTagMirrorSet/outer-0@testdata/lists/nested.yaml:4",
		"ImageDigestMirrorSet/inner@testdata/lists/nested.yaml:15",
		"ImageDigestMirrorSet/typed-in-nested@testdata/lists/nested.yaml:26",
		"ImageTagMirrorSet/outer-last@testdata/lists/nested.yaml:31",
	}
	if got := refs(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
	for i, item := range []int{0, 2, 3, 4} {
		if o := s.Objects[i]; o.Item != item || o.Doc != 0 {
			t.Errorf("%s: doc %d item %d, want item %d", o.Ref(), o.Doc, o.Item, item)
		}
	}
	inner := s.Objects[1]
	if !inner.Known || inner.IDMS == nil || inner.IDMS.Spec.ImageDigestMirrors[0].Source != "quay.io/inner" {
		t.Fatalf("inner not decoded: %+v", inner)
	}
	checkLocs(t, inner, []locCase{{"spec.imageDigestMirrors[0].mirrors[0]", false, "22:19-22:38"}})
	if typed := s.Objects[2]; !typed.Known || typed.APIVersion != "config.openshift.io/v1" {
		t.Errorf("typed list item in a nested List: %+v", typed)
	}
}

// Lists nested beyond the bound, or through an alias to themselves, end
// with a problem or are read once, never loop.
func TestNestedListsBounded(t *testing.T) {
	t.Parallel()
	deep := "apiVersion: v1\nkind: List\nitems:\n"
	indent := ""
	for i := 0; i < maxListDepth+2; i++ {
		indent += "  "
		deep += indent[2:] + "- apiVersion: v1\n" + indent + "kind: List\n" + indent + "items:\n"
	}
	deep += indent + "- {apiVersion: config.openshift.io/v1, kind: ImageDigestMirrorSet, metadata: {name: deep}}\n"
	s, _ := LoadReader("deep.yaml", strings.NewReader(deep), Options{})
	if ps := problemsWith(s, "list-too-deep"); len(ps) != 1 || ps[0].Warning || ps[0].Pos.Line == 0 || len(s.Objects) != 0 {
		t.Errorf("deep: problems %v objects %v", s.Problems, refs(s))
	}
	self := "apiVersion: v1\nkind: List\nitems: &items\n- {apiVersion: config.openshift.io/v1, kind: ImageDigestMirrorSet, metadata: {name: a}}\n- {apiVersion: v1, kind: List, items: *items}\n"
	s, _ = LoadReader("self.yaml", strings.NewReader(self), Options{})
	if len(s.Objects) != 1 {
		t.Errorf("self: problems %v objects %v", s.Problems, refs(s))
	}
}

// Mirror objects wrapped in an OpenShift Template are reported where they
// are written, as warnings, and not loaded.
func TestTemplateWrapsMirrorObjects(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/template/itms.yaml"}, Options{})
	if len(s.Objects) != 0 {
		t.Errorf("wrapped objects loaded: %v", refs(s))
	}
	want := []struct{ pos, msg string }{
		{"10:5-10:28", "ImageTagMirrorSet inside an OpenShift Template (parameters ${NAME}, ${MIRROR}, ${{MORE_MIRRORS}}, …): it is not applied as written — process it (oc process) and lint the output"},
		{"48:5-48:35", "ImageContentSourcePolicy inside an OpenShift Template (parameter ${UNUSED}): it is not applied as written — process it (oc process) and lint the output"},
	}
	if len(s.Problems) != len(want) {
		t.Fatalf("problems %v", s.Problems)
	}
	for i, w := range want {
		p := s.Problems[i]
		if p.Code != "template" || !p.Warning || span(p.Pos) != w.pos || p.Message != w.msg || p.Pos.File != "testdata/template/itms.yaml" {
			t.Errorf("got  %s %s warning=%v %s\nwant %s %s", p.Code, span(p.Pos), p.Warning, p.Message, w.pos, w.msg)
		}
	}
}

// A directory walk skips template files (x.yaml.j2), but one naming a
// mirror kind is reported, as a warning, at its kind line.
func TestTemplateFiles(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/template/role"}, Options{})
	if len(s.Objects) != 0 || len(s.Files) != 0 {
		t.Errorf("objects %v files %v", refs(s), s.Files)
	}
	if len(s.Problems) != 1 {
		t.Fatalf("problems %v", s.Problems)
	}
	p := s.Problems[0]
	want := "ImageContentSourcePolicy in a .j2 template file: not linted — render it and lint the output (for example through mirrorlint lint -)"
	if p.Code != "template-file" || !p.Warning || p.Pos.File != "testdata/template/role/icsp.yml.j2" || span(p.Pos) != "3:1" || p.Message != want {
		t.Errorf("got %s %s %s warning=%v %s", p.Code, p.Pos.File, span(p.Pos), p.Warning, p.Message)
	}
}
