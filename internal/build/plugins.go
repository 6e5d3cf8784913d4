package build

import (
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
)

// withoutPlugins serves the kustomization files of a closure without their
// external plugin entries (kustomization.Plugin): kustomize would refuse
// the whole build for one of them ("external plugins disabled"), and runs
// them only as programs, which mirrorlint never starts. The generators it
// expands and the plugins it does not run are accounted for by the caller.
type withoutPlugins struct {
	filesys.FileSystem
	files map[string][]byte // by real, cleaned path
}

func (f withoutPlugins) ReadFile(p string) ([]byte, error) {
	if data, ok := f.files[filepath.Clean(p)]; ok {
		return data, nil
	}
	return f.FileSystem.ReadFile(p)
}

// stripPlugins wraps fsys when a kustomization of kusts names external
// plugins or has patch entries to leave out (drop, by kustomization
// path); fsys itself otherwise.
func stripPlugins(fsys filesys.FileSystem, kusts []*kustomization.File, drop map[string][]kustomization.Entry) filesys.FileSystem {
	files := map[string][]byte{}
	for _, k := range kusts {
		if len(k.Plugins()) == 0 && len(drop[k.Path]) == 0 {
			continue
		}
		data, err := fsys.ReadFile(k.Path)
		if err != nil {
			continue
		}
		stripped := kustomization.Strip(k, data, drop[k.Path]...)
		if stripped == nil {
			continue
		}
		files[filepath.Clean(k.Path)] = stripped
		if real, err := filepath.EvalSymlinks(k.Path); err == nil {
			files[real] = stripped
		}
	}
	if len(files) == 0 {
		return fsys
	}
	return withoutPlugins{FileSystem: fsys, files: files}
}

// hasPlugins reports whether a kustomization of kusts names external
// plugins.
func hasPlugins(kusts []*kustomization.File) bool {
	for _, k := range kusts {
		if len(k.Plugins()) > 0 {
			return true
		}
	}
	return false
}
