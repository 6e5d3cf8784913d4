package inputs

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/embedded"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

const assisted = "assisted-service"

// Rule ids of the hub mirror configuration checks.
const (
	RuleHubConfigMap      = "hub-mirror-configmap"
	RuleHubPrefixIgnored  = "hub-mirror-prefix-ignored"
	RuleHubPullFromMirror = "hub-mirror-not-for-spokes"
	RuleHubV1Format       = "hub-mirror-v1-format"
)

// HubMirrors is the registries.conf of an AgentServiceConfig's
// spec.mirrorRegistryRef ConfigMap, read as assisted-service reads it
// (pkg/mirrorregistries): each [[registry]] with a location and
// [[registry.mirror]] tables gives its location as the source; mirrors
// without pull-from-mirror or with "digest-only" are digest mirrors,
// "tag-only" ones tag mirrors; any other value is dropped.
type HubMirrors struct {
	ASC       *manifest.Object
	ConfigMap *manifest.Object // nil when the tree does not hold it
	Name      string           // the ConfigMap's name
	// Digest are the entries a spoke's install-config gets (file order,
	// no policy); Tag the tag-only mirrors, which never reach a spoke.
	Digest []DigestSource
	Tag    []DigestSource
	// Err is the parse error assisted-service reports, "" when none.
	Err string

	text  *embedded.Text
	lines *tomlLines
}

func readHub(asc *manifest.Object, cms []*manifest.Object) *HubMirrors {
	name, _ := manifest.NestedString(asc.Content, "spec", "mirrorRegistryRef", "name")
	if name == "" {
		return nil
	}
	h := &HubMirrors{ASC: asc, Name: name}
	h.ConfigMap = pickConfigMap(cms, name, asc.File, "multicluster-engine", "open-cluster-management", "assisted-installer")
	if h.ConfigMap == nil {
		return h
	}
	conf, ok := manifest.NestedString(h.ConfigMap.Content, "data", "registries.conf")
	if !ok {
		return h
	}
	if n := h.ConfigMap.ValueNode(manifest.Path{"data", "registries.conf"}); n != nil {
		h.text = embedded.Of(h.ConfigMap.Text(), n)
	}
	h.lines = scanTOML(conf)
	h.parse(conf)
	return h
}

// pickConfigMap finds the ConfigMap named name for a reference written in
// file from: of those in the namespaces given (the operator's usual
// namespaces), else of all, the nearest (see nearest).
func pickConfigMap(cms []*manifest.Object, name, from string, prefer ...string) *manifest.Object {
	var named, preferred []*manifest.Object
	for _, cm := range cms {
		if cm.Name != name {
			continue
		}
		named = append(named, cm)
		ns, _ := manifest.NestedString(cm.Content, "metadata", "namespace")
		if slices.Contains(prefer, ns) {
			preferred = append(preferred, cm)
		}
	}
	if len(preferred) > 0 {
		return nearest(from, preferred)
	}
	return nearest(from, named)
}

func (h *HubMirrors) parse(conf string) {
	var doc map[string]any
	if _, err := toml.Decode(conf, &doc); err != nil {
		h.Err = "failed to load value of registries.conf into toml tree; incorrectly formatted toml: " + err.Error()
		return
	}
	regs, ok := doc["registry"].([]map[string]any)
	if !ok {
		h.Err = "failed to find registry key in toml tree"
		return
	}
	for i, reg := range regs {
		source, okSource := reg["location"].(string)
		mirrors, okMirrors := reg["mirror"].([]map[string]any)
		if !okSource || !okMirrors {
			continue
		}
		digest := DigestSource{Source: source, MirrorsSet: true, Path: manifest.Path{"registry", i},
			At: h.at(i, -1, ""), SourceAt: h.at(i, -1, "location")}
		tag := digest
		for j, m := range mirrors {
			loc, ok := m["location"].(string)
			if !ok {
				continue
			}
			switch pull, set := m["pull-from-mirror"].(string); {
			case !set || pull == "digest-only":
				digest.Mirrors = append(digest.Mirrors, loc)
				digest.MirrorAt = append(digest.MirrorAt, h.at(i, j, "location"))
			case pull == "tag-only":
				tag.Mirrors = append(tag.Mirrors, loc)
				tag.MirrorAt = append(tag.MirrorAt, h.at(i, j, "location"))
			}
		}
		if len(digest.Mirrors) > 0 {
			h.Digest = append(h.Digest, digest)
		}
		if len(tag.Mirrors) > 0 {
			h.Tag = append(h.Tag, tag)
		}
	}
	if len(h.Digest) == 0 && len(h.Tag) == 0 {
		h.Err = "failed to find any image mirrors in registry.conf"
	}
}

// at returns the file position of a key of the TOML document: table
// registry[i] (mirror j, -1 for the registry's own keys); the table's
// header when the key is not written, the ConfigMap key when the tables
// cannot be found.
func (h *HubMirrors) at(i, j int, key string) manifest.Position {
	fallback := h.ConfigMap.LocateKey(manifest.Path{"data", "registries.conf"})
	if h.text == nil || h.lines == nil {
		return fallback
	}
	off, ok := h.lines.find(i, j, key)
	if !ok {
		return fallback
	}
	l, c := h.text.Pos(off)
	return manifest.Position{File: h.ConfigMap.File, Line: l, Column: c}
}

