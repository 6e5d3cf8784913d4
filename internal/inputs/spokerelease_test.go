package inputs

import (
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// releaseSite is a ClusterInstance of the ClusterImageSet "spoke-release",
// whose release image is tag, with installConfigOverrides json ("" for
// none), installed through a hub mirroring quay.io/acme and quay.io/other;
// the hub's mirror for quay.io/other is on line 15 of hub.yaml.
func releaseSite(tag, json string) map[string]string {
	site := imageSetSite("sno1", "spoke-release")
	if json != "" {
		site += "  installConfigOverrides: '" + json + "'\n"
	}
	return map[string]string{
		"site.yaml": site,
		"cis.yaml":  imageSet("spoke-release", "quay.io/openshift-release-dev/ocp-release:"+tag),
		"hub.yaml": mirrorsCM("custom-registries", "multicluster-engine",
			"    [[registry]]\n    location = \"quay.io/acme\"\n    [[registry.mirror]]\n    location = \"hub.example.com/acme\"\n"+
				"    [[registry]]\n    location = \"quay.io/other\"\n    [[registry.mirror]]\n    location = \"hub.example.com/other\"\n") +
			"---\napiVersion: agent-install.openshift.io/v1beta1\nkind: AgentServiceConfig\nmetadata:\n  name: agent\nspec:\n  mirrorRegistryRef:\n    name: custom-registries\n",
	}
}

// objectNames are the kinds and names of c's mirror objects.
func objectNames(c *Cluster) []string {
	var out []string
	for _, o := range c.Objects {
		out = append(out, string(o.Kind)+"/"+o.Name)
	}
	return out
}

// A spoke's release decides what assisted-service and the installer
// write: before 4.14.0 the hub's mirrors are imageContentSources, one
// ImageContentSourcePolicy each (image-policy-<i>), and the bootstrap file
// has no blocked line; from 4.14.0, whatever the patch or a pre-release
// suffix, the IDMS image-digest-mirror. Release 4.10, not modelled, is
// checked as 4.12 and gets the ICSPs too.
func TestSpokeObjectsByRelease(t *testing.T) {
	icsps := []string{"ImageContentSourcePolicy/image-policy-0", "ImageContentSourcePolicy/image-policy-1"}
	idms := []string{"ImageDigestMirrorSet/image-digest-mirror"}
	for tag, want := range map[string][]string{
		"4.13.99-x86_64":     icsps,
		"4.13.0-x86_64":      icsps,
		"4.10.3-x86_64":      icsps,
		"4.14.0-rc.1-x86_64": idms,
		"4.14.0-x86_64":      idms,
		"4.20.2-x86_64":      idms,
	} {
		res := readTree(t, releaseSite(tag, ""), render.Version{})
		c := onlySpoke(t, res)
		if got := objectNames(c); !slices.Equal(got, want) {
			t.Errorf("%s: objects %v, want %v", tag, got, want)
		}
		if got := mirrorsOf(c); !slices.Equal(got, []string{"hub.example.com/acme", "hub.example.com/other"}) {
			t.Errorf("%s: mirrors %v, want the hub's", tag, got)
		}
		old := want[0] == icsps[0]
		if strings.Contains(string(c.Bootstrap), "blocked") || len(c.Bootstrap) == 0 {
			t.Errorf("%s: bootstrap file %q, want the hub's tables without a blocked line", tag, c.Bootstrap)
		}
		if r := c.Reason(); strings.Contains(r, "imageContentSources (OpenShift 4.") != old {
			t.Errorf("%s: reason %q", tag, r)
		}
		if old {
			// Each ICSP sits at the hub's values it copies.
			at := c.Objects[1].Locate(manifest.Path{"spec", "repositoryDigestMirrors", 0, "mirrors", 0})
			if !strings.HasSuffix(at.File, "hub.yaml") || at.Line != 15 {
				t.Errorf("%s: image-policy-1's mirror at %v, want hub.yaml:15", tag, at)
			}
		}
	}
}

// Before 4.14 the overrides are decoded over the hub's imageContentSources
// as they are over imageDigestSources from 4.14: an entry without mirrors
// keeps the hub's, the list's length is the override's, the installer
// checks the names; a mirror listed twice is no refusal (an ICSP's mirrors
// are no set).
func TestSpokeContentOverridesBefore414(t *testing.T) {
	res := readTree(t, releaseSite("4.13.12-x86_64",
		`{"imageContentSources":[{"source":"quay.io/acme"},{"source":"quay.io/new","mirrors":["m.example.com/new","m.example.com/new","M.example.com/Bad"]}]}`), render.Version{})
	c := onlySpoke(t, res)
	if got, want := mirrorsOf(c), []string{"hub.example.com/acme", "m.example.com/new", "m.example.com/new", "M.example.com/Bad"}; !slices.Equal(got, want) {
		t.Errorf("mirrors %v, want %v", got, want)
	}
	var got []string
	for _, f := range rulesOf(res, RuleOverridesReplaces, RuleOverridesInherits, RuleInstallMirrorFormat, RuleInstallDuplicate, RuleInstallUnknownField) {
		got = append(got, f.Rule+": "+f.Message[:strings.Index(f.Message, ":")])
	}
	want := []string{
		RuleOverridesInherits + ": installConfigOverrides.imageContentSources[0] has no mirrors",
		RuleInstallMirrorFormat + ": installConfigOverrides.imageContentSources[1].mirrors[2]",
		RuleOverridesReplaces + ": installConfigOverrides.imageContentSources replaces the hub mirrors for this spoke",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%q\nwant\n%q", got, want)
	}
}

// Before 4.14 an overrides' imageDigestSources reaches the install-config
// beside the hub's imageContentSources, and the installer, which has no
// such field, warns and drops it (4.12 in its own spelling): the spoke
// keeps the hub's mirrors alone, the dropped entries are not checked, and
// nothing is refused.
func TestSpokeDigestOverridesDroppedBefore414(t *testing.T) {
	for tag, warning := range map[string]string{
		"4.13.12-x86_64": "failed to parse first occurrence of unknown field",
		"4.12.70-x86_64": "failed to parse first occurence of unknown field",
	} {
		res := readTree(t, releaseSite(tag, `{"imageDigestSources":[{"source":"quay.io/new","mirrors":["M.example.com/Bad"]}]}`), render.Version{})
		c := onlySpoke(t, res)
		if c.Refused || len(c.IDMSs) != 0 || !slices.Equal(mirrorsOf(c), []string{"hub.example.com/acme", "hub.example.com/other"}) {
			t.Errorf("%s: refused %v, IDMSs %d, mirrors %v; want the hub's ICSPs", tag, c.Refused, len(c.IDMSs), mirrorsOf(c))
		}
		got := rulesOf(res, RuleInstallUnknownField, RuleInstallMirrorFormat, RuleOverridesReplaces)
		if len(got) != 1 || got[0].Rule != RuleInstallUnknownField || got[0].Pos.Line != 9 ||
			!strings.HasPrefix(got[0].Message, "installConfigOverrides.imageDigestSources is not read by openshift-install 4.1") ||
			!strings.Contains(got[0].Message, warning) || !strings.Contains(got[0].Message, "so quay.io/new gets no mirror from it") {
			t.Errorf("%s: findings %v, want one %s on line 9 quoting %q", tag, got, RuleInstallUnknownField, warning)
		}
	}
}

// From 4.14 imageContentSources in the overrides meet the hub's
// imageDigestSources and the installer refuses both; without a hub mirror
// it reads them alone, deprecated, into one ICSP image-policy whose own
// fields sit at the key, where the deprecation is said.
func TestSpokeContentOverridesFrom414(t *testing.T) {
	json := `{"imageContentSources":[{"source":"quay.io/a","mirrors":["m.example.com/a"]},{"source":"quay.io/b","mirrors":["m.example.com/b"]}]}`
	res := readTree(t, releaseSite("4.16.2-x86_64", json), render.Version{})
	if both := rulesOf(res, RuleInstallBothLists); len(both) != 1 || !onlySpoke(t, res).Refused {
		t.Errorf("with the hub's mirrors: %v, want one %s and the spoke refused", both, RuleInstallBothLists)
	}
	files := releaseSite("4.16.2-x86_64", json)
	delete(files, "hub.yaml")
	res = readTree(t, files, render.Version{})
	c := onlySpoke(t, res)
	if got := objectNames(c); !slices.Equal(got, []string{"ImageContentSourcePolicy/image-policy"}) || !slices.Equal(mirrorsOf(c), []string{"m.example.com/a", "m.example.com/b"}) {
		t.Fatalf("objects %v, mirrors %v; want image-policy with both entries", got, mirrorsOf(c))
	}
	dep := rulesOf(res, RuleInstallDeprecated)
	if len(dep) != 1 || dep[0].Pos != c.Objects[0].Locate(manifest.Path{"kind"}) {
		t.Errorf("deprecation %v, want one at the ICSP's own place %v", dep, c.Objects[0].Locate(manifest.Path{"kind"}))
	}
}

// A release the run is given is every spoke's, as it is every cluster's:
// a 4.9 set's spoke is modelled and checked as 4.16 (an IDMS), its note
// naming the release used and why; a 4.20 set's spoke read as 4.13 gets
// ICSPs. Without a given release the set's stands.
func TestSpokeReleaseGivenToTheRun(t *testing.T) {
	res := readTree(t, releaseSite("4.9.59-x86_64", ""), render.Version{Minor: 16, Patch: -1})
	c := onlySpoke(t, res)
	if c.Version != (render.Version{Minor: 16, Patch: -1}) || len(c.IDMSs) != 1 {
		t.Errorf("version %v, IDMSs %d; want 4.16 and the IDMS", c.Version, len(c.IDMSs))
	}
	n := releaseNotes(res)
	if len(n) != 1 || !strings.Contains(n[0].Message, "names OpenShift 4.9, outside the releases mirrorlint models (4.12–4.21): the cluster is checked and rendered as 4.16, the release the run is given (--openshift-version or openshiftVersion)") {
		t.Errorf("notes %v", n)
	}
	res = readTree(t, releaseSite("4.9.59-x86_64", ""), render.Version{})
	if n := releaseNotes(res); len(n) != 1 || !strings.HasSuffix(n[0].Message, "checked and rendered as 4.12, whose MCO and installer may differ from its own") {
		t.Errorf("without a given release: notes %v", n)
	}
	if c := onlySpoke(t, readTree(t, releaseSite("4.20.2-x86_64", ""), render.Version{Minor: 13, Patch: 30})); len(c.ICSPs) != 2 || len(c.IDMSs) != 0 {
		t.Errorf("4.20 set read as 4.13.30: ICSPs %d, IDMSs %d; want 2 and none", len(c.ICSPs), len(c.IDMSs))
	}
}

// A HostedCluster's release image is its release unless the run is given
// one, which its note then names, as a spoke's does.
func TestHostedReleaseGivenToTheRun(t *testing.T) {
	hc := "apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedCluster\nmetadata:\n  name: h\n  namespace: clusters\nspec:\n  release:\n    image: quay.io/openshift-release-dev/ocp-release:4.10.3-x86_64\n"
	for given, want := range map[render.Version]string{
		{}:                     "checked and rendered as 4.12, whose MCO",
		{Minor: 18, Patch: -1}: "checked and rendered as 4.18, the release the run is given",
	} {
		res := readTree(t, map[string]string{"hc.yaml": hc}, given)
		used := given
		if used.IsZero() {
			used = render.Version{Minor: 12, Patch: -1}
		}
		if n := releaseNotes(res); len(n) != 1 || !strings.Contains(n[0].Message, want) || res.Clusters[0].Version != used {
			t.Errorf("given %v: version %v, notes %v; want %v and %q", given, res.Clusters[0].Version, n, used, want)
		}
	}
}
