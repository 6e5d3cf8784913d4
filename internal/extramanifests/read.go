package extramanifests

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// mirrorKinds are the kinds whose objects decide a node's registries.conf
// and signature policy: a manifest that is not read but names one leaves
// the spoke's render unknown.
var mirrorKinds = [][]byte{[]byte("ImageDigestMirrorSet"), []byte("ImageTagMirrorSet"), []byte("ImageContentSourcePolicy"),
	[]byte("ClusterImagePolicy"), []byte("ImagePolicy"), []byte("kind: Image\n")}

func namesMirrorKind(text []byte) bool {
	return slices.ContainsFunc(mirrorKinds, func(k []byte) bool { return bytes.Contains(text, k) })
}

// readChosen reads the manifests the siteconfig-generator put in the
// site's ConfigMap, by name (the order the data keys are written in): a
// file's first YAML document, the generator decoding each file into one
// map; a template is not rendered here.
func (b *builder) readChosen(names []string, byName map[string]chosen) {
	names = slices.Clone(names)
	slices.Sort(names)
	var files []string
	dropFrom := map[string]int{}
	said := map[string]bool{}
	for _, name := range names {
		c := byName[name]
		b.readFile(c.file)
		if c.template {
			if !said[c.file] {
				said[c.file] = true
				data, _ := b.readText(c.file)
				pr := b.problem(CodeNotLinted, manifest.Position{File: c.file, Line: 1, Column: 1},
					"%s is a template the siteconfig-generator renders once per node role (%s): mirrorlint does not render it, so what it holds is not linted", c.file, strings.Join(b.templateNames(c.file, byName, names), ", "))
				pr.Incomplete = namesMirrorKind(data)
			}
			continue
		}
		ok, from := b.firstDocument(c)
		at := manifest.Position{File: c.file, Line: 1, Column: 1}
		if ok && filepath.Ext(name) == ".json" {
			// The generator writes every manifest back as YAML, under
			// its file name.
			b.problem(CodeRefused, at, "extra manifest %s: the siteconfig-generator writes it back as YAML (with its annotation), and assisted-service refuses a .json manifest that is not JSON (Manifest content of file %s has an illegal JSON format), so the spoke's manifests are not synced and it is not installed; name it .yaml", name, name)
			continue
		}
		if ok && b.named(name, at, true) {
			files, dropFrom[c.file] = append(files, c.file), from
		}
	}
	if len(files) == 0 {
		return
	}
	set := b.load(files)
	for _, o := range set.Objects {
		// Only the first document reaches the spoke; a policy applied on
		// the spoke delivers nothing there.
		if o.Doc == 0 && o.DeliveredBy == "" {
			b.set.Objects = append(b.set.Objects, o)
		}
	}
	for _, p := range set.Problems {
		// What the generator drops is not reported twice.
		if from := dropFrom[p.Pos.File]; from > 0 && p.Pos.Line >= from || p.Code == manifest.CodeParseError {
			continue
		}
		b.set.Problems = append(b.set.Problems, p)
	}
}

// templateNames are the rendered names of template file among names.
func (b *builder) templateNames(file string, byName map[string]chosen, names []string) []string {
	var out []string
	for _, n := range names {
		if c := byName[n]; c.template && c.file == file {
			out = append(out, n)
		}
	}
	return out
}

// firstDocument checks a file as the generator reads it: it decodes the
// first YAML document into a map (a file it cannot refuses the site),
// skips an empty file, and drops every later document. It reports whether
// the file is a manifest of the site's ConfigMap, and the line from which
// its documents are dropped (0 for none).
func (b *builder) firstDocument(c chosen) (bool, int) {
	data, err := b.readText(c.file)
	if err != nil {
		b.problem(CodeRefused, manifest.Position{File: c.file, Line: 1, Column: 1}, "%s: the siteconfig-generator cannot read it (%v), so it fails and none of the SiteConfig's clusters is installed", c.file, pathError(err))
		return false, 0
	}
	if len(data) == 0 {
		return false, 0 // the generator skips an empty file
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for doc := 0; ; doc++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return true, 0
		}
		if err != nil {
			if doc == 0 {
				b.problem(CodeRefused, manifest.Position{File: c.file, Line: 1, Column: 1}, "%s is not YAML (%v): the siteconfig-generator cannot decode it and fails, so none of the SiteConfig's clusters is installed; fix the file or move it out of the directory", c.file, strings.TrimPrefix(err.Error(), "yaml: "))
				return false, 0
			}
			return true, 0 // never read by the generator
		}
		root := &n
		if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
			root = root.Content[0]
		}
		if doc == 0 {
			if root.Kind != yaml.DocumentNode && root.Kind != yaml.MappingNode {
				b.problem(CodeRefused, manifest.Position{File: c.file, Line: root.Line, Column: root.Column}, "%s does not start with a YAML mapping: the siteconfig-generator decodes each extra manifest into a map and fails (cannot unmarshal it into map[string]interface {}), so none of the SiteConfig's clusters is installed; fix the file or move it out of the directory", c.file)
				return false, 0
			}
			continue
		}
		if root.Kind == yaml.DocumentNode {
			continue // an empty document
		}
		b.problem(CodeDropped, manifest.Position{File: c.file, Line: root.Line, Column: root.Column}, "%s holds more than one YAML document: the siteconfig-generator keeps only the first (it decodes each extra manifest into one map), so this document and those after it never reach the spoke; put each object in a file of its own", c.file)
		return true, root.Line
	}
}

// named checks the name a manifest reaches assisted-service with: it
// uploads a .yaml, .yml or .json file; a .patch* file patches one of the
// installer's manifests; any other name is refused. It reports whether
// the manifest is an object file to read. Without assisted-service (a
// ClusterInstance of other templates), nothing is said of the name.
func (b *builder) named(name string, at manifest.Position, assisted bool) bool {
	ext := filepath.Ext(name)
	switch {
	case ext == ".yaml" || ext == ".yml" || ext == ".json":
		return true
	case !assisted:
		return false
	case strings.HasPrefix(ext, ".patch"):
		b.problem(CodeNotLinted, at, "%s is a patch assisted-service applies to the installer's manifest %s: mirrorlint does not apply it, so what it changes is not linted", name, strings.TrimSuffix(name, ext))
		return false
	}
	b.problem(CodeRefused, at, "extra manifest %s: assisted-service refuses it (Manifest filename of file %s is invalid. Only json, yaml and yml or patch extensions are supported), so the spoke's manifests are not synced and it is not installed; name it .yaml", name, name)
	return false
}
