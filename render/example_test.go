package render_test

import (
	"errors"
	"fmt"
	"log"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mirrorlint/mirrorlint/render"
)

func idms(name, source string, policy configv1.MirrorSourcePolicy, mirrors ...string) *configv1.ImageDigestMirrorSet {
	ms := make([]configv1.ImageMirror, len(mirrors))
	for i, m := range mirrors {
		ms[i] = configv1.ImageMirror(m)
	}
	return &configv1.ImageDigestMirrorSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: configv1.ImageDigestMirrorSetSpec{ImageDigestMirrors: []configv1.ImageDigestMirrors{
			{Source: source, Mirrors: ms, MirrorSourcePolicy: policy},
		}},
	}
}

// Render the registries.conf every node gets from one ImageDigestMirrorSet.
func Example() {
	v, err := render.ParseVersion("4.16")
	if err != nil {
		log.Fatal(err)
	}
	out, err := render.Render(render.Input{
		IDMSs:   []*configv1.ImageDigestMirrorSet{idms("ubi", "registry.redhat.io/ubi9", configv1.NeverContactSource, "mirror.example.com/ubi9")},
		Version: v,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out.RegistriesConf))
	// Output:
	// unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
	// short-name-mode = ""
	//
	// [[registry]]
	//   prefix = ""
	//   location = "registry.redhat.io/ubi9"
	//   blocked = true
	//
	//   [[registry.mirror]]
	//     location = "mirror.example.com/ubi9"
	//     pull-from-mirror = "digest-only"
}

// MCO refuses two objects that disagree on mirrorSourcePolicy for one
// source; it only logs the reason and keeps the previous configuration.
func Example_refusal() {
	_, err := render.Render(render.Input{IDMSs: []*configv1.ImageDigestMirrorSet{
		idms("a", "quay.io/acme", configv1.NeverContactSource, "mirror.example.com/acme"),
		idms("b", "quay.io/acme", configv1.AllowContactingSource, "mirror.example.com/acme"),
	}})
	var refusal *render.Refusal
	if errors.As(err, &refusal) {
		fmt.Println(refusal.Reason)
	}
	// Output:
	// conflicting mirrorSourcePolicy is set for the same source "quay.io/acme" in imagedigestmirrorsets, imagetagmirrorsets, or imagecontentsourcepolicies
}
