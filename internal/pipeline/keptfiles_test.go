package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A render's registries.conf of many mirrors is kept as an entry of its
// own, outside the cluster's and the run's entries; runs taking them give
// what an uncached run gives, and a file entry that was altered is not
// taken: the run checks the cluster again, reports the same and keeps the
// file anew.
func TestRenderFilesAreKeptOnTheirOwn(t *testing.T) {
	t.Parallel()
	checks := cachingChecks(t, policy.Options{Builtin: true})
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: many\nspec:\n  imageDigestMirrors:\n")
	for i := range 60 {
		fmt.Fprintf(&b, "  - source: quay.io/org/repo-%d\n    mirrors: [mirror.example.com/org/repo-%d]\n", i, i)
	}
	testtree.WriteAt(t, dir, map[string]string{"clusters/a/idms.yaml": b.String()})
	cfg := &config.Config{}
	_, want := wholeRun(t, checks, cfg, dir, nil, nil)
	files, runs := &memStore{m: map[string][]byte{}}, &memStore{m: map[string][]byte{}}
	first, got := wholeRun(t, checks, cfg, dir, files, runs)
	if got != want {
		t.Fatalf("cached run differs\ncached:\n%s\nuncached:\n%s", got, want)
	}
	conf := first.Outcomes()[0].Output.RegistriesConf
	if len(conf) < keptFileMin {
		t.Fatalf("registries.conf of %d bytes: the test keeps nothing on its own", len(conf))
	}
	var fileKeys []string
	for k, v := range runs.m {
		switch {
		case strings.HasPrefix(k, "file/"):
			fileKeys = append(fileKeys, k)
		case strings.HasPrefix(k, "run/"), strings.HasPrefix(k, "cluster/"):
			if len(v) >= len(conf) {
				t.Errorf("%s holds %d bytes, registries.conf is %d: the file is inside it", k, len(v), len(conf))
			}
		}
	}
	if len(fileKeys) != 1 {
		t.Fatalf("file entries %v, want the one registries.conf", fileKeys)
	}
	if again, got := wholeRun(t, checks, cfg, dir, files, runs); !again.WholeRun || got != want {
		t.Fatalf("the next run was not taken whole (%v) or differs\n%s", again.WholeRun, got)
	}
	runs.m[fileKeys[0]][10] ^= 1
	spoilt, got := wholeRun(t, checks, cfg, dir, files, runs)
	if spoilt.WholeRun || spoilt.Reused != 0 || got != want {
		t.Fatalf("with the file entry altered: whole %v, reused %d, same %v", spoilt.WholeRun, spoilt.Reused, got == want)
	}
	if again, got := wholeRun(t, checks, cfg, dir, files, runs); !again.WholeRun || got != want {
		t.Errorf("the file was not kept anew: whole %v, same %v", again.WholeRun, got == want)
	}
}
