package benchrepo

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// Sites describes a generated fleet repository: one kustomize base and one
// overlay per site, the shape of a ZTP or Argo CD fleet repository.
type Sites struct {
	Dir string
	// Files is the number of files written: the base's kustomization and
	// resources, and per site a kustomization.yaml and a mirror.yaml patch.
	Files int
	// Sites is the number of site overlays (sites/site-0001 …); each is a
	// top-level kustomization, so a cluster of its own.
	Sites int
	// BaseMirrorObjects is how many mirror objects the base holds; every
	// site's build holds them (patched) and nothing else of a mirror kind.
	BaseMirrorObjects int
}

// SiteName is the directory of site i (1-based), relative to Sites.Dir:
// "sites/site-0001".
func SiteName(i int) string { return fmt.Sprintf("sites/site-%04d", i) }

// SiteBaseMirror is the name of the base's ImageDigestMirrorSet that every
// site patches.
const SiteBaseMirror = "release-mirrors"

var (
	sitesMu   sync.Mutex
	sitesRepo = map[int]*Sites{}
	sitesErr  = map[int]error{}
)

// GetSites returns the fleet repository of n sites, generating it on first
// use (once per test binary). Cleanup removes it.
func GetSites(n int) (*Sites, error) {
	sitesMu.Lock()
	defer sitesMu.Unlock()
	if r, ok := sitesRepo[n]; ok {
		return r, sitesErr[n]
	}
	r, err := generateSites(n)
	sitesRepo[n], sitesErr[n] = r, err
	return r, err
}

func cleanupSites() {
	sitesMu.Lock()
	defer sitesMu.Unlock()
	for k, r := range sitesRepo {
		if r != nil && r.Dir != "" {
			os.RemoveAll(r.Dir)
		}
		delete(sitesRepo, k)
	}
}

// generateSites writes the fleet: base/ with 32 workload files and two
// mirror files (an ImageDigestMirrorSet for the release payload that every
// site patches, and the usual IDMS + ITMS pair), then n overlays. Each site
// replaces the release mirror with its own registry and adds a mirror for
// its own applications through a JSON 6902 patch (mirror.yaml): the patch
// a fleet repository writes per site.
func generateSites(n int) (*Sites, error) {
	dir, err := os.MkdirTemp("", "mirrorlint-sites-")
	if err != nil {
		return nil, err
	}
	s := &Sites{Dir: dir, Sites: n}
	w := &writer{r: &Repo{Dir: dir}}
	var res []string
	w.put("base/release-mirrors.yaml", releaseMirrors(), false)
	res = append(res, "release-mirrors.yaml")
	s.BaseMirrorObjects++
	w.put("base/mirrors.yaml", Mirror(7), false)
	res = append(res, "mirrors.yaml")
	s.BaseMirrorObjects += 2
	for k := range 32 {
		res = append(res, w.workload("base", 2_000_000+k))
	}
	w.put("base/kustomization.yaml", kustomization(res, nil), false)
	for i := 1; i <= n; i++ {
		site := SiteName(i)
		w.put(site+"/mirror.yaml", sitePatch(i), false)
		w.put(site+"/kustomization.yaml", kustomization([]string{"../../base"}, []string{
			"  - path: mirror.yaml\n    target:\n      kind: ImageDigestMirrorSet\n      name: " + SiteBaseMirror,
		}), false)
	}
	if w.err != nil {
		os.RemoveAll(dir)
		return nil, w.err
	}
	s.Files = w.r.Files
	return s, nil
}

// releaseMirrors is the base's release-payload ImageDigestMirrorSet.
func releaseMirrors() string {
	return `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: ` + SiteBaseMirror + `
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - registry.fleet.example/ocp/release
  - source: quay.io/openshift-release-dev/ocp-v4.0-art-dev
    mirrors:
    - registry.fleet.example/ocp/art-dev
`
}

// sitePatch is site i's JSON 6902 patch: its own registry first for the
// release payload, and a mirror for the site's applications.
func sitePatch(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- op: add\n  path: /spec/imageDigestMirrors/0/mirrors/0\n  value: registry.site-%04d.example/ocp/release\n", i)
	fmt.Fprintf(&b, "- op: add\n  path: /spec/imageDigestMirrors/-\n  value:\n    source: quay.io/site-%04d/apps\n    mirrors:\n    - registry.site-%04d.example/apps\n", i, i)
	return b.String()
}
