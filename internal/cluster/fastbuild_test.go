package cluster

import (
	"encoding/json"
	"fmt"

	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// dumpClusters is every cluster of a discovery as comparable text: each
// object with its position and built content, each problem.
func dumpClusters(t *testing.T, res *Result) string {
	t.Helper()
	var b strings.Builder
	for _, c := range res.Clusters {
		fmt.Fprintf(&b, "== %s\n", c.Name)
		for _, o := range c.Objects {
			content, err := json.Marshal(o.Content)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s@%s %s\n", o.Ref(), o.Position(), content)
		}
		for _, p := range c.Problems {
			fmt.Fprintf(&b, "problem %s %s\n", p.Code, p)
		}
	}
	return b.String()
}

// discoverBoth discovers root with fast builds off, then on, the loader
// keeping u of the unmodelled kinds, and returns both dumps and the second
// discovery's stats.
func discoverBoth(t *testing.T, root string, u manifest.Unmodelled) (full, fast string, st Stats) {
	t.Helper()
	opts := Options{Paths: []string{root}, Root: root, Load: manifest.Options{Unmodelled: u}}
	noFast := opts
	noFast.noFastBuilds = true
	res, err := Discover(noFast)
	if err != nil {
		t.Fatal(err)
	}
	full = dumpClusters(t, res)
	res, err = Discover(opts)
	if err != nil {
		t.Fatal(err)
	}
	return full, dumpClusters(t, res), res.Stats
}

// fleetTree writes a base and n site overlays; base holds mirror objects
// among workloads in every file shape the filter meets.
func fleetTree(t *testing.T, base map[string]string, baseKust string, sites int, site func(i int) map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{"base/kustomization.yaml": baseKust}
	for k, v := range base {
		files["base/"+k] = v
	}
	for i := 1; i <= sites; i++ {
		for k, v := range site(i) {
			files[fmt.Sprintf("sites/s%d/%s", i, k)] = v
		}
	}
	testtree.WriteAt(t, root, files)
	return root
}

// jsonSite is an overlay appending a mirror entry with a JSON 6902 patch.
func jsonSite(i int) map[string]string {
	return map[string]string{
		"kustomization.yaml": "resources: [../../base]\npatches:\n- path: mirror.yaml\n  target: {kind: ImageDigestMirrorSet, name: release}\n",
		"mirror.yaml":        fmt.Sprintf("- op: add\n  path: /spec/imageDigestMirrors/-\n  value: {source: quay.io/site%d/apps, mirrors: [registry.site%d.example/apps]}\n", i, i),
	}
}

// TestFastBuildSameAsFull: every shape of base gives the same clusters,
// object for object and position for position, with fast builds as with
// full ones; the fast path ran where the conditions hold.
func TestFastBuildSameAsFull(t *testing.T) {
	shapes := []struct {
		name     string
		base     map[string]string
		baseKust string
		site     func(i int) map[string]string
		fast     bool
		// fastNone: fast only when the loader keeps no unmodelled kind.
		fastNone bool
	}{{
		name: "mixed files",
		base: map[string]string{
			"idms.yaml":   testtree.ReleaseIDMS,
			"deploy.yaml": testtree.AppDeployment,
			// A mirror object between workloads, CRLF line ends, comments.
			"all.yaml": strings.ReplaceAll("# workloads\n"+strings.Replace(testtree.AppDeployment, "name: app", "name: app2", 1)+"---\n"+strings.Replace(testtree.ReleaseIDMS, "name: release", "name: extra", 1)+"--- # a comment\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n", "\n", "\r\n"),
			// A List holding a mirror object among others, and one without.
			"list.yaml":  "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: s}}\n- {apiVersion: config.openshift.io/v1, kind: ImageTagMirrorSet, metadata: {name: tags}, spec: {imageTagMirrors: [{source: quay.io/t, mirrors: [m.example/t]}]}}\n",
			"list2.yaml": "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: s2}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c2}\n",
			// A block scalar kept last, with its final newlines.
			"keep.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: k}\ndata:\n  a: |+\n    x\n\n---\napiVersion: config.openshift.io/v1\nkind: Image\nmetadata: {name: cluster}\nspec:\n  additionalTrustedCA: {name: ca}\n",
		},
		baseKust: "resources: [idms.yaml, deploy.yaml, all.yaml, list.yaml, list2.yaml, keep.yaml]\n",
		site:     jsonSite,
		fast:     true,
	}, {
		name: "base transformations",
		base: map[string]string{"idms.yaml": testtree.ReleaseIDMS, "deploy.yaml": testtree.AppDeployment},
		baseKust: `namePrefix: fleet-
namespace: infra
commonLabels: {team: platform}
resources: [idms.yaml, deploy.yaml]
configMapGenerator:
- name: settings
  literals: [A=1]
patches:
- patch: '[{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "quay.io/acme/app:v2"}]'
  target: {kind: Deployment}
`,
		site: func(i int) map[string]string {
			return map[string]string{
				"kustomization.yaml": "resources: [../../base, own.yaml]\npatches:\n- target: {kind: ImageDigestMirrorSet, name: fleet-release}\n  patch: |-\n    apiVersion: config.openshift.io/v1\n    kind: ImageDigestMirrorSet\n    metadata: {name: fleet-release}\n    spec:\n      imageDigestMirrors:\n      - {source: quay.io/x, mirrors: [m.example/x]}\n",
				"own.yaml":           strings.Replace(testtree.ReleaseIDMS, "name: release", fmt.Sprintf("name: own-%d", i), 1),
			}
		},
		// The base generates a ConfigMap: while the loader keeps
		// ConfigMaps whole (UnmodelledImages), such a closure is built in
		// full.
		fastNone: true,
	}, {
		// The base copies a ConfigMap value into its mirror object, and
		// generates none: ConfigMaps stay in fast builds, so the
		// replacement finds its source in the fast build too.
		name: "replacement from a ConfigMap",
		base: map[string]string{"idms.yaml": testtree.ReleaseIDMS, "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: registry}\ndata: {host: mirror.corp.example/ocp/release}\n"},
		baseKust: `resources: [idms.yaml, cm.yaml]
replacements:
- source: {kind: ConfigMap, name: registry, fieldPath: data.host}
  targets:
  - select: {kind: ImageDigestMirrorSet}
    fieldPaths: [spec.imageDigestMirrors.0.mirrors.0]
`,
		site: jsonSite,
		fast: true,
	}, {
		// The base does not build on its own (two Deployments with one
		// id): every overlay reports the failure, as a full build would.
		name:     "broken base",
		base:     map[string]string{"idms.yaml": testtree.ReleaseIDMS, "a.yaml": testtree.AppDeployment, "b.yaml": testtree.AppDeployment},
		baseKust: "resources: [idms.yaml, a.yaml, b.yaml]\n",
		site:     jsonSite,
	}, {
		// Overlays that rename, or add a workload of their own, or patch
		// a workload, are built in full.
		name:     "overlays outside the conditions",
		base:     map[string]string{"idms.yaml": testtree.ReleaseIDMS, "deploy.yaml": testtree.AppDeployment},
		baseKust: "resources: [idms.yaml, deploy.yaml]\n",
		site: func(i int) map[string]string {
			switch i % 3 {
			case 0:
				return map[string]string{"kustomization.yaml": "namePrefix: x-\nresources: [../../base]\n"}
			case 1:
				return map[string]string{"kustomization.yaml": "resources: [../../base, d.yaml]\n", "d.yaml": strings.Replace(testtree.AppDeployment, "name: app", "name: own", 1)}
			}
			return map[string]string{"kustomization.yaml": "resources: [../../base]\npatches:\n- patch: '[{\"op\": \"add\", \"path\": \"/spec/replicas\", \"value\": 2}]'\n  target: {name: app}\n"}
		},
	}}
	for _, sh := range shapes {
		// With the workloads' images kept too (image-pull-fails on), the
		// overlays take them from the base's own build.
		for _, u := range []manifest.Unmodelled{manifest.UnmodelledNone, manifest.UnmodelledImages} {
			t.Run(fmt.Sprintf("%s/unmodelled-%d", sh.name, u), func(t *testing.T) {
				root := fleetTree(t, sh.base, sh.baseKust, 3, sh.site)
				full, fast, st := discoverBoth(t, root, u)
				if full != fast {
					t.Errorf("fast builds differ from full builds:\n--- full\n%s\n--- fast\n%s", full, fast)
				}
				if got := st.FastBuilds > 0; got != (sh.fast || sh.fastNone && u == manifest.UnmodelledNone) {
					t.Errorf("fast builds %d, want fast: %v (stats %+v)", st.FastBuilds, sh.fast, st)
				}
				if sh.name != "broken base" && !strings.Contains(full, "ImageDigestMirrorSet") {
					t.Errorf("no mirror object built:\n%s", full)
				}
				if u == manifest.UnmodelledImages && sh.base["deploy.yaml"] != "" && sh.name != "broken base" && !strings.Contains(full, "Deployment/") {
					t.Errorf("no workload built:\n%s", full)
				}
			})
		}
	}
}
