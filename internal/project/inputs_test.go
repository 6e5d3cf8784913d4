package project

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
)

// The clusters the inputs corpus's trees create are clusters of the
// project, selectable by name, and render the expected registries.conf.
func TestCreatedClusters(t *testing.T) {
	root := corpus.SharedRoot + "/corpus/public/inputs"
	for dir, name := range map[string]string{
		"0001": "install-config/pub-51",
		"0007": "ztp-spoke/ran-nyc-57",
		"0008": "ztp-spoke/spokes-of-agent",
		"0009": "hosted-cluster/hc-dev-59",
	} {
		want, err := os.ReadFile(filepath.Join(root, dir, "expected", "registries.conf"))
		if err != nil {
			t.Skipf("inputs corpus not present: %v", err)
		}
		p, err := Open(Options{Paths: []string{filepath.Join(root, dir, "manifests")}, ConfigPath: "none",
			OpenShiftVersion: "4.20", Cluster: name})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if len(p.Clusters) != 1 || p.Clusters[0].Name != name || p.Created(p.Clusters[0]) == nil {
			t.Fatalf("%s: clusters %v, want only %s", dir, p.Clusters, name)
		}
		r := Render(p.Clusters[0])
		if r.Output == nil || !bytes.Equal(r.Output.RegistriesConf, want) {
			t.Errorf("%s: registries.conf\n%s\nwant\n%s", dir, r.Output.RegistriesConf, want)
		}
	}
	// A refused input is a cluster of its inputs alone, stopped at the
	// input with the component's refusal: nothing is written from it.
	p, err := Open(Options{Paths: []string{filepath.Join(root, "0004", "manifests")}, ConfigPath: "none",
		Cluster: "hosted-cluster/hc-prod-54"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Clusters) != 1 {
		t.Fatalf("0004: clusters %v, want the refused HostedCluster's", p.Clusters)
	}
	cl := p.Clusters[0]
	for _, o := range cl.Objects {
		if o.Kind == "ImageDigestMirrorSet" {
			t.Errorf("0004: the refused HostedCluster's cluster holds %s, which HyperShift never writes", o.Ref())
		}
	}
	if cl.Stopped == nil || !strings.HasPrefix(cl.Stopped.Reason, "HyperShift refuses this HostedCluster") || cl.Stopped.Pos.Line == 0 {
		t.Errorf("0004: stopped %+v, want HyperShift's refusal at the HostedCluster", cl.Stopped)
	}
}
