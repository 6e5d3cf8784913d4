package manifest

import (
	"crypto/sha256"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// digestOf loads text as a stream and digests its objects.
func digestOf(t *testing.T, text string) [sha256.Size]byte {
	t.Helper()
	s, err := LoadReader("objects.yaml", strings.NewReader(text), Options{Unmodelled: UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	Digest(h, s.Objects)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// A list long enough to be digested in chunks gives one digest whatever
// the number of processors and however often it is loaded, and another
// for any change of what a check can read: a value, a comment, a line, the
// order of two objects, one object fewer.
func TestDigestOfALongListIsItsContent(t *testing.T) {
	docs := make([]string, 3*digestChunk+7)
	for i := range docs {
		docs[i] = fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d}\ndata: {k: v%d}\n", i, i)
	}
	text := strings.Join(docs, "---\n")
	base := digestOf(t, text)
	for _, procs := range []int{1, 4} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			if digestOf(t, text) != base {
				t.Errorf("GOMAXPROCS %d: another digest of the same objects", procs)
			}
		}()
	}
	mid := len(docs) / 2
	swapped := append([]string(nil), docs...)
	swapped[mid], swapped[mid+1] = swapped[mid+1], swapped[mid]
	for name, changed := range map[string]string{
		"a value":       strings.Replace(text, fmt.Sprintf("k: v%d}", mid), fmt.Sprintf("k: w%d}", mid), 1),
		"a comment":     strings.Replace(text, fmt.Sprintf("{name: cm-%d}", mid), fmt.Sprintf("{name: cm-%d} # note", mid), 1),
		"a line":        strings.Replace(text, fmt.Sprintf("metadata: {name: cm-%d}", mid), fmt.Sprintf("\nmetadata: {name: cm-%d}", mid), 1),
		"the order":     strings.Join(swapped, "---\n"),
		"the last gone": strings.Join(docs[:len(docs)-1], "---\n"),
	} {
		if changed == text {
			t.Fatalf("%s: the change changed nothing", name)
		}
		if digestOf(t, changed) == base {
			t.Errorf("%s changed, the digest did not", name)
		}
	}
}

// With the content cache on, a text is digested by its blob id: the key of
// objects parsed on a cold run is the key of the same objects restored
// from the cache, and an edit of the file gives another.
func TestDigestOfCachedObjectsIsTheDigestOfParsedOnes(t *testing.T) {
	t.Parallel()
	text := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {k: v} # note\n"
	path := writeTemp(t, text)
	digest := func(o Options) ([sha256.Size]byte, *Set) {
		s := mustLoad(t, []string{path}, o)
		h := sha256.New()
		Digest(h, s.Objects)
		var sum [sha256.Size]byte
		h.Sum(sum[:0])
		return sum, s
	}
	var hits atomic.Int64
	opts := Options{Unmodelled: UnmodelledAll, Cache: countingCache{memCache{}, &hits}}
	parsed, s := digest(opts)
	if len(s.Objects) != 1 || s.Objects[0].src == nil || s.Objects[0].src.blob != BlobID([]byte(text)) {
		t.Fatal("a parsed object's text does not carry its blob id")
	}
	restored, _ := digest(opts)
	if hits.Load() == 0 {
		t.Fatal("the second load did not restore from the cache")
	}
	if restored != parsed {
		t.Error("objects restored from the cache digest otherwise than when parsed")
	}
	if err := os.WriteFile(path, []byte(strings.Replace(text, "# note", "# other", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if edited, _ := digest(opts); edited == parsed {
		t.Error("an edited comment gave the same digest")
	}
}
