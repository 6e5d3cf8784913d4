package pipeline

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func idms(name, source, mirror string) string {
	return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: " + name +
		"\nspec:\n  imageDigestMirrors:\n  - source: " + source + "\n    mirrors:\n    - " + mirror + "\n"
}

// --cluster in a --base comparison selects one pair by the new side's
// name: a cluster the change adds is compared with an empty cluster (it
// has no name at the base), and the base's other clusters are not listed
// as deleted.
func TestDiffClusterSelectsOnePair(t *testing.T) {
	repo, err := filepath.EvalSymlinks(testtree.Write(t, map[string]string{
		"clusters/east/idms.yaml": idms("apps", "quay.io/acme/app", "east.example.com/acme/app"),
		"clusters/west/idms.yaml": idms("apps", "quay.io/acme/app", "west.example.com/acme/app"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "clusters")
	t.Chdir(repo)
	testtree.Writer(t, repo)("clusters/north/idms.yaml", idms("apps", "quay.io/acme/app", "north.example.com/acme/app"))
	testtree.Writer(t, repo)("clusters/west/idms.yaml", idms("apps", "quay.io/acme/app", "west2.example.com/acme/app"))

	for _, tc := range []struct {
		cluster, action string
	}{
		{"clusters/north", "reload"},
		{"clusters/west", "drain"},
	} {
		res, err := Diff(context.Background(), DiffRequest{
			Options: project.Options{Paths: []string{"clusters"}, Root: repo, Config: &config.Config{}, Cluster: tc.cluster},
			Rev:     "HEAD",
		})
		if err != nil {
			t.Fatalf("--cluster %s: %v", tc.cluster, err)
		}
		var got []string
		for _, c := range res.Clusters {
			got = append(got, c.Name+" "+c.Action)
		}
		if want := []string{tc.cluster + " " + tc.action}; !slices.Equal(got, want) {
			t.Errorf("--cluster %s: clusters %q, want %q", tc.cluster, got, want)
		}
	}

	if _, err := Diff(context.Background(), DiffRequest{Options: project.Options{Paths: []string{"clusters/south"}, Root: repo, Config: &config.Config{}}, Rev: "HEAD"}); err == nil ||
		!strings.Contains(err.Error(), "clusters/south exists neither in the working tree nor at HEAD") {
		t.Errorf("a path on neither side: %v", err)
	}
}
