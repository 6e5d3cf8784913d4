package build

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A kustomization listing PolicyGenTemplate or PolicyGenerator files under
// generators: often patches what they make (an annotation on a Policy).
// mirrorlint expands those generators itself, beside the build (package
// ztp), so the build runs without them and kustomize refuses such a
// patch: it finds no object to apply it to. The patch is left out of the
// build instead, and said so once, so that the rest of the kustomization
// is still built and linted.

// noPatchTarget is kustomize's error for a strategic-merge patch whose
// object is not in the build: the object's id, Kind.version.group/name.namespace.
var noPatchTarget = regexp.MustCompile(`failed to find unique target for patch ([A-Za-z0-9]+)\.[^/\s]*?([a-z0-9.-]*)/([^\s;'"]+)`)

// generatorGroup is the API group suffix of what the policy generators
// make: Policy, PlacementBinding (policy.), PlacementRule (apps.),
// Placement (cluster.), PolicySet.
const generatorGroup = "open-cluster-management.io"

// unapplied is a patch entry left out of a build.
type unapplied struct {
	k  *kustomization.File
	e  kustomization.Entry
	id string // Kind name, as kustomize names the object it looked for
}

// maxUnapplied bounds the rebuilds one build may take to leave patches out.
const maxUnapplied = 16

// generatorPatch finds, for a build of kusts that failed with err, the
// patch entry that targets an object only the in-process generators make:
// the closure expands a generator, the object kustomize did not find is of
// an open-cluster-management group, and the entry's patch names it. ok is
// false for any other error.
func generatorPatch(err error, fsys filesys.FileSystem, kusts []*kustomization.File) (unapplied, bool) {
	m := noPatchTarget.FindStringSubmatch(err.Error())
	if m == nil || !strings.HasSuffix(m[2], generatorGroup) || !expandsGenerators(kusts) {
		return unapplied{}, false
	}
	kind, nameNs := m[1], m[3]
	for _, k := range kusts {
		for _, e := range k.Entries {
			if !e.IsPatch() {
				continue
			}
			for _, name := range patchedNames(e, k, fsys, kind) {
				if nameNs == name || strings.HasPrefix(nameNs, name+".") {
					return unapplied{k: k, e: e, id: kind + " " + name}, true
				}
			}
		}
	}
	return unapplied{}, false
}

// expandsGenerators reports whether a kustomization of kusts lists a
// generator mirrorlint expands itself.
func expandsGenerators(kusts []*kustomization.File) bool {
	for _, k := range kusts {
		for _, p := range k.Plugins() {
			if p.Expanded {
				return true
			}
		}
	}
	return false
}

// patchedNames lists the names of the objects of kind a patch entry
// targets: its target's, or those its strategic-merge documents name.
func patchedNames(e kustomization.Entry, k *kustomization.File, fsys filesys.FileSystem, kind string) []string {
	if e.HasTarget {
		if e.Target.Kind == kind && e.Target.Name != "" {
			return []string{e.Target.Name}
		}
		return nil
	}
	text := []byte(e.Inline)
	if e.Value != "" {
		data, err := fsys.ReadFile(filepath.Join(k.Dir, e.Value))
		if err != nil {
			return nil
		}
		text = data
	}
	var out []string
	dec := yaml.NewDecoder(strings.NewReader(string(text)))
	for range 100 {
		var doc yaml.Node
		if dec.Decode(&doc) != nil {
			break
		}
		if len(doc.Content) == 0 {
			continue
		}
		n := kustomization.DerefNode(doc.Content[0])
		if kustomization.Scalar(n, "kind") == kind {
			if name := kustomization.Scalar(kustomization.MapValue(n, "metadata"), "name"); name != "" {
				out = append(out, name)
			}
		}
	}
	return out
}

// droppedByFile groups the entries left out by kustomization file.
func droppedByFile(us []unapplied) map[string][]kustomization.Entry {
	if len(us) == 0 {
		return nil
	}
	out := map[string][]kustomization.Entry{}
	for _, u := range us {
		out[u.k.Path] = append(out[u.k.Path], u.e)
	}
	return out
}

// unappliedProblem is the notice for one patch left out.
func (d *env) unappliedProblem(u unapplied) manifest.Problem {
	p := d.kustProblem(u.k, u.e.Line, u.e.Column, fmt.Sprintf(
		"%s entry targets %s, which only the PolicyGenTemplate/PolicyGenerator generators make: mirrorlint expands them itself, without kustomize's patches, so this patch is not applied to what they make; the rest of the kustomization is built and linted",
		u.e.Field, u.id))
	p.Code, p.Warning = manifest.CodePluginNotRun, true
	return p
}
