package inputs

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/embedded"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// registriesConf is a mirror ConfigMap's registries.conf, read as
// assisted-service reads it (pkg/mirrorregistries GetImageRegistries),
// for the hub's AgentServiceConfig and for an AgentClusterInstall's
// spec.mirrorRegistryRef alike: each [[registry]] with a location and
// [[registry.mirror]] tables gives its location as the source; mirrors
// without pull-from-mirror or with "digest-only" are digest mirrors,
// "tag-only" ones tag mirrors; any other value is dropped.
type registriesConf struct {
	ConfigMap *manifest.Object // nil when the tree does not hold it
	Name      string           // the ConfigMap's name
	// Missing is set when the ConfigMap has no registries.conf key, Empty
	// when its value is "" (which is parsed all the same: the hub reads
	// it as a file without tables).
	Missing, Empty bool
	// Digest are the entries a spoke's install-config gets (file order,
	// no policy); Tag the tag-only mirrors, which never reach a spoke.
	Digest []DigestSource
	Tag    []DigestSource
	// Err is the parse error assisted-service reports, "" when none.
	Err string

	// regs are the [[registry]] tables as decoded, for checkTables.
	regs  []map[string]any
	text  *embedded.Text
	lines *tomlLines
}

// read reads the registries.conf of cm (nil: not in the tree).
func (r *registriesConf) read(cm *manifest.Object) {
	r.ConfigMap = cm
	if cm == nil {
		return
	}
	conf, ok := manifest.NestedString(cm.Content, "data", "registries.conf")
	if !ok {
		r.Missing = true
		return
	}
	r.Empty = conf == ""
	if n := cm.ValueNode(manifest.Path{"data", "registries.conf"}); n != nil {
		r.text = embedded.Of(cm.Text(), n)
	}
	r.lines = scanTOML(conf)
	r.parse(conf)
}

func (r *registriesConf) parse(conf string) {
	var doc map[string]any
	if _, err := toml.Decode(conf, &doc); err != nil {
		r.Err = "failed to load value of registries.conf into toml tree; incorrectly formatted toml: " + err.Error()
		return
	}
	regs, ok := doc["registry"].([]map[string]any)
	if !ok {
		r.Err = "failed to find registry key in toml tree"
		return
	}
	r.regs = regs
	for i, reg := range regs {
		source, okSource := reg["location"].(string)
		mirrors, okMirrors := reg["mirror"].([]map[string]any)
		if !okSource || !okMirrors {
			continue
		}
		digest := DigestSource{Source: source, MirrorsSet: true, Path: manifest.Path{"registry", i},
			At: r.at(i, -1, ""), SourceAt: r.at(i, -1, "location")}
		tag := digest
		for j, m := range mirrors {
			loc, ok := m["location"].(string)
			if !ok {
				continue
			}
			switch pull, set := m["pull-from-mirror"].(string); {
			case !set || pull == "digest-only":
				digest.Mirrors = append(digest.Mirrors, loc)
				digest.MirrorAt = append(digest.MirrorAt, r.at(i, j, "location"))
			case pull == "tag-only":
				tag.Mirrors = append(tag.Mirrors, loc)
				tag.MirrorAt = append(tag.MirrorAt, r.at(i, j, "location"))
			}
		}
		if len(digest.Mirrors) > 0 {
			r.Digest = append(r.Digest, digest)
		}
		if len(tag.Mirrors) > 0 {
			r.Tag = append(r.Tag, tag)
		}
	}
	if len(r.Digest) == 0 && len(r.Tag) == 0 {
		r.Err = "failed to find any image mirrors in registry.conf"
	}
}

// confKey is the position of the registries.conf key.
func (r *registriesConf) confKey() manifest.Position {
	return r.ConfigMap.LocateKey(manifest.Path{"data", "registries.conf"})
}

// at returns the file position of a key of the TOML document: table
// registry[i] (mirror j, -1 for the registry's own keys); the table's
// header when the key is not written, the ConfigMap key when the tables
// cannot be found.
func (r *registriesConf) at(i, j int, key string) manifest.Position {
	if r.text == nil || r.lines == nil {
		return r.confKey()
	}
	off, ok := r.lines.find(i, j, key)
	if !ok {
		return r.confKey()
	}
	l, c := r.text.Pos(off)
	return manifest.Position{File: r.ConfigMap.File, Line: l, Column: c}
}

// confReader says, in the table checks' messages, whose mirrors a
// registries.conf gives: every spoke of the hub, or one spoke.
type confReader struct {
	// the names them after "for" ("the spokes"), plain after "to" and
	// "on" ("spokes").
	the, plain string
	// dropped says what becomes of a mirror pull-from-mirror drops.
	dropped string
}

var hubReader = confReader{"the spokes", "spokes",
	"this mirror is used by the discovery ISO only, never by installed spokes"}

// checkTables reports the settings of a parsed file's tables that
// assisted-service ignores or drops, for the spokes of who.
func (r *registriesConf) checkTables(fs *findings, who confReader) {
	for i, reg := range r.regs {
		prefix, _ := reg["prefix"].(string)
		loc, _ := reg["location"].(string)
		if prefix != "" && prefix != loc {
			fs.add(r.at(i, -1, "prefix"), check.Warning, RuleHubPrefixIgnored, assisted,
				"prefix %q is ignored by %s, which takes location %q as the source for %s: images under %s are not mirrored on %s; write the source in location (and the mirrors in [[registry.mirror]])", prefix, assisted, loc, who.the, prefix, who.plain)
		}
		mirrors, _ := reg["mirror"].([]map[string]any)
		for j, m := range mirrors {
			pull, set := m["pull-from-mirror"].(string)
			switch {
			case !set || pull == "digest-only":
			case pull == "tag-only":
				fs.add(r.at(i, j, "pull-from-mirror"), check.Warning, RuleHubPullFromMirror, assisted,
					"tag-only mirrors are not carried to %s (install-config has no tag mirrors): add an ImageTagMirrorSet extra manifest for %s", who.plain, loc)
			default:
				fs.add(r.at(i, j, "pull-from-mirror"), check.Warning, RuleHubPullFromMirror, assisted,
					"pull-from-mirror = %q is dropped by %s: %s; use \"digest-only\" (or no pull-from-mirror) for spokes, and an ImageTagMirrorSet extra manifest for tags", pull, assisted, who.dropped)
			}
		}
	}
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
