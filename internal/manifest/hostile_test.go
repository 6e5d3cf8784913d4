package manifest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// loadWithGood loads a hostile file next to the good one and returns the
// problems of the hostile file.
func loadWithGood(t *testing.T, hostile string) (*Set, []Problem) {
	t.Helper()
	s := mustLoad(t, []string{hostile, "testdata/hostile/good.yaml"}, Options{})
	assertGoodLoaded(t, s)
	var ps []Problem
	for _, p := range s.Problems {
		if p.Pos.File == filepath.ToSlash(hostile) {
			ps = append(ps, p)
		}
	}
	return s, ps
}

func TestHostileFixtures(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file, code, pos string
		msg             []string
	}{
		// Refused when expanded for a mirror object; the ConfigMap with the
		// same bomb is skipped without expansion.
		{"alias-bomb.yaml", "alias-expansion", "18:1", []string{"ImageDigestMirrorSet/laughs", "billion laughs"}},
		{"alias-cycle.yaml", "decode-error", "1:1", []string{"ImageDigestMirrorSet/cycle", "line 6", "contains it"}},
		{"binary.yaml", "binary-file", "3:1", []string{"NUL byte"}},
		{"invalid-utf8.yaml", "parse-error", "3:6", []string{"invalid UTF-8", "0xe9"}},
		{"control-char.yaml", "parse-error", "4:13", []string{"control characters"}},
		{"template.yaml", "parse-error", "7:1", []string{"could not find expected ':'", "template"}},
		{"broken-stream.yaml", "parse-error", "13:4", []string{"did not find expected key", "document 2", "nothing after this error"}},
		{"unknown-anchor.yaml", "parse-error", "6:23", []string{"unknown anchor 'nowhere'"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := "testdata/hostile/" + c.file
			_, ps := loadWithGood(t, path)
			if len(ps) != 1 {
				t.Fatalf("problems %v", ps)
			}
			p := ps[0]
			if p.Code != c.code || span(p.Pos) != c.pos {
				t.Errorf("got %s at %s, want %s at %s: %s", p.Code, span(p.Pos), c.code, c.pos, p.Message)
			}
			for _, m := range c.msg {
				if !strings.Contains(p.Message, m) {
					t.Errorf("message %q lacks %q", p.Message, m)
				}
			}
		})
	}
}

func TestHostileBrokenStreamKeepsEarlierDocuments(t *testing.T) {
	t.Parallel()
	s, _ := loadWithGood(t, "testdata/hostile/broken-stream.yaml")
	findObject(t, s, "ImageDigestMirrorSet/before-error")
	for _, o := range s.Objects {
		if o.Name == "after-error-lost" {
			t.Errorf("yaml.v3 cannot resume after a syntax error; got %s", o.Ref())
		}
	}
}

func TestHostileTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("x", 99) + "\n"
	chunk := strings.Repeat("- "+line, 1<<14)
	for n := 0; n < 50<<20; n += len(chunk) {
		if _, err := f.WriteString(chunk); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	testtree.WriteFile(t, filepath.Join(dir, "good.yaml"), goodIDMS)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := mustLoad(t, []string{dir}, Options{})
	runtime.ReadMemStats(&after)
	assertGoodLoaded(t, s)
	ps := problemsWith(s, "file-too-large")
	if len(ps) != 1 || ps[0].Pos.File != filepath.ToSlash(big) {
		t.Fatalf("problems %v", s.Problems)
	}
	for _, m := range []string{"53477376 bytes (51 MiB)", "8388608-byte (8 MiB) limit", "--max-file-size", "exclude the file"} {
		if !strings.Contains(ps[0].Message, m) {
			t.Errorf("message %q lacks %q", ps[0].Message, m)
		}
	}
	if strings.Contains(ps[0].Message, "Options.") || ps[0].Warning {
		t.Errorf("message %q names a Go option, or is a warning (%v)", ps[0].Message, ps[0].Warning)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("skipping a 50 MB file allocated %d bytes", alloc)
	}
	// The limit is configurable, and a limit crossed while reading (stdin)
	// is caught the same way.
	s = mustLoad(t, []string{filepath.Join(dir, "good.yaml")}, Options{MaxFileSize: 100})
	if len(problemsWith(s, "file-too-large")) != 1 || len(s.Objects) != 0 {
		t.Errorf("MaxFileSize 100: %v", s.Problems)
	}
	s, _ = LoadReader("-", strings.NewReader(goodIDMS), Options{MaxFileSize: 100})
	// A stream cannot be excluded, and the message names the flag, not
	// the Go option behind it.
	if ps := problemsWith(s, "file-too-large"); len(ps) != 1 || !strings.Contains(ps[0].Message, "more than 100 bytes") ||
		strings.Contains(ps[0].Message, "exclude") || strings.Contains(ps[0].Message, "Options.") || !strings.Contains(ps[0].Message, "--max-file-size") {
		t.Errorf("stdin: %v", s.Problems)
	}
}

