package sites

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/embedded"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Overrides is a site's installConfigOverrides: a JSON document in a YAML
// string, which becomes the AgentClusterInstall annotation
// agent-install.openshift.io/install-config-overrides that assisted-service
// decodes over the spoke's install-config; or that annotation itself, on
// a hand-written AgentClusterInstall.
type Overrides struct {
	Text string
	// Field names the document in messages, before a path inside it:
	// installConfigOverrides, or install-config-overrides for the
	// annotation.
	Field string
	// Path is the installConfigOverrides field (the annotation) in the
	// object; Key is the position of its key, where findings about the
	// JSON are reported (the value's own line when it is on one line with
	// the key).
	Path manifest.Path
	Key  manifest.Position
	// SyntaxError is set when Text is not JSON, with SyntaxPos the place
	// of the first bad character.
	SyntaxError error
	SyntaxPos   manifest.Position

	site  *Site
	text  *embedded.Text
	spans map[string]embedded.Span
}

func newOverrides(s *Site, text string, p manifest.Path) *Overrides {
	ov := &Overrides{Text: text, Field: "installConfigOverrides", Path: p, Key: s.Object.LocateKey(p), site: s}
	if s.Kind == KindAgentClusterInstall {
		ov.Field = "install-config-overrides"
	}
	if n := s.Object.ValueNode(p); n != nil {
		ov.text = embedded.Of(s.Object.Text(), n)
	}
	spans, err := embedded.JSONPaths(text)
	ov.spans = spans
	if err != nil {
		ov.SyntaxError = err
		var se *embedded.SyntaxError
		if errors.As(err, &se) {
			ov.SyntaxPos = ov.at(se.Offset)
		} else {
			ov.SyntaxPos = ov.Key
		}
	}
	return ov
}

// at places byte off of the JSON text in the file.
func (ov *Overrides) at(off int) manifest.Position {
	if ov.text == nil {
		return ov.Key
	}
	l, c := ov.text.Pos(off)
	return manifest.Position{File: ov.Key.File, Line: l, Column: c}
}

// Locate returns the file position of the JSON value at path (written as
// manifest.Path prints it: "imageDigestSources[1].mirrors"); the key of a
// mapping entry when key is true. A path the document does not hold
// answers the installConfigOverrides key.
func (ov *Overrides) Locate(path string, key bool) manifest.Position {
	sp, ok := ov.spans[path]
	if !ok {
		return ov.Key
	}
	if key && sp.Key >= 0 {
		return ov.at(sp.Key)
	}
	return ov.at(sp.Value)
}

// Has reports whether the JSON document holds a value at path.
func (ov *Overrides) Has(path string) bool {
	_, ok := ov.spans[path]
	return ok
}

// Annotation returns the value of the AgentClusterInstall annotation the
// site gets, as the generator (SiteConfig) or the operator
// (ClusterInstance) computes it: with cpuPartitioningMode: AllNodes the
// document is decoded and re-encoded with that key set; then the site's
// networkType is put in front as {"networking":{"networkType":…},…}, or,
// when the document has "networking" already, merged into it (the
// generated networkType wins) and the whole document re-encoded, keys
// sorted. The error carries the component's message; the generator
// refuses the SiteConfig with it, the operator renders no annotation.
// A hand-written AgentClusterInstall's annotation is the text as written.
func (ov *Overrides) Annotation() (string, error) {
	s := ov.site
	doc := ov.Text
	if s.Kind == KindAgentClusterInstall {
		return doc, nil
	}
	if s.CPUPartitioningAllNodes {
		m := map[string]any{}
		if err := json.Unmarshal([]byte(doc), &m); err != nil {
			return "", fmt.Errorf("failed to unmarshal install config overrides JSON: %w", err)
		}
		m["cpuPartitioningMode"] = "AllNodes"
		b, err := json.Marshal(m)
		if err != nil {
			return "", err
		}
		doc = string(b)
	}
	network := `{"networking":{"networkType":"` + s.NetworkType + `"}}`
	if !json.Valid([]byte(network)) {
		return "", errors.New("invalid json conversion of network type")
	}
	if !json.Valid([]byte(doc)) {
		if s.Kind == KindSiteConfig {
			//lint:ignore ST1005 the siteconfig-generator's own wording
			return "", errors.New("Invalid json parameter set at installConfigOverride")
		}
		return "", errors.New("invalid json parameter set at installConfigOverride")
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		return "", fmt.Errorf("failed to unmarshal installConfigOverrides data: %v", doc)
	}
	if nw, found := m["networking"]; found {
		merged := map[string]any{}
		if nm, ok := nw.(map[string]any); ok {
			for k, v := range nm {
				merged[k] = v
			}
		} else {
			// The generator asserts the type and would panic; the
			// document cannot be merged either way.
			return "", errors.New("installConfigOverrides networking is not an object")
		}
		merged["networkType"] = s.NetworkType
		m["networking"] = merged
		b, err := json.Marshal(m)
		if err != nil {
			return "", err
		}
		return string(b), nil
	}
	final := strings.TrimSuffix(network, "}") + "," + strings.TrimPrefix(doc, "{")
	if !json.Valid([]byte(final)) {
		return "", errors.New("failed to marshal annotation for installConfigOverrides")
	}
	return final, nil
}
