package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// shown is a value as a finding on it shows it: located in the object's
// file, then moved to the patch that wrote it (what the pipeline does
// with every finding on a built cluster).
type shown struct {
	pos  manifest.Position
	text string
}

// showValues places the values vals of c's objects.
func showValues(c *Cluster, vals func(report func(o *manifest.Object, p manifest.Path, text string))) []shown {
	var out []shown
	r := c.Patches()
	vals(func(o *manifest.Object, p manifest.Path, text string) {
		pos := o.Locate(p)
		if r != nil {
			if at, ok := r.Place(string(o.Kind), o.Name, p.String()); ok {
				pos = at
			}
		}
		out = append(out, shown{pos, text})
	})
	return out
}

// everyValue reports every source, mirror and mirrorSourcePolicy of the
// mirror sets, so a test sees where each value is placed.
func everyValue(c *Cluster) func(report func(o *manifest.Object, p manifest.Path, text string)) {
	return func(report func(o *manifest.Object, p manifest.Path, text string)) {
		for _, o := range c.Objects {
			field := map[manifest.Kind]string{manifest.KindIDMS: "imageDigestMirrors", manifest.KindITMS: "imageTagMirrors"}[o.Kind]
			spec, _ := o.Content["spec"].(map[string]any)
			entries, _ := spec[field].([]any)
			for i, e := range entries {
				em, _ := e.(map[string]any)
				p := manifest.Path{"spec", field, i}
				report(o, p.Child("source"), fmt.Sprint(em["source"]))
				ms, _ := em["mirrors"].([]any)
				for j, m := range ms {
					report(o, p.Child("mirrors", j), fmt.Sprint(m))
				}
				if pol, ok := em["mirrorSourcePolicy"]; ok {
					report(o, p.Child("mirrorSourcePolicy"), fmt.Sprint(pol))
				}
			}
		}
	}
}

// writtenAt is where text is first written in file (relative to the
// fixture): the line and column the value starts at, quotes included.
func writtenAt(t *testing.T, root, file, text string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), text)
	if i < 0 {
		t.Fatalf("%s does not hold %q", file, text)
	}
	line := strings.Count(string(data[:i]), "\n") + 1
	col := i - strings.LastIndex(string(data[:i]), "\n")
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}

// TestEveryPatchFormPointsAtThePatch: for every way kustomize lets a
// patch, a component or a patch transformer write a value, the finding on
// that value sits on the line and column that wrote it; values the base
// writes stay in the base, even when a patch moved their entry.
func TestEveryPatchFormPointsAtThePatch(t *testing.T) {
	const root = "testdata/patchforms"
	res := discover(t, root)
	base := func(text string) string { return writtenAt(t, root, "base/idms.yaml", text) + " " + text }
	in := func(file, text string) string { return writtenAt(t, root, file, text) + " " + strings.Trim(text, `"`) }
	cases := map[string][]string{
		// patches: with path:, a JSON 6902 add at "-".
		"overlays/json-path": {base("quay.io/base/a"), base("mirror.example/base/a"),
			in("overlays/json-path/add.yaml", "quay.io/jsonpath/b"), in("overlays/json-path/add.yaml", "mirror.example/jsonpath/b")},
		// patches: with an inline patch: |-, an append and an add into
		// the base's entry.
		"overlays/json-inline": {base("quay.io/base/a"), base("mirror.example/base/a"),
			in("overlays/json-inline/kustomization.yaml", "NeverContactSource"),
			in("overlays/json-inline/kustomization.yaml", "quay.io/jsoninline/c"), in("overlays/json-inline/kustomization.yaml", "mirror.example/jsoninline/c")},
		// Legacy patchesJson6902: a file in flow style, and an inline
		// single-quoted operation appending a mirror to the base's entry.
		"overlays/legacy-json": {base("quay.io/base/a"), base("mirror.example/base/a"),
			in("overlays/legacy-json/kustomization.yaml", `"mirror.example/legacy/inline"`),
			in("overlays/legacy-json/add.yaml", "quay.io/legacy/d"), in("overlays/legacy-json/add.yaml", "mirror.example/legacy/d")},
		// A strategic-merge patch file replaces the list: what it changes
		// is the patch's, the source it restates unchanged the base's.
		"overlays/smp-path": {base("quay.io/base/a"),
			in("overlays/smp-path/smp.yaml", "mirror.example/smp/a"), in("overlays/smp-path/smp.yaml", "NeverContactSource")},
		// An inline strategic-merge patch.
		"overlays/smp-inline": {in("overlays/smp-inline/kustomization.yaml", "quay.io/smpinline/e"),
			in("overlays/smp-inline/kustomization.yaml", "mirror.example/smpinline/e")},
		// Legacy patchesStrategicMerge: a file, and an inline document.
		"overlays/legacy-smp": {in("overlays/legacy-smp/smp.yaml", "quay.io/legacysmp/f"), in("overlays/legacy-smp/smp.yaml", "mirror.example/legacysmp/f"),
			in("overlays/legacy-smp/kustomization.yaml", "quay.io/legacysmp/tags"), in("overlays/legacy-smp/kustomization.yaml", "mirror.example/legacysmp/tags")},
		// A component: its patch and its own resource.
		"overlays/with-component": {base("quay.io/base/a"), base("mirror.example/base/a"),
			in("components/extra/kustomization.yaml", "quay.io/component/g"), in("components/extra/kustomization.yaml", "mirror.example/component/g"),
			in("components/extra/itms.yaml", "quay.io/component/tags"), in("components/extra/itms.yaml", "mirror.example/component/tags")},
		// A PatchTransformer configured in a file of transformers:.
		"overlays/transformer": {base("quay.io/base/a"), base("mirror.example/base/a"),
			in("overlays/transformer/mirrors.yaml", "quay.io/transformer/h"), in("overlays/transformer/mirrors.yaml", "mirror.example/transformer/h")},
		// An entry inserted before the base's: the base's entry moved to
		// index 1, its values still found on the base's lines.
		"overlays/insert": {base("quay.io/base/a"), base("mirror.example/base/a"),
			in("overlays/insert/insert.yaml", "quay.io/insert/first"), in("overlays/insert/insert.yaml", "mirror.example/insert/first")},
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			c := byName(t, res, name)
			got := lintEveryValue(t, c, root)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func lintEveryValue(t *testing.T, c *Cluster, root string) []string {
	t.Helper()
	for _, p := range c.Problems {
		t.Errorf("problem: %s", p)
	}
	var out []string
	for _, v := range showValues(c, everyValue(c)) {
		file := strings.TrimPrefix(filepath.ToSlash(v.pos.File), root+"/")
		out = append(out, fmt.Sprintf("%s:%d:%d %s", file, v.pos.Line, v.pos.Column, v.text))
	}
	sort.Strings(out)
	return out
}
