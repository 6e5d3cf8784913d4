package manifest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const realworldDir = "/work/shared/realworld"

// Folders holding ${VAR}, {{ }}, $mirrors or <PLACEHOLDER> templates (see
// the corpus README): they must not panic, but nothing is promised.
var templatedFolders = map[string]bool{"019": true, "026": true, "030": true, "031": true, "037": true, "043": true, "046": true, "053": true}

// topLevelMirrorKind counts the objects in a file independently of the
// loader: a top-level "kind:" line naming one of the four kinds.
var topLevelMirrorKind = regexp.MustCompile(`(?m)^kind:[ \t]*(ImageContentSourcePolicy|ImageDigestMirrorSet|ImageTagMirrorSet|Image)[ \t]*\r?$`)

func TestRealWorld(t *testing.T) {
	if _, err := os.Stat(realworldDir); err != nil {
		t.Skipf("real-world corpus not available (%v); it lives in /work/shared/realworld", err)
	}
	entries, err := os.ReadDir(realworldDir)
	if err != nil {
		t.Fatal(err)
	}
	wantProblem := map[string]struct{ code, pos, msg string }{
		"006": {"parse-error", "9:7", "mapping values are not allowed in this context"},
		"036": {"parse-error", "8:3", "mapping values are not allowed in this context"},
		"028": {"decode-error", "7:5-7:28", "Image/cluster: spec.additionalTrustedCA: expected an object (key: value fields), found a list"},
	}
	folders := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		folders++
		id := e.Name()
		t.Run(id, func(t *testing.T) {
			dir := filepath.Join(realworldDir, id)
			s := mustLoad(t, []string{dir}, Options{})
			if templatedFolders[id] {
				return // loading without a panic is all we ask
			}
			if w, ok := wantProblem[id]; ok {
				if len(s.Problems) != 1 {
					t.Fatalf("problems %v", s.Problems)
				}
				p := s.Problems[0]
				if p.Code != w.code || span(p.Pos) != w.pos || !strings.Contains(p.Message, w.msg) || !strings.HasPrefix(p.Pos.File, dir+"/") {
					t.Errorf("got %s %s %s, want %s at %s: %s", p.Code, p.Pos, p.Message, w.code, w.pos, w.msg)
				}
				if w.code == "parse-error" {
					return
				}
			} else if len(s.Problems) != 0 {
				t.Errorf("problems %v", s.Problems)
			}
			want := 0
			for _, f := range s.Files {
				want += len(topLevelMirrorKind.FindAllIndex([]byte(readFixture(t, f)), -1))
			}
			got := 0
			for _, o := range s.Objects {
				if o.Kind != KindMachineConfig {
					got++
				}
				if o.Node == nil || o.Content == nil || o.Node.Line < 1 {
					t.Errorf("%s: no node/content", o.Ref())
				}
			}
			if got != want {
				t.Errorf("found %d mirror objects, the files hold %d: %v", got, want, refs(s))
			}
		})
	}
	if folders < 50 {
		t.Errorf("only %d folders", folders)
	}
}