// Check reports what assisted-service refuses or drops in the hub file.
func (h *HubMirrors) Check() []Finding {
	var fs findings
	refPos := h.ASC.Locate(manifest.Path{"spec", "mirrorRegistryRef", "name"})
	if h.ConfigMap == nil {
		return nil // not in the tree: nothing known about it
	}
	conf, ok := manifest.NestedString(h.ConfigMap.Content, "data", "registries.conf")
	if !ok {
		fs.add(h.ConfigMap.LocateKey(manifest.Path{"data"}), check.Error, RuleHubConfigMap, assisted,
			"Mirror registry configmap %s missing key registries.conf (%s refuses the AgentServiceConfig named at %s:%d): add data.registries.conf", h.Name, assisted, refPos.File, refPos.Line)
		return fs
	}
	if h.Err != "" {
		if strings.HasPrefix(h.Err, "failed to find registry key") {
			fs.add(h.ConfigMap.LocateKey(manifest.Path{"data", "registries.conf"}), check.Warning, RuleHubV1Format, assisted,
				"registries.conf has no [[registry]] tables (the v1 format, or no mirrors): %s ignores the file without a word, so spokes get no mirrors; write it in the v2 format ([[registry]] location = source, [[registry.mirror]] location = mirror)", assisted)
		} else {
			fs.add(h.ConfigMap.LocateKey(manifest.Path{"data", "registries.conf"}), check.Error, RuleHubConfigMap, assisted,
				"%s (%s): fix the registries.conf", h.Err, assisted)
		}
		return fs
	}
	var doc map[string]any
	toml.Decode(conf, &doc) //nolint:errcheck // decoded without error by parse
	regs, _ := doc["registry"].([]map[string]any)
	for i, reg := range regs {
		prefix, _ := reg["prefix"].(string)
		loc, _ := reg["location"].(string)
		if prefix != "" && prefix != loc {
			fs.add(h.at(i, -1, "prefix"), check.Warning, RuleHubPrefixIgnored, assisted,
				"prefix %q is ignored by %s, which takes location %q as the source for the spokes: images under %s are not mirrored on spokes; write the source in location (and the mirrors in [[registry.mirror]])", prefix, assisted, loc, prefix)
		}
		mirrors, _ := reg["mirror"].([]map[string]any)
		for j, m := range mirrors {
			pull, set := m["pull-from-mirror"].(string)
			switch {
			case !set || pull == "digest-only":
			case pull == "tag-only":
				fs.add(h.at(i, j, "pull-from-mirror"), check.Warning, RuleHubPullFromMirror, assisted,
					"tag-only mirrors are not carried to spokes (install-config has no tag mirrors): add an ImageTagMirrorSet extra manifest for %s", loc)
			default:
				fs.add(h.at(i, j, "pull-from-mirror"), check.Warning, RuleHubPullFromMirror, assisted,
					"pull-from-mirror = %q is dropped by %s: this mirror is used by the discovery ISO only, never by installed spokes; use \"digest-only\" (or no pull-from-mirror) for spokes, and an ImageTagMirrorSet extra manifest for tags", pull, assisted)
			}
		}
	}
	return fs
}

// tomlLines locates keys of the [[registry]] and [[registry.mirror]]
// tables by scanning the lines of a registries.conf: the file's semantics
// come from the TOML decoder, only the places from here.
type tomlLines struct {
	keys    map[string]int // "i/j/key" → offset of the key
	headers map[string]int // "i/j" → offset of the table header
}

var tomlKey = regexp.MustCompile(`^([A-Za-z0-9_-]+|"[^"]*")\s*=`)

func scanTOML(conf string) *tomlLines {
	t := &tomlLines{keys: map[string]int{}, headers: map[string]int{}}
	reg, mir, inTable := -1, -1, false
	off := 0
	for _, line := range strings.SplitAfter(conf, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		at := off + len(line) - len(trimmed)
		off += len(line)
		header := strings.TrimSpace(strings.SplitN(trimmed, "#", 2)[0])
		switch {
		case strings.HasPrefix(header, "[["):
			name := strings.Join(strings.Fields(strings.Trim(header, "[]")), "")
			switch name {
			case "registry":
				reg, mir, inTable = reg+1, -1, true
				t.headers[fmt.Sprintf("%d/-1", reg)] = at
			case "registry.mirror":
				mir++
				t.headers[fmt.Sprintf("%d/%d", reg, mir)] = at
			default:
				inTable = false
			}
		case strings.HasPrefix(header, "["):
			inTable = false
		case inTable:
			if m := tomlKey.FindStringSubmatch(trimmed); m != nil {
				key := strings.Trim(m[1], `"`)
				t.keys[fmt.Sprintf("%d/%d/%s", reg, mir, key)] = at
			}
		}
	}
	return t
}

func (t *tomlLines) find(i, j int, key string) (int, bool) {
	if off, ok := t.keys[fmt.Sprintf("%d/%d/%s", i, j, key)]; ok {
		return off, true
	}
	off, ok := t.headers[fmt.Sprintf("%d/%d", i, j)]
	return off, ok
}
