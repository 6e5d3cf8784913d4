package check

import (
	"slices"
	"testing"
)

// Judged: a kind is judged when every rule reading it judges it one object
// at a time and the render does not read it; what those rules read besides
// is what their findings may name. One rule reading a judged kind whole,
// or any kind (Reads nil), and nothing is judged.
func TestJudged(t *testing.T) {
	t.Parallel()
	noop := func(*Pass) {}
	judge := &Rule{ID: "judge", Check: noop, Reads: []string{"ImageDigestMirrorSet", "Image", "Deployment", "Pod"}, Judges: []string{"Deployment", "Pod"}}
	mirrors := &Rule{ID: "mirrors", Check: noop, Reads: []string{"ImageDigestMirrorSet", "ConfigMap"}}
	reg := func(rules ...*Rule) *Registry {
		t.Helper()
		r, err := NewRegistry(rules...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cases := []struct {
		name            string
		reg             *Registry
		judged, relates []string
	}{
		{"one judge", reg(judge, mirrors), []string{"Deployment", "Pod"}, []string{"Image", "ImageDigestMirrorSet"}},
		{"read whole by another", reg(judge, &Rule{ID: "pods", Check: noop, Reads: []string{"Pod"}}), []string{"Deployment"}, []string{"Image", "ImageDigestMirrorSet"}},
		{"a rule reading any kind", reg(judge, &Rule{ID: "any", Check: noop}), nil, nil},
		{"bookkeeping rules read nothing", reg(judge, &Rule{ID: "bookkeeping"}), []string{"Deployment", "Pod"}, []string{"Image", "ImageDigestMirrorSet"}},
		{"a render kind is never judged", reg(&Rule{ID: "j", Check: noop, Reads: []string{RenderReads[0]}, Judges: []string{RenderReads[0]}}), nil, nil},
		{"no judge", reg(mirrors), nil, nil},
	}
	for _, c := range cases {
		judged, relates := c.reg.Judged()
		if !slices.Equal(judged, c.judged) || !slices.Equal(relates, c.relates) {
			t.Errorf("%s: judged %v, relates %v; want %v, %v", c.name, judged, relates, c.judged, c.relates)
		}
	}
}
