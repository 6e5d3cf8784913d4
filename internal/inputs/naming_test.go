package inputs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func installConfigFile(name, source, mirror string) string {
	return fmt.Sprintf("apiVersion: v1\nmetadata:\n  name: %s\nimageDigestSources:\n- source: %s\n  mirrors: [%s]\n", name, source, mirror)
}

// Clusters named alike are qualified by the directory declaring them
// (relative to the root: the root's own keeps the bare name), by the
// file when others of them lie in another file of that directory; a name
// no other cluster has is kept. Clusters declared in one file only (two
// HostedClusters of two namespaces) keep one name: where they are declared
// tells them not apart.
func TestNamesQualifiedWhenAlike(t *testing.T) {
	res, dirOf := readAt(t, map[string]string{
		"install-config.yaml":              installConfigFile("ocp4", "quay.io/root", "m.example.com/root"),
		"day0/vmware/install-config.yaml":  installConfigFile("ocp4", "quay.io/vmware", "m.example.com/vmware"),
		"day0/abi/sno/install-config.yaml": installConfigFile("ocp4", "quay.io/sno", "m.example.com/sno"),
		"day0/other/install-config.yaml":   installConfigFile("lab", "quay.io/lab", "m.example.com/lab"),
		"hosted/v414.yaml":                 hostedFile("clusters", "quay.io/a", "m.example.com/a"),
		"hosted/v415.yaml":                 hostedFile("clusters", "quay.io/b", "m.example.com/b"),
		"hosted/nested/hc.yaml":            hostedFile("clusters", "quay.io/c", "m.example.com/c"),
		"hubs/east/asc.yaml":               hubFile("registry.redhat.io/x", "mirror.example.com/east"),
		"hubs/west/asc.yaml":               hubFile("registry.redhat.io/x", "mirror.example.com/west"),
		"solo/hc.yaml":                     strings.ReplaceAll(hostedFile("one", "quay.io/f", "m.example.com/f")+"---\n"+hostedFile("two", "quay.io/g", "m.example.com/g"), "name: hosted", "name: solo"),
		"two/hc.yaml":                      hostedFile("one", "quay.io/d", "m.example.com/d") + "---\n" + hostedFile("two", "quay.io/e", "m.example.com/e"),
	})
	got := map[string][]string{}
	for i, n := range res.Names(dirOf) {
		got[n] = append(got[n], mirrorsOf(res.Clusters[i])...)
	}
	want := map[string][]string{
		"install-config/ocp4":                    {"m.example.com/root"},
		"install-config/day0/vmware/ocp4":        {"m.example.com/vmware"},
		"install-config/day0/abi/sno/ocp4":       {"m.example.com/sno"},
		"install-config/lab":                     {"m.example.com/lab"},
		"hosted-cluster/hosted/v414.yaml/hosted": {"m.example.com/a"},
		"hosted-cluster/hosted/v415.yaml/hosted": {"m.example.com/b"},
		"hosted-cluster/hosted/nested/hosted":    {"m.example.com/c"},
		"ztp-spoke/hubs/east/spokes-of-agent":    {"mirror.example.com/east"},
		"ztp-spoke/hubs/west/spokes-of-agent":    {"mirror.example.com/west"},
		"hosted-cluster/solo":                    {"m.example.com/f", "m.example.com/g"},
		"hosted-cluster/two/hosted":              {"m.example.com/d", "m.example.com/e"},
	}
	if len(got) != len(want) {
		t.Errorf("names %v, want %v", got, want)
	}
	for n, m := range want {
		if !slices.Equal(got[n], m) {
			t.Errorf("%s: mirrors %q, want %q (names %v)", n, got[n], m, got)
		}
	}
}
