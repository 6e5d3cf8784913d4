package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A workload's marked lines are noted by the loader (its objects keep only
// image fields, not the text) and restored from the cache with its result,
// so the file is not read for its suppression comments.
func TestMarkedLinesOfACachedFile(t *testing.T) {
	t.Parallel()
	text := "# mirrorlint:ignore image-pull-fails mirrored by hand\r\n" + benchrepo.Deployment(1) + "\n# not a marker\n#mirrorlint:ignore\n"
	dir := t.TempDir()
	p := filepath.Join(dir, "d.yaml")
	testtree.WriteFile(t, p, text)
	// The text ends with a line break: its last line's number is the
	// count of breaks.
	want := []MarkedLine{{Line: 1, Text: "# mirrorlint:ignore image-pull-fails mirrored by hand"}, {Line: countLines(text), Text: "#mirrorlint:ignore"}}
	m := memCache{}
	opts := Options{Unmodelled: UnmodelledImages, Cache: m}
	parsed := mustLoad(t, []string{dir}, opts)
	if len(parsed.Objects) == 0 || len(m) != 1 {
		t.Fatalf("%d objects, %d entries: nothing to compare", len(parsed.Objects), len(m))
	}
	if err := os.WriteFile(p, []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Blobs = func(q string) (string, bool) { return BlobID([]byte(text)), q == p }
	restored := mustLoad(t, []string{dir}, opts)
	for name, s := range map[string]*Set{"parsed": parsed, "restored": restored} {
		for _, o := range s.Objects {
			got, ok := o.Marked()
			if !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: Marked() = %+v, %v; want %+v", name, o.Ref(), got, ok, want)
			}
		}
	}
}

func countLines(s string) int { return strings.Count(s, "\n") }
