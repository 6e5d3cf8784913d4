package project

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// alikeTree is a repository holding two install-configs copied from one
// example (metadata.name ocp4) and two HostedClusters of one name and
// namespace in one file.
func alikeTree(t *testing.T) string {
	ic := func(mirror string) string {
		return fmt.Sprintf("apiVersion: v1\nmetadata:\n  name: ocp4\nimageDigestSources:\n- source: quay.io/openshift-release-dev/ocp-release\n  mirrors: [%s]\n", mirror)
	}
	hc := "apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedCluster\nmetadata:\n  name: hosted\n  namespace: clusters\nspec:\n  imageContentSources:\n  - source: quay.io/a\n    mirrors: [m.example.com/%s]\n"
	return testtree.Write(t, map[string]string{
		"day0/vmware/install-config.yaml":                    ic("vmware.example.com/ocp"),
		"day0/agent-based-installer/sno/install-config.yaml": ic("sno.example.com/ocp"),
		"guests/hc.yaml": fmt.Sprintf(hc, "first") + "---\n" + fmt.Sprintf(hc, "again"),
	})
}

// Clusters the inputs create with one name are each a cluster of the
// project, named by where they are declared and selected by that name or
// its end; the bare name selects none and the error lists them.
func TestCreatedClustersNamedAlike(t *testing.T) {
	dir := alikeTree(t)
	open := func(name string) (*Project, error) {
		return Open(Options{Paths: []string{dir}, Root: dir, ConfigPath: "none", Cluster: name})
	}
	p, err := open("")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, cl := range p.Clusters {
		if p.Created(cl) != nil {
			names = append(names, cl.Name)
		}
	}
	want := []string{"install-config/day0/agent-based-installer/sno/ocp4", "install-config/day0/vmware/ocp4", "hosted-cluster/hosted"}
	if !slices.Equal(names, want) {
		t.Errorf("created clusters %q, want %q", names, want)
	}
	// A HostedCluster one file declares twice is one cluster, and the run
	// says so.
	if n := p.Notices(); len(n) != 1 || !strings.Contains(n[0], "hosted-cluster/hosted is declared again at ") || !strings.Contains(n[0], "only the first is linted") {
		t.Errorf("notices %q, want one about the second HostedCluster", n)
	}
	for name, mirror := range map[string]string{
		"install-config/day0/vmware/ocp4": "vmware.example.com/ocp",
		"vmware/ocp4":                     "vmware.example.com/ocp",
		"sno/ocp4":                        "sno.example.com/ocp",
	} {
		p, err := open(name)
		if err != nil {
			t.Errorf("--cluster %s: %v", name, err)
			continue
		}
		if len(p.Clusters) != 1 || !strings.Contains(string(Render(p.Clusters[0]).Output.RegistriesConf), mirror) {
			t.Errorf("--cluster %s: %d clusters, want the one mirroring to %s", name, len(p.Clusters), mirror)
		}
	}

	// Two install-configs of one kind and name.
	dir = testtree.Write(t, map[string]string{
		"a/install-config.yaml": "apiVersion: v1\nmetadata:\n  name: ocp4\n",
		"b/install-config.yaml": "apiVersion: v1\nmetadata:\n  name: ocp4\n",
	})
	for _, name := range []string{"install-config/ocp4", "ocp4"} {
		_, err := open(name)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "did you mean install-config/a/ocp4, install-config/b/ocp4?") {
			t.Errorf("--cluster %s: %v, want a usage error naming both", name, err)
		}
	}
	for _, name := range []string{"install-config/a/ocp4", "b/ocp4"} {
		if p, err := open(name); err != nil || len(p.Clusters) != 1 {
			t.Errorf("--cluster %s: %v", name, err)
		}
	}
}

// An input its component refuses is a cluster of that input alone,
// stopped with the component's refusal, and selectable: its findings are
// reported even where no cluster of the tree reads the file (an install
// directory an overlay tree beside it leaves alone).
func TestRefusedInputIsStopped(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"install/install-config.yaml":      "apiVersion: v1\nmetadata:\n  name: lab\nimageContentSources:\n- source: quay.io/a\n  mirrors: [m.example.com/a]\nimageDigestSources:\n- source: quay.io/b\n  mirrors: [m.example.com/b]\n",
		"overlays/prod/kustomization.yaml": "resources: [idms.yaml]\n",
		"overlays/prod/idms.yaml":          "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: prod\nspec:\n  imageDigestMirrors:\n  - source: quay.io/c\n    mirrors: [m.example.com/c]\n",
	})
	for _, name := range []string{"", "install-config/lab"} {
		p, err := Open(Options{Paths: []string{dir}, Root: dir, ConfigPath: "none", Cluster: name})
		if err != nil {
			t.Fatalf("--cluster %q: %v", name, err)
		}
		var lab *cluster.Cluster
		for _, cl := range p.Clusters {
			if cl.Name == "install-config/lab" {
				lab = cl
			}
		}
		if lab == nil {
			t.Fatalf("--cluster %q: no cluster install-config/lab among %d", name, len(p.Clusters))
		}
		if len(lab.Objects) != 1 || lab.Objects[0].Kind != "InstallConfig" {
			t.Errorf("--cluster %q: the refused cluster holds %d objects, want its install-config alone", name, len(lab.Objects))
		}
		if lab.Stopped == nil || lab.Stopped.Pos.File != filepath.Join(dir, "install/install-config.yaml") ||
			!strings.HasPrefix(lab.Stopped.Reason, "openshift-install refuses this install-config, so no cluster is installed from it") {
			t.Errorf("--cluster %q: stopped %+v, want openshift-install's refusal at the file", name, lab.Stopped)
		}
	}
}
