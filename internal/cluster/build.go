package cluster

import (
	"bytes"
	"fmt"
	"path/filepath"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// originOption is kustomize's buildMetadata switch that annotates every
// output object with the file it came from.
const originOption = "originAnnotations"

// originFS is the real file system, except that the top-level
// kustomization is served with buildMetadata: [originAnnotations] added:
// kustomize has no API option for it, and the user's file must not change.
type originFS struct {
	filesys.FileSystem
	path string // the real (symlink-free) path of the kustomization file
	data []byte
}

func (f originFS) ReadFile(p string) ([]byte, error) {
	if filepath.Clean(p) == f.path {
		return f.data, nil
	}
	return f.FileSystem.ReadFile(p)
}

// withOriginAnnotations returns the kustomization text with the origin
// option on; nil when the file does not parse (the build reports that).
func withOriginAnnotations(data []byte) []byte {
	rn, err := yaml.Parse(string(data))
	if err != nil {
		return nil
	}
	list, err := rn.Pipe(yaml.LookupCreate(yaml.SequenceNode, "buildMetadata"))
	if err != nil || list == nil {
		return nil
	}
	vals, _ := list.ElementValues("")
	for _, v := range vals {
		if v == originOption {
			return data
		}
	}
	if err := list.PipeE(yaml.Append(yaml.NewScalarRNode(originOption).YNode())); err != nil {
		return nil
	}
	s, err := rn.String()
	if err != nil {
		return nil
	}
	return []byte(s)
}

// built is one kustomize build read back as objects.
type built struct {
	Set *manifest.Set
	// Origins holds, per output document, the origin path as kustomize
	// wrote it (relative to the built directory), "" when unknown.
	Origins []string
}

// build runs kustomize on kf's directory in-process, the way
// `kustomize build DIR` would (same load restrictions, no plugins, no
// network), and reads the output with the manifest loader under name.
func build(kf *kustFile, name string, opts manifest.Options) (*built, error) {
	disk := filesys.MakeFsOnDisk()
	fs := filesys.FileSystem(disk)
	real, err := filepath.EvalSymlinks(kf.Path)
	if err == nil {
		if data, err := disk.ReadFile(real); err == nil {
			if patched := withOriginAnnotations(data); patched != nil {
				fs = originFS{FileSystem: disk, path: real, data: patched}
			}
		}
	}
	o := krusty.MakeDefaultOptions()
	o.LoadRestrictions = types.LoadRestrictionsRootOnly
	m, err := krusty.MakeKustomizer(o).Run(fs, kf.Dir)
	if err != nil {
		return nil, err
	}
	b := &built{}
	for _, r := range m.Resources() {
		path := ""
		if or, err := r.GetOrigin(); err == nil && or != nil && or.Repo == "" {
			path = or.Path
		}
		b.Origins = append(b.Origins, path)
	}
	if err := m.RemoveOriginAnnotations(); err != nil {
		return nil, fmt.Errorf("removing origin annotations: %w", err)
	}
	out, err := m.AsYaml()
	if err != nil {
		return nil, err
	}
	b.Set, err = manifest.LoadReader(name, bytes.NewReader(out), opts)
	return b, err
}
