package manifest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const realworldDir = "/work/shared/realworld"

var dir18 = realworldDir + "/018/telco-ran/configuration/source-crs"

// Folders holding ${VAR}, {{ }}, $mirrors or <PLACEHOLDER> templates (see
// the corpus README): see checkTemplated for what they must give.
var templatedFolders = map[string]bool{"019": true, "026": true, "030": true, "031": true, "037": true, "043": true, "046": true, "053": true}

// topLevelMirrorKind counts the objects in a file independently of the
// loader: a top-level "kind:" line naming one of the four kinds.
var topLevelMirrorKind = regexp.MustCompile(`(?m)^kind:[ \t]*(ImageContentSourcePolicy|ImageDigestMirrorSet|ImageTagMirrorSet|Image)[ \t]*\r?$`)

func TestRealWorld(t *testing.T) {
	t.Parallel()
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
		// A ZTP source-crs template (spec: null until PolicyGen fills it):
		// never applied as written, so not read, and said once.
		"018": {CodeNotApplied, "1:1", "ZTP source CRs " + dir18 + ": templates that PolicyGenTemplate/PolicyGenerator patch into policies, never applied as written; 1 manifest file not linted"},
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
				checkTemplated(t, id, s)
				return
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

// templatedLoads says what the loader gives for each templated folder:
// a positioned problem naming the template, or, where the placeholders sit
// in otherwise valid values (026 TEMPLATESOURCE, 053 <MIRROR_HOST>), the
// objects, whose values the rules then refuse.
var templatedLoads = map[string]struct {
	code, pos, msg string
	warning        bool
	objects        int
}{
	"019": {code: CodeNotApplied, pos: "1:1", msg: "ZTP source CRs " + realworldDir + "/019/ztp/source-crs: templates that PolicyGenTemplate/PolicyGenerator patch", warning: true},
	"026": {objects: 1},
	"030": {code: "template", pos: "6:5-6:28", msg: "ImageTagMirrorSet inside an OpenShift Template (parameter ${NAME})", warning: true},
	"031": {code: "template", pos: "6:5-6:31", msg: "ImageDigestMirrorSet inside an OpenShift Template (parameters ${NAME}, ${{IMAGEDIGESTMIRRORS}})", warning: true},
	"037": {code: "template", pos: "7:3-7:33", msg: "ImageContentSourcePolicy inside an OpenShift Template (parameters ${NAME}, ${MIRRORS_1}, ${SOURCE_1}, …)", warning: true},
	"043": {code: "template-file", pos: "3:1", msg: "ImageContentSourcePolicy in a .j2 template file: not linted", warning: true},
	"046": {code: "parse-error", pos: "1:1", msg: "the file looks like a Helm/Jinja template"},
	"053": {objects: 3},
}

func checkTemplated(t *testing.T, id string, s *Set) {
	t.Helper()
	w, ok := templatedLoads[id]
	if !ok {
		t.Fatalf("no expectation for templated folder %s", id)
	}
	if w.code == "" {
		if len(s.Problems) != 0 || len(s.Objects) != w.objects {
			t.Errorf("problems %v objects %v", s.Problems, refs(s))
		}
		return
	}
	if len(s.Problems) != 1 {
		t.Fatalf("problems %v", s.Problems)
	}
	p := s.Problems[0]
	if p.Code != w.code || span(p.Pos) != w.pos || !strings.Contains(p.Message, w.msg) || p.Warning != w.warning {
		t.Errorf("got %s %s warning=%v %s\nwant %s %s warning=%v %s", p.Code, span(p.Pos), p.Warning, p.Message, w.code, w.pos, w.warning, w.msg)
	}
}
