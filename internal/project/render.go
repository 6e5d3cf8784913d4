package project

import (
	"errors"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"maps"
	"regexp"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

// Rendered is one cluster's render with the way back to the objects.
type Rendered struct {
	Cluster *cluster.Cluster
	Input   *check.Input
	Output  *render.Output  // nil when refused or stopped
	Refusal *render.Refusal // nil when rendered
	// Stopped is the cluster's Stopped: a component before MCO refuses the
	// input, so the nodes get nothing from it (Output and Refusal are nil).
	Stopped *cluster.Stop
}

// Render renders one cluster the way MCO would; a cluster whose input a
// component before MCO refuses (cluster.Cluster.Stopped) is not rendered,
// since no node gets what MCO would write from it.
func Render(cl *cluster.Cluster) *Rendered {
	r := &Rendered{Cluster: cl, Input: check.BuildInput(cl.Objects, cl.Settings)}
	if cl.Stopped != nil {
		r.Stopped = cl.Stopped
		return r
	}
	out, err := render.Render(r.Input.Input)
	var ref *render.Refusal
	switch {
	case errors.As(err, &ref):
		r.Refusal = ref
	case err != nil:
		r.Refusal = &render.Refusal{Reason: err.Error()}
	default:
		r.Output = out
	}
	return r
}

// Where positions a render subject (refusal or warning) in the sources;
// zero Position when the subject names no object (e.g. the release image).
func (r *Rendered) Where(s render.Subject) manifest.Position {
	o := r.Input.Object(s)
	if o == nil {
		return manifest.Position{}
	}
	return o.Locate(manifest.ParsePath(s.Path))
}

// NodeFile is one file MCO writes besides registries.conf, by its path
// relative to the -o directory of `render` (relative to /etc/containers,
// or crio/policies/<namespace>.json for /etc/crio/policies); Data is nil
// when MCO writes none.
type NodeFile struct {
	Path string
	Data []byte
}

// NodeFiles lists the optional node files of out: policy.json, the search
// drop-in, registries.d/sigstore-registries.yaml, one
// crio/policies/<namespace>.json per namespace and one
// docker/certs.d/<host[:port]>/ca.crt per registry CA (both sorted).
func NodeFiles(out *render.Output) []NodeFile {
	files := []NodeFile{
		{"policy.json", out.PolicyJSON},
		{"registries.conf.d/01-image-searchRegistries.conf", out.SearchRegistriesConf},
		{"registries.d/sigstore-registries.yaml", out.SigstoreRegistriesYAML},
	}
	for _, ns := range slices.Sorted(maps.Keys(out.CRIOPolicies)) {
		// The API server only admits DNS-1123 labels as namespaces; any
		// other name in a tree never reaches a node, and must not make the
		// file land outside the output directory.
		if !namespaceName.MatchString(ns) {
			continue
		}
		files = append(files, NodeFile{"crio/policies/" + ns + ".json", out.CRIOPolicies[ns]})
	}
	for _, dir := range slices.Sorted(maps.Keys(out.RegistryCAFiles)) {
		files = append(files, NodeFile{CertsDFile(dir), out.RegistryCAFiles[dir]})
	}
	return files
}

// CertsDFile is where `render -o` writes the CA of a registry directory,
// /etc/docker/certs.d/<dir>/ca.crt on the node.
func CertsDFile(dir string) string { return "docker/certs.d/" + dir + "/ca.crt" }

var namespaceName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// PolicyFor is the signature policy CRI-O evaluates for a pod in
// namespace: the namespace's /etc/crio/policies file when MCO writes one,
// else the node's policy.json (the template when MCO writes none); with the
// path of the file.
func PolicyFor(out *render.Output, namespace string) ([]byte, string) {
	if data, ok := out.CRIOPolicies[namespace]; ok && namespace != "" {
		return data, nodefiles.CRIOPolicyPath(namespace)
	}
	return out.NodePolicyJSON(), nodefiles.PolicyJSONPath
}
