package kustomization

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A generator's files keep the data key written before "=", the entry's
// namespace and hash option; the kustomization's namespace and
// generatorOptions are read whatever the order of the fields.
func TestGeneratorSources(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"kustomization.yaml": `configMapGenerator:
- name: extra
  namespace: sno1
  files:
  - idms.yaml
  - renamed.yaml=sub/other.yaml
- name: hashed
  options:
    disableNameSuffixHash: true
  envs:
  - settings.env
namespace: site-ns
generatorOptions:
  disableNameSuffixHash: true
`})
	kf := Parse(filepath.Join(dir, "kustomization.yaml"))
	var got []string
	for _, s := range kf.Sources {
		got = append(got, fmt.Sprintf("%s %s %s key=%q path=%s ns=%q nohash=%t %d:%d", s.Generator, s.Name, s.Field, s.Key, s.Path, s.Namespace, s.NoHash, s.Line, s.Column))
	}
	want := []string{
		`configMapGenerator extra files key="" path=idms.yaml ns="sno1" nohash=false 5:5`,
		`configMapGenerator extra files key="renamed.yaml" path=sub/other.yaml ns="sno1" nohash=false 6:5`,
		`configMapGenerator hashed envs key="" path=settings.env ns="" nohash=true 11:5`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if kf.Namespace != "site-ns" || !kf.NoHash {
		t.Errorf("namespace %q, no hash %t; want site-ns, true", kf.Namespace, kf.NoHash)
	}
}
