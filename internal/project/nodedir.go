package project

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/render"
)

// WriteNodeFiles writes every file MCO writes for out under dir, at its
// path relative to /etc/containers (crio/policies/<ns>.json for
// /etc/crio/policies), mode 0644 as on the node, each through a rename so
// that no half-written file is ever left. A file MCO does not write is
// removed if an earlier run left one, so that dir always shows what the
// node gets and nothing else.
func WriteNodeFiles(dir string, out *render.Output) error {
	o, err := safefs.NewOutDir(dir)
	if err != nil {
		return err
	}
	if err := o.WriteFile("registries.conf", out.RegistriesConf, 0o644); err != nil {
		return err
	}
	for _, f := range NodeFiles(out) {
		if f.Data == nil {
			if err := o.Remove(f.Path); err != nil {
				return err
			}
			continue
		}
		if err := o.WriteFile(f.Path, f.Data, 0o644); err != nil {
			return err
		}
	}
	if err := removeStaleCRIOPolicies(o, out); err != nil {
		return err
	}
	return removeStaleCAs(o, out)
}

// removeStaleCAs removes the docker/certs.d/<dir>/ca.crt files (and their
// then empty directories) of registries the render no longer has a CA
// for, as the daemon deletes stale directories. Only ca.crt, the one file
// written there, is ever removed, and never through a link.
func removeStaleCAs(o *safefs.OutDir, out *render.Output) error {
	for _, e := range o.ReadDir("docker/certs.d") {
		if _, keep := out.RegistryCAFiles[e.Name()]; keep || !e.IsDir() || !safefs.ValidName(e.Name()) {
			continue
		}
		rel := "docker/certs.d/" + e.Name()
		if err := o.Remove(rel + "/ca.crt"); err != nil {
			return err
		}
		o.RemoveEmptyDir(rel)
	}
	return nil
}

// removeStaleCRIOPolicies removes DIR/crio/policies/*.json files of
// namespaces the render no longer has.
func removeStaleCRIOPolicies(o *safefs.OutDir, out *render.Output) error {
	for _, e := range o.ReadDir("crio/policies") {
		ns, ok := strings.CutSuffix(e.Name(), ".json")
		if _, keep := out.CRIOPolicies[ns]; !ok || keep || e.IsDir() || !safefs.ValidName(e.Name()) {
			continue
		}
		if err := o.Remove("crio/policies/" + e.Name()); err != nil {
			return err
		}
	}
	return nil
}
