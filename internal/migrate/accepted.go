package migrate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
)

// RefusedError is an ICSP whose ImageDigestMirrorSet the API server would
// refuse even after the tags and digests are removed (an upper-case
// repository, a scheme, an invalid name...). Line and Column point at the
// offending value in the input.
type RefusedError struct {
	Line, Column int
	Name         string
	Reason       string // the API server's words
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("ImageContentSourcePolicy %s cannot become an ImageDigestMirrorSet the API server accepts: %s; fix the ICSP first (mirrorlint lint reports why), nothing was written", e.Name, e.Reason)
}

// checkAccepted validates a converted IDMS the way the API server does:
// the CRD schema and the object name. Converted nodes keep the positions of
// the input nodes they were copied from, so the error points at the ICSP.
func checkAccepted(idms *yaml.Node) error {
	var content map[string]any
	if err := idms.Decode(&content); err != nil {
		return err
	}
	_, md := entry(idms, "metadata")
	name := scalar(md, "name")
	if name != "" {
		for _, msg := range validation.IsDNS1123Subdomain(name) {
			_, v := entry(md, "name")
			return &RefusedError{Line: v.Line, Column: v.Column, Name: name,
				Reason: fmt.Sprintf("metadata.name: Invalid value: %q: %s", name, msg)}
		}
	}
	errs := schema.Validate(idmsKind, content)
	if len(errs) == 0 {
		return nil
	}
	line, col := nodeAt(idms, errs[0].Path)
	return &RefusedError{Line: line, Column: col, Name: name, Reason: errs[0].Error()}
}

// nodeAt is the input position of the deepest node on path p that has one.
func nodeAt(n *yaml.Node, p manifest.Path) (int, int) {
	line, col := n.Line, n.Column
	cur := n
	for _, e := range p {
		var next *yaml.Node
		switch e := e.(type) {
		case string:
			_, next = entry(cur, e)
		case int:
			if cur.Kind == yaml.SequenceNode && e >= 0 && e < len(cur.Content) {
				next = cur.Content[e]
			}
		}
		if next == nil {
			break
		}
		cur = next
		if cur.Line > 0 {
			line, col = cur.Line, cur.Column
		}
	}
	return line, col
}
