package manifest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/contentcache"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A file Options.Narrows names is read with Options.Narrowed: one holding
// only what that leaves out is not parsed, and of one parsed for another
// object the objects of the left-out kinds are not kept; a file parsed
// whole (ParseAll) keeps everything, and so do the objects of kinds
// Prefilter does not name either (an ImageTagMirrorSet beside a needed
// ImageDigestMirrorSet). What the cache stores of a file stays
// whole, so a later load needing everything restores the left-out objects.
func TestNarrowedFilesLeaveKindsOut(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"deploy.yaml": benchrepo.Deployment(1),
		"mix.yaml":    benchrepo.Deployment(2) + "---\n" + benchrepo.ConfigMap(2),
		"idms.yaml":   benchrepo.Mirror(3),
		"given.yaml":  benchrepo.Deployment(4),
		"broken.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: [\n",
	})
	full := NeedKinds(append([]string{"ImageDigestMirrorSet", "ConfigMap"}, ImageKinds()...)...)
	narrowed := full.Without(ImageKinds()...)
	given := filepath.Join(dir, "given.yaml")
	cache := contentcache.Open(t.TempDir(), "test", CacheFormat) // safe for the load's workers
	load := func(narrow bool) string {
		t.Helper()
		o := Options{Unmodelled: UnmodelledImages, Prefilter: &full, Narrowed: &narrowed, Cache: cache,
			ParseAll: func(name string) bool { return name == given }}
		if narrow {
			o.Narrows = func(string) bool { return true }
		}
		set, err := Load([]string{dir}, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ob := range set.Objects {
			got = append(got, strings.TrimPrefix(ob.File, dir+"/")+" "+ob.Ref())
		}
		for _, p := range set.Problems {
			got = append(got, strings.TrimPrefix(p.Pos.File, dir+"/")+" "+p.Code)
		}
		slices.Sort(got)
		return strings.Join(got, "\n")
	}
	want := "given.yaml Deployment/app-4\nidms.yaml ImageDigestMirrorSet/mirrors-3\nidms.yaml ImageTagMirrorSet/tags-3\nmix.yaml ConfigMap/app-2-config"
	if got := load(true); got != want {
		t.Errorf("narrowed:\n%s\nwant:\n%s", got, want)
	}
	want = "broken.yaml parse-error\ndeploy.yaml Deployment/app-1\ngiven.yaml Deployment/app-4\nidms.yaml ImageDigestMirrorSet/mirrors-3\nidms.yaml ImageTagMirrorSet/tags-3\nmix.yaml ConfigMap/app-2-config\nmix.yaml Deployment/app-2"
	if got := load(false); got != want {
		t.Errorf("whole, from what the narrowed load stored:\n%s\nwant:\n%s", got, want)
	}
}

// MayHoldKinds reads kind keys as the prefilter does and asks about the
// kinds given only: a ConfigMap is no mirror set, a typed List of them is.
func TestMayHoldKinds(t *testing.T) {
	t.Parallel()
	kinds := []string{"ImageDigestMirrorSet", "Image"}
	for text, want := range map[string]bool{
		benchrepo.Deployment(1) + "---\n" + benchrepo.ConfigMap(1): false,
		benchrepo.Mirror(1):                           true,
		"kind: ImageDigestMirrorSetList\nitems: []\n": true,
		"kind: ImageContentSourcePolicy\n":            false,
		"kind: \"Image\"\n":                           true,
		"kind: \\u0049mage\n":                         true, // an escape: not read for certain
		"- op: add\n  path: /spec/x\n":                false,
	} {
		if got := MayHoldKinds([]byte(text), kinds); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}
