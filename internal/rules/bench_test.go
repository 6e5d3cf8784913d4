package rules

import (
	"fmt"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// BenchmarkRulesLargeTree measures the rules alone (loading excluded) on
// one cluster with 200 mirror objects of 25 entries each, sharing sources
// and mirrors the way oc-mirror output does, plus an Image/cluster with
// nested scopes. Doubling the objects should roughly double the time:
// no rule may compare every source with every other.
func BenchmarkRulesLargeTree(b *testing.B) {
	for _, objects := range []int{100, 200} {
		b.Run(fmt.Sprintf("objects=%d", objects), func(b *testing.B) {
			dir := b.TempDir()
			var sb strings.Builder
			for o := 0; o < objects; o++ {
				fmt.Fprintf(&sb, "---\napiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: idms-%d\nspec:\n  imageDigestMirrors:\n", o)
				for e := 0; e < 25; e++ {
					src := fmt.Sprintf("registry.example.com/ns%d/app%d", o%37, e)
					fmt.Fprintf(&sb, "  - source: %s\n    mirrors:\n    - mirror%d.example.net/ns%d/app%d\n    - backup.example.net/ns%d/app%d\n", src, o%3, o%37, e, o%37, e)
				}
			}
			sb.WriteString("---\napiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  registrySources:\n    insecureRegistries: [registry.example.com/ns1/app1/sub]\n    blockedRegistries: [registry.example.com/ns2/app2/old]\n")
			file := filepath.Join(dir, "big.yaml")
			if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			set, err := manifest.Load([]string{file}, manifest.Options{})
			if err != nil {
				b.Fatal(err)
			}
			eng := newEngine(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := eng.Lint(&cluster.Cluster{Objects: set.Objects, Problems: set.Problems, Settings: cluster.Defaults()}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
