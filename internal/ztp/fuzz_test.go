package ztp

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FuzzExpand feeds arbitrary generators and source CRs to the expander:
// it must not panic or loop, and every node of every object it produces
// must say which file it comes from.
func FuzzExpand(f *testing.F) {
	for _, g := range []struct{ gen, cr string }{
		{"ran/common-ranGen.yaml", "ran/source-crs/disconnected-registry/DisconnectedIDMS.yaml"},
		{"hub/acm-common.yaml", "hub/source-crs/MachineConfig.yaml"},
		{"hub/acm-common.yaml", "hub/source-crs/DisconnectedIDMS.yaml"},
	} {
		gen, err := os.ReadFile(filepath.Join("testdata", g.gen))
		if err != nil {
			f.Fatal(err)
		}
		cr, err := os.ReadFile(filepath.Join("testdata", g.cr))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(gen), string(cr))
	}
	f.Add("apiVersion: ran.openshift.io/v1\nkind: PolicyGenTemplate\nmetadata: {name: a, namespace: b}\nspec: {sourceFiles: [{fileName: x.yaml, policyName: p, spec: &a {k: *a}}]}", "a: &b [*b]")
	f.Fuzz(func(t *testing.T, gen, cr string) {
		var doc yaml.Node
		if yaml.Unmarshal([]byte(gen), &doc) != nil {
			return
		}
		src := memSource{}
		for _, name := range []string{"x.yaml", "DisconnectedIDMS.yaml", "disconnected-registry/DisconnectedIDMS.yaml", "ClusterLogForwarder.yaml", "MachineConfigPool.yaml", "MachineConfig.yaml", "Missing.yaml"} {
			src[name] = cr
		}
		pols, _ := Expand("gen.yaml", &doc, src)
		for _, p := range pols {
			for _, o := range p.Objects {
				checkTagged(t, o, o.Node, 0)
			}
		}
	})
}

func checkTagged(t *testing.T, o *Object, n *yaml.Node, depth int) {
	if n == nil || depth > maxDepth+1 {
		return
	}
	if _, ok := o.Files[n]; !ok {
		t.Fatalf("a node at %d:%d has no file", n.Line, n.Column)
	}
	for _, c := range n.Content {
		checkTagged(t, o, c, depth+1)
	}
}
