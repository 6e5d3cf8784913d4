package inputs

import (
	"net/url"
	"path"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// KindApplication is Argo CD's Application (argoproj.io/v1alpha1).
const KindApplication = "Application"

// argoSync is one directory an Argo CD Application syncs into a cluster.
type argoSync struct {
	App     *manifest.Object
	Dir     string // spec.source(s).path, cleaned, relative to the repository
	Recurse bool   // directory.recurse: the files below Dir too
}

// argoSyncsTo returns the directories the tree's Applications sync into
// hosted cluster h: an Application whose spec.destination.name is the
// HostedCluster's name, or whose spec.destination.server is its API
// server (https://api.<name>.<baseDomain>[:port], HyperShift's default
// name). Each spec.source and spec.sources[] entry with a path counts;
// the repository is taken to be the one the tree is (repoURL is not
// compared).
func argoSyncsTo(h *Hosted, apps []*manifest.Object) []argoSync {
	var out []argoSync
	for _, app := range apps {
		if app.APIVersion != "argoproj.io/v1alpha1" || !argoTargets(app, h) {
			continue
		}
		spec, _ := app.Content["spec"].(map[string]any)
		sources := []any{spec["source"]}
		if list, ok := spec["sources"].([]any); ok {
			sources = append(sources, list...)
		}
		for _, s := range sources {
			src, _ := s.(map[string]any)
			p, _ := src["path"].(string)
			if p == "" {
				continue
			}
			d, _ := src["directory"].(map[string]any)
			r, _ := d["recurse"].(bool)
			out = append(out, argoSync{App: app, Dir: strings.Trim(path.Clean("/"+p), "/"), Recurse: r})
		}
	}
	return out
}

func argoTargets(app *manifest.Object, h *Hosted) bool {
	name, _ := manifest.NestedString(app.Content, "spec", "destination", "name")
	if name != "" {
		return name == h.Name
	}
	server, _ := manifest.NestedString(app.Content, "spec", "destination", "server")
	u, err := url.Parse(server)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if h.BaseDomain != "" {
		return host == "api."+strings.ToLower(h.Name+"."+h.BaseDomain)
	}
	return strings.HasPrefix(host, "api."+strings.ToLower(h.Name)+".")
}

// synced reports whether the file at file lies in the directory s syncs:
// the directory's path ends file's directory (the tree may be checked
// out anywhere), or, with recurse, one of its parents.
func (s argoSync) synced(file string) bool {
	dir := path.Dir(file)
	if s.Dir == "." || s.Dir == "" {
		return false
	}
	for {
		if dir == s.Dir || strings.HasSuffix(dir, "/"+s.Dir) {
			return true
		}
		if !s.Recurse {
			return false
		}
		parent := path.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}
