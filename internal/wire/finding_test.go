package wire

import (
	"encoding/json"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// TestFindingJSON pins the wire form docs/output.md documents: key names
// and order, endLine/endColumn and object always present, related,
// clusters and suppressed only with content, the related path omitted when
// empty.
func TestFindingJSON(t *testing.T) {
	full := check.Finding{
		Rule: "source-format", Severity: check.Error, Message: "m",
		Position: manifest.Position{File: "clusters/prod/idms.yaml", Line: 9, Column: 15, EndLine: 9, EndColumn: 32},
		Object:   check.ObjectRef{Kind: "ImageDigestMirrorSet", Name: "team-a"},
		Path:     "spec.imageDigestMirrors[0].source",
		Related: []check.Location{{Position: manifest.Position{File: "b.yaml", Line: 4, Column: 7},
			Object: check.ObjectRef{Kind: "Image", Name: "cluster"}}},
		Clusters:   []string{"overlays/prod"},
		Suppressed: &check.Suppression{Kind: "comment", Reason: "r"},
	}
	for _, tc := range []struct {
		in   check.Finding
		want string
	}{
		{full, `{"rule":"source-format","severity":"error","message":"m","file":"clusters/prod/idms.yaml","line":9,"column":15,"endLine":9,"endColumn":32,"object":{"kind":"ImageDigestMirrorSet","name":"team-a"},"path":"spec.imageDigestMirrors[0].source","related":[{"file":"b.yaml","line":4,"column":7,"endLine":0,"endColumn":0,"object":{"kind":"Image","name":"cluster"}}],"clusters":["overlays/prod"],"suppressed":{"kind":"comment","reason":"r"}}`},
		{check.Finding{Rule: "unreadable-manifest", Severity: check.Info, Message: "m", Position: manifest.Position{File: "x.yaml", Line: 1, Column: 1}},
			`{"rule":"unreadable-manifest","severity":"info","message":"m","file":"x.yaml","line":1,"column":1,"endLine":0,"endColumn":0,"object":{"kind":"","name":""},"path":""}`},
	} {
		got, err := json.Marshal(FromCheck(tc.in, nil))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("wire form:\n got %s\nwant %s", got, tc.want)
		}
	}
}

// TestFromCheckRenames: the rename reaches every position of a finding.
func TestFromCheckRenames(t *testing.T) {
	f := check.Finding{Position: manifest.Position{File: "-"}, Related: []check.Location{{Position: manifest.Position{File: "-"}}}}
	got := FromCheck(f, func(p Position) Position { p.File = "stream"; return p })
	if got.File != "stream" || got.Related[0].File != "stream" {
		t.Errorf("renamed to %q and %q", got.File, got.Related[0].File)
	}
}
