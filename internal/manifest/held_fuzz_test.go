package manifest

import (
	"testing"
)

// FuzzHeld: any text a ConfigMap value holds is read without a panic,
// and every object and problem is placed where place puts it (a line of
// the holding file), never at the text's own line.
func FuzzHeld(f *testing.F) {
	f.Add("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: x}\nspec:\n  imageDigestMirrors:\n  - source: quay.io/a\n    mirrors: [m.example.com/a]\n")
	f.Add("apiVersion: v1\nkind: List\nitems:\n- apiVersion: config.openshift.io/v1\n  kind: ImageTagMirrorSet\n  metadata: {name: t}\n---\nkind: [\n")
	f.Add("{\"apiVersion\":\"machineconfiguration.openshift.io/v1\",\"kind\":\"MachineConfig\",\"metadata\":{\"name\":\"m\"}}")
	f.Fuzz(func(t *testing.T, text string) {
		const base = 1000 // the value's first line in the holding file
		place := func(line, col int) Position { return Position{File: "holder.yaml", Line: base + line, Column: col} }
		objs, probs := Held("holder.yaml", text, UnmodelledAll, place)
		for _, o := range objs {
			if o.File != "holder.yaml" {
				t.Fatalf("object %s placed in %q", o.Ref(), o.File)
			}
		}
		for _, p := range probs {
			if p.Pos.File != "holder.yaml" || p.Pos.Line != 0 && p.Pos.Line < base {
				t.Fatalf("problem placed at %s: %s", p.Pos, p.Message)
			}
		}
	})
}
