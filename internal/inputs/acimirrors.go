package inputs

import (
	"fmt"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
)

// aciReader names, in the table checks, the spoke an AgentClusterInstall's
// own registries.conf is for: the discovery ISO takes its mirrors from the
// InfraEnv, not from there.
var aciReader = confReader{"the spoke", "the spoke",
	"the spoke never uses this mirror (the discovery ISO takes the InfraEnv's mirrors, not these)"}

// ownMirrors reads the ConfigMap the hand-written AgentClusterInstall a
// names in spec.mirrorRegistryRef as assisted-service does
// (mirrorregistry.ProcessMirrorRegistryConfig, then the install-config
// builder's setImageDigestMirrorSet): a registries.conf there replaces
// the hub's mirrors for the spoke, merged with nothing; an empty one
// leaves the hub's; no registries.conf key, or a file GetImageRegistries
// cannot read (bad TOML, no [[registry]] table, no mirror), is an input
// error that keeps the spoke from installing. b is the spoke's base, nil
// when the hub's is the spoke's; own are the ConfigMap read, if any. A
// ConfigMap the tree does not hold gives an empty base: its mirrors are
// unknown, and the hub's are not the spoke's; so does one refused, over
// which the annotation is still checked: both are to fix.
func ownMirrors(fs *findings, a *sites.Site, cms []*manifest.Object) (b *spokeBase, own []*manifest.Object, refused bool) {
	ref := a.MirrorRegistryRef
	if ref == nil {
		return nil, nil, false
	}
	r := registriesConf{Name: ref.Name}
	r.read(pickNamespaced(cms, ref.Name, ref.Namespace, a.Object.File))
	empty := &spokeBase{from: "mirrorRegistryRef"}
	if r.ConfigMap == nil {
		return empty, nil, false
	}
	own = []*manifest.Object{r.ConfigMap}
	refPos := a.Object.Locate(ref.Path.Child("name"))
	refusal := fmt.Sprintf("assisted-service refuses the AgentClusterInstall naming it at %s:%d (SpecSynced=False, InputError), so the spoke never installs", refPos.File, refPos.Line)
	switch {
	case r.Missing:
		fs.add(r.ConfigMap.LocateKey(manifest.Path{"data"}), check.Error, RuleHubConfigMap, assisted,
			"ConfigMap %s/%s does not contain registries.conf key: %s; add data.registries.conf", ref.Namespace, ref.Name, refusal)
		return empty, own, true
	case r.Empty:
		return nil, own, false
	case r.Err != "":
		fix := "fix the registries.conf"
		if strings.HasPrefix(r.Err, "failed to find registry key") {
			fix = "write it in the v2 format ([[registry]] location = source, [[registry.mirror]] location = mirror)"
		}
		fs.add(r.confKey(), check.Error, RuleHubConfigMap, assisted, "%s: %s; %s", r.Err, refusal, fix)
		return empty, own, true
	}
	r.checkTables(fs, aciReader)
	return &spokeBase{entries: r.Digest, from: "mirrorRegistryRef"}, own, false
}

// pickNamespaced finds the ConfigMap name in namespace ns for a reference
// written in file from: the nearest of those of that name in ns or in no
// namespace (one the kustomization or Argo CD sets).
func pickNamespaced(cms []*manifest.Object, name, ns, from string) *manifest.Object {
	var cands []*manifest.Object
	for _, cm := range cms {
		got, _ := manifest.NestedString(cm.Content, "metadata", "namespace")
		if cm.Name == name && (got == "" || ns == "" || got == ns) {
			cands = append(cands, cm)
		}
	}
	return manifest.Nearest(from, cands)
}
