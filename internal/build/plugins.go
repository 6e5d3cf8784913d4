package build

import (
	"path/filepath"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// withoutPlugins serves the kustomization files of a closure without their
// external plugin entries (kustomization.Plugin) and the entries no build
// holds (kustomization.File.LeftOut): kustomize would refuse the whole
// build for one of them ("external plugins disabled", "must specify
// --enable-helm", a fetch the access layer refuses), and runs plugins
// only as programs, which mirrorlint never starts. The generators it
// expands and the entries it does not build are accounted for by the
// caller.
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
// plugins, has entries no build holds, or has patch entries to leave out
// (drop, by kustomization path); fsys itself otherwise. The stripped
// texts are read and checked through guard, as kustomize's reads are.
func stripPlugins(fsys filesys.FileSystem, guard *safefs.KustomizeFS, kusts []*kustomization.File, drop map[string][]kustomization.Entry) filesys.FileSystem {
	files := map[string][]byte{}
	for _, k := range kusts {
		if !stripped(k) && len(drop[k.Path]) == 0 {
			continue
		}
		data, err := guard.ReadStripped(k.Path, func(data []byte) []byte { return kustomization.Strip(k, data, drop[k.Path]...) })
		if err != nil {
			continue // the build reads it again, and fails where it should
		}
		files[filepath.Clean(k.Path)] = data
		if real, err := filepath.EvalSymlinks(k.Path); err == nil {
			files[real] = data
		}
	}
	if len(files) == 0 {
		return fsys
	}
	return withoutPlugins{FileSystem: fsys, files: files}
}

// hasStripped reports whether a kustomization of kusts names external
// plugins or entries no build holds: its builds are always full ones, of
// the stripped text.
func hasStripped(kusts []*kustomization.File) bool {
	return slices.ContainsFunc(kusts, stripped)
}

// stripped reports whether builds read k without some of its entries.
func stripped(k *kustomization.File) bool {
	return len(k.Plugins()) > 0 || len(k.LeftOut()) > 0
}
