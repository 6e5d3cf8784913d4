package kustomization

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/ztp"
)

// Plugin is a generators or transformers entry that kustomize would run as
// an external plugin (only with --enable-alpha-plugins, and by running a
// program): a ZTP PolicyGenTemplate or ACM PolicyGenerator, which
// mirrorlint expands itself (package ztp), or anything else (KSOPS, an exec
// or container KRM function), which it does not run. Builds leave these
// entries out (see Strip); what they would generate is either read from
// the generator or reported as not run.
type Plugin struct {
	Entry Resolved
	// Kinds names the plugin configurations of the file, "apiVersion
	// kind" each.
	Kinds []string
	// Expanded is set when every configuration of the file is a generator
	// mirrorlint expands.
	Expanded bool
	// generators are the file's configurations that are generators
	// mirrorlint expands (see Reads); configs all of them (see Configs).
	generators []*yaml.Node
	configs    []*yaml.Node
}

// Configs are the plugin configurations of the file, each document's
// mapping node: a ZTP SiteConfig's clusters say which directories its
// generator reads.
func (p Plugin) Configs() []*yaml.Node { return p.configs }

// What names the plugin for messages: its kinds, the function image or
// program when the configuration says.
func (p Plugin) What() string {
	return strings.Join(p.Kinds, ", ")
}

// Plugins lists the entries of kf that name external plugins.
func (kf *File) Plugins() []Plugin {
	kf.pluginsOnce.Do(func() {
		for _, r := range kf.Local() {
			if (r.Field != "generators" && r.Field != "transformers") || r.IsDir || !r.Exists {
				continue
			}
			if p, ok := pluginOf(r); ok {
				kf.plugins = append(kf.plugins, p)
			}
		}
	})
	return kf.plugins
}

// pluginOf reads a plugin configuration file: external unless every
// document is one of kustomize's builtin plugins (apiVersion builtin).
func pluginOf(r Resolved) (Plugin, bool) {
	p := Plugin{Entry: r, Expanded: true}
	f, err := os.Open(r.Abs)
	if err != nil {
		return p, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4<<20))
	if err != nil {
		return p, false
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return p, false // kustomize reports the file
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		n := doc.Content[0]
		av, kind := Scalar(n, "apiVersion"), Scalar(n, "kind")
		if av == "builtin" || av == "" && kind == "" {
			continue
		}
		what := strings.TrimSpace(av + " " + kind)
		if img := functionOf(n); img != "" {
			what += ", " + img
		}
		if !slices.Contains(p.Kinds, what) {
			p.Kinds = append(p.Kinds, what)
		}
		p.configs = append(p.configs, n)
		if ztp.Generator(av, kind) == "" {
			p.Expanded = false
			continue
		}
		p.generators = append(p.generators, n)
	}
	return p, len(p.Kinds) > 0
}

// Reads lists what the generators of the file read when run in dir (the
// directory of a kustomization running it, see ztp.Dirs.Dir), absolute,
// without reading it. manifests are the files the PolicyGenerators read
// as their manifests: applied through the generator, not as they are
// written; for a manifest directory holding a kustomization, every file
// its build reads. sourceCRs are the source CRs read from dir's
// source-crs: a source-crs directory is never applied, and is reported as
// such by the cluster of its directory (manifest.CodeNotApplied), but an
// edit to one changes what the generator delivers. The kustomizations are
// parsed through g, the run's graph, which has parsed most of them already.
func (p Plugin) Reads(dir string, g *Graph) (manifests, sourceCRs []string) {
	for _, n := range p.generators {
		sourceCRs = append(sourceCRs, ztp.SourceCRFiles(dir, n)...)
		for _, f := range ztp.ManifestFiles(dir, n) {
			if !ztp.InSourceCRDir(f) {
				manifests = append(manifests, f)
			}
		}
		// A kustomization the generator builds: every file its build
		// reads is one of the generator's inputs.
		for _, kdir := range ztp.ManifestKustomizations(dir, n) {
			_, files := g.Closure(filepath.Clean(kdir))
			for _, f := range files {
				if !slices.Contains(manifests, f) {
					manifests = append(manifests, f)
				}
			}
		}
	}
	return manifests, sourceCRs
}

// functionOf names the container image or program a KRM function
// configuration runs (the config.kubernetes.io/function annotation).
func functionOf(n *yaml.Node) string {
	ann := MapValue(MapValue(n, "metadata"), "annotations")
	fn := Scalar(ann, "config.kubernetes.io/function")
	if fn == "" {
		return ""
	}
	var spec yaml.Node
	if yaml.Unmarshal([]byte(fn), &spec) != nil || len(spec.Content) == 0 {
		return ""
	}
	root := spec.Content[0]
	if img := Scalar(MapValue(root, "container"), "image"); img != "" {
		return "container function " + img
	}
	if p := Scalar(MapValue(root, "exec"), "path"); p != "" {
		return "exec function " + p
	}
	return ""
}

// LeftOut lists the entries of kf that no build of mirrorlint's holds
// (Entry.NotBuilt). Builds go on without them (see Strip), and what they
// would add is reported as not built.
func (kf *File) LeftOut() []Entry {
	var out []Entry
	for _, e := range kf.Entries {
		if e.NotBuilt() {
			out = append(out, e)
		}
	}
	return out
}

// NotBuilt reports whether builds leave the entry out: a remote resource,
// base or component (kustomize fetches it with git or HTTP; mirrorlint
// runs offline), a configMapGenerator or secretGenerator item reading a
// URL (fetched over HTTP), or a Helm chart (kustomize runs the helm
// program for it, only with --enable-helm). A remote entry of another
// field is no addition a build can go on without.
func (e Entry) NotBuilt() bool {
	if e.IsHelm() {
		return true
	}
	switch e.Field {
	case "resources", "bases", "components", "configMapGenerator", "secretGenerator":
		return e.IsRemote()
	}
	return false
}

// strippedFields are the lists Strip may drop items from.
var strippedFields = []string{"resources", "bases", "components", "helmCharts", "helmChartInflationGenerator",
	"configMapGenerator", "secretGenerator",
	"generators", "transformers", "patches", "patchesStrategicMerge", "patchesJson6902"}

// Strip returns the text of kf without the entries plugins name, without
// the entries left out of builds (LeftOut) and without the patch entries
// of also (entries of kf), nil when there is nothing to drop (or the file
// does not parse; the build says so).
func Strip(kf *File, data []byte, also ...Entry) []byte {
	plugins, leftOut := kf.Plugins(), kf.LeftOut()
	if len(plugins) == 0 && len(leftOut) == 0 && len(also) == 0 {
		return nil
	}
	drop := map[[2]int]bool{}
	for _, p := range plugins {
		drop[[2]int{p.Entry.Line, p.Entry.Column}] = true
	}
	for _, e := range append(leftOut, also...) {
		drop[[2]int{e.Line, e.Column}] = true
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	for _, field := range strippedFields {
		list := MapValue(root, field)
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		list.Content = slices.DeleteFunc(list.Content, func(n *yaml.Node) bool {
			return drop[[2]int{n.Line, n.Column}]
		})
		list.Style = yaml.FlowStyle // an empty list stays a list
		if len(list.Content) > 0 {
			list.Style = 0
		}
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return nil
	}
	return out
}
