package mco

import (
	"slices"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

func blockedImage(blocked ...string) *configv1.ImageSpec {
	return &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{BlockedRegistries: blocked}}
}

// TestPlanPayload: the payload decisions the rules report on, from MCO's
// own payload rule.
func TestPlanPayload(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		in                        Input
		kept, dropped, components []int
	}{
		{"blocking the payload without a mirror drops the entry",
			Input{Image: blockedImage("quay.io", "docker.io"), ReleaseImage: testRelease},
			[]int{1}, []int{0}, nil},
		{"a mirrored release keeps the entry that blocks it",
			Input{Image: blockedImage("quay.io/openshift-release-dev"), ReleaseImage: testRelease,
				IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "quay.io/openshift-release-dev/ocp-release", mirrors: []string{"m.example/ocp-release"}})}},
			[]int{0}, nil, nil},
		{"blocking only the component repository",
			Input{Image: blockedImage("quay.io/openshift-release-dev/ocp-v4.0-art-dev"), ReleaseImage: testRelease},
			[]int{0}, nil, []int{0}},
		{"a component mirror outside the blocked scope",
			Input{Image: blockedImage("quay.io/openshift-release-dev/ocp-v4.0-art-dev"), ReleaseImage: testRelease,
				IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "quay.io/openshift-release-dev/ocp-v4.0-art-dev", mirrors: []string{"m.example/art-dev"}})}},
			[]int{0}, nil, nil},
		{"no release image: every entry kept, nothing decided",
			Input{Image: blockedImage("quay.io")},
			[]int{0}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPlan(tc.in).Payload
			if !slices.Equal(p.Kept, tc.kept) || !slices.Equal(p.Dropped, tc.dropped) || !slices.Equal(p.ComponentsBlocked, tc.components) {
				t.Errorf("kept %v dropped %v components blocked %v, want %v %v %v", p.Kept, p.Dropped, p.ComponentsBlocked, tc.kept, tc.dropped, tc.components)
			}
		})
	}
}

// TestPlanSetsAndCopies: entries in MCO's order, sets with the entries they
// merge, and the set a mirrorless scope copies from (the first enclosing
// one in processing order, not the nearest).
func TestPlanSetsAndCopies(t *testing.T) {
	in := Input{
		IDMSs: []*configv1.ImageDigestMirrorSet{
			idms("b", ent{src: "r.example/team/app", mirrors: []string{"m2.example/app"}}),
			idms("a", ent{src: "r.example", mirrors: []string{"m1.example"}}, ent{src: "r.example/team/app", mirrors: []string{"m3.example/app"}}),
		},
		Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{InsecureRegistries: []string{"r.example/team/app/sub"}}},
	}
	p := NewPlan(in)
	var order []string
	for _, e := range p.Entries {
		order = append(order, e.At.Kind+"/"+e.Source)
	}
	if want := []string{"ImageDigestMirrorSet/r.example", "ImageDigestMirrorSet/r.example/team/app", "ImageDigestMirrorSet/r.example/team/app"}; !slices.Equal(order, want) {
		t.Errorf("entries %v, want %v", order, want)
	}
	if p.Entries[0].At.Index != 1 || p.Entries[2].At.Index != 0 {
		t.Errorf("entries come from the objects in name order: %+v", p.Entries)
	}
	if len(p.Sets) != 2 || p.Sets[1].Source != "r.example/team/app" || !slices.Equal(p.Sets[1].Entries, []int{1, 2}) {
		t.Fatalf("sets %+v", p.Sets)
	}
	last := p.Registries[len(p.Registries)-1]
	if last.Scope != "r.example/team/app/sub" || last.CopyFrom != 0 || !last.Insecure || last.At.Path != "spec.registrySources.insecureRegistries[0]" {
		t.Errorf("the insecure scope's entry is %+v; want it to copy from set 0 (r.example, first in order)", last)
	}
}
