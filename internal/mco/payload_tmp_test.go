package mco

import (
	"os"
	"os/exec"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

// payloadCheckInput makes Render run the payload check through
// containers/image: a blocked scope contains the release payload, which
// has a digest mirror.
func payloadCheckInput() Input {
	return Input{ReleaseImage: testRelease,
		Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{BlockedRegistries: []string{"quay.io"}}},
		ICSPs: []*operatorv1alpha1.ImageContentSourcePolicy{
			icsp("r", ent{src: "quay.io/openshift-release-dev/ocp-release", mirrors: []string{"m.io/ocp/release"}})}}
}

// TestPayloadCheckLeavesNoTempDir runs the payload check in a child process
// with its own TMPDIR and requires that TMPDIR be empty once the process
// has exited: the scratch registries.conf containers/image reads must not
// outlive the check. (In-process the check cannot be told apart from an
// earlier test's leftovers, hence the child.)
func TestPayloadCheckLeavesNoTempDir(t *testing.T) {
	if os.Getenv("MIRRORLINT_PAYLOAD_CHILD") == "1" {
		for range 3 {
			out, err := Render(payloadCheckInput())
			if err != nil || len(out.Warnings) != 1 || !entry(t, out, "quay.io").Blocked {
				t.Fatalf("the payload check did not run as expected: %v %+v", err, out)
			}
		}
		return
	}
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPayloadCheckLeavesNoTempDir$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MIRRORLINT_PAYLOAD_CHILD=1", "TMPDIR="+tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left behind in TMPDIR: %s", e.Name())
	}
}

func BenchmarkRenderPayloadCheck(b *testing.B) {
	in := payloadCheckInput()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(in); err != nil {
			b.Fatal(err)
		}
	}
}