func TestHostileDeepNesting(t *testing.T) {
	t.Parallel()
	const depth = 20000
	dir := t.TempDir()
	cases := map[string]string{
		"flow-seq.yaml":  strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n",
		"flow-map.yaml":  "a: " + strings.Repeat("{a: ", depth) + strings.Repeat("}", depth) + "\n",
		"block-seq.yaml": strings.Repeat("- ", depth) + "x\n",
		"json.json":      strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth) + "\n",
		// Just under yaml.v3's limit, inside a mirror object, so the
		// recursive conversion and the JSON round trip see it too.
		"deep-idms.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: deep}\nspec: {x: " +
			strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + "}\n",
	}
	for name, content := range cases {
		testtree.WriteFile(t, filepath.Join(dir, name), content)
	}
	testtree.WriteFile(t, filepath.Join(dir, "good.yaml"), goodIDMS)
	s := mustLoad(t, []string{dir}, Options{})
	assertGoodLoaded(t, s)
	got := map[string]string{}
	for _, p := range s.Problems {
		got[filepath.Base(p.Pos.File)] = p.Code + " " + span(p.Pos)
	}
	for _, name := range []string{"flow-seq.yaml", "flow-map.yaml", "block-seq.yaml", "json.json"} {
		if got[name] != "parse-error 1:1" {
			t.Errorf("%s: %q (all problems %v)", name, got[name], s.Problems)
		}
	}
	// 9000 levels is legal YAML, but far past any manifest: the file is
	// refused where the nesting passes the bound, before the conversions
	// that would multiply it into hundreds of megabytes.
	if got["deep-idms.yaml"] != "yaml-bounds 4:209" {
		t.Errorf("deep-idms.yaml: %q (all problems %v)", got["deep-idms.yaml"], s.Problems)
	}
	for _, o := range s.Objects {
		if o.Name == "deep" {
			t.Errorf("the deep object was loaded")
		}
	}
}

// A huge document count in one file must not explode either.
func TestHostileManyDocuments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "many.yaml"), strings.Repeat("---\n", 200000)+goodIDMS)
	// 200,000 empty documents load (a quadratic pass would not finish
	// within the test timeout); the speed itself is a benchmark's business.
	s := mustLoad(t, []string{dir}, Options{})
	o := findObject(t, s, "ImageDigestMirrorSet/good")
	if o.Node.Line != 200001 {
		t.Errorf("line %d", o.Node.Line)
	}
}

func TestHostileMergeCycle(t *testing.T) {
	t.Parallel()
	s, _ := LoadReader("-", strings.NewReader(`apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: &m
  name: merge
  <<: *m
spec: &s
  <<: [*s, *s]
`), Options{})
	// yaml.v3 rejects the alias to an enclosing anchor at parse time or we
	// refuse it while converting; either way a Problem, not a hang.
	if len(s.Problems) != 1 || len(s.Objects) != 0 {
		t.Fatalf("problems %v objects %v", s.Problems, refs(s))
	}
}

// A device or FIFO named on the command line, or reached through a link
// the walk follows, is refused without being read: /dev/zero would never
// end, a FIFO would block.
func TestHostileDevicesNotRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "good.yaml"), goodIDMS)
	fifo := filepath.Join(dir, "fifo-target")
	if err := testtree.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs:", err)
	}
	if err := os.Symlink("fifo-target", filepath.Join(dir, "pipe.yaml")); err != nil {
		t.Fatal(err)
	}
	s := mustLoad(t, []string{"/dev/zero", dir}, Options{})
	assertGoodLoaded(t, s)
	if ps := problemsWith(s, "not-regular"); len(ps) != 1 || ps[0].Pos.File != "/dev/zero" {
		t.Errorf("problems %v, want /dev/zero refused as not a regular file", s.Problems)
	}
}

// With an access root, an explicit path outside it is refused, not read.
func TestAccessRootConfinesReads(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	testtree.WriteFile(t, filepath.Join(repo, "good.yaml"), goodIDMS)
	testtree.WriteFile(t, filepath.Join(base, "secret.yaml"), strings.Replace(goodIDMS, "name: good", "name: secret", 1))
	s := mustLoad(t, []string{repo, filepath.Join(base, "secret.yaml")}, Options{Access: safefs.New(0, repo)})
	assertGoodLoaded(t, s)
	if len(s.Objects) != 1 || len(problemsWith(s, "outside-repository")) != 1 {
		t.Errorf("objects %v problems %v, want the outside file refused", refs(s), s.Problems)
	}
}
