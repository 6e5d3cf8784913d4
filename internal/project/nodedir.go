package project

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/atomicfile"
	"github.com/mirrorlint/mirrorlint/render"
)

// WriteNodeFiles writes every file MCO writes for out under dir, at its
// path relative to /etc/containers (crio/policies/<ns>.json for
// /etc/crio/policies), mode 0644 as on the node, each through a rename so
// that no half-written file is ever left. A file MCO does not write is
// removed if an earlier run left one, so that dir always shows what the
// node gets and nothing else.
func WriteNodeFiles(dir string, out *render.Output) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, "registries.conf"), out.RegistriesConf, 0o644); err != nil {
		return err
	}
	for _, f := range NodeFiles(out) {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if f.Data == nil {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.Write(path, f.Data, 0o644); err != nil {
			return err
		}
	}
	if err := removeStaleCRIOPolicies(dir, out); err != nil {
		return err
	}
	return removeStaleCAs(dir, out)
}

// removeStaleCAs removes the docker/certs.d/<dir>/ca.crt files (and their
// then empty directories) of registries the render no longer has a CA
// for, as the daemon deletes stale directories.
func removeStaleCAs(dir string, out *render.Output) error {
	cdir := filepath.Join(dir, "docker", "certs.d")
	entries, err := os.ReadDir(cdir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		if _, keep := out.RegistryCAFiles[e.Name()]; keep || !e.IsDir() {
			continue
		}
		if err := os.Remove(filepath.Join(cdir, e.Name(), "ca.crt")); err != nil && !os.IsNotExist(err) {
			return err
		}
		_ = os.Remove(filepath.Join(cdir, e.Name())) // only when empty
	}
	return nil
}

// removeStaleCRIOPolicies removes DIR/crio/policies/*.json files of
// namespaces the render no longer has.
func removeStaleCRIOPolicies(dir string, out *render.Output) error {
	pdir := filepath.Join(dir, "crio", "policies")
	entries, err := os.ReadDir(pdir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		ns, ok := strings.CutSuffix(e.Name(), ".json")
		if _, keep := out.CRIOPolicies[ns]; !ok || keep || e.IsDir() {
			continue
		}
		if err := os.Remove(filepath.Join(pdir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
