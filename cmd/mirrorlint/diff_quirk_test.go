package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// An IDMS and an ITMS share a mirror, so registries.conf lists it twice
// (digest-only, then tag-only). Putting a digest-only mirror in front in
// the IDMS is safe on its own, but the daemon compares the unchanged
// tag-only mirror with the first mirror of its location, digest-only, and
// drains: the verdict says so in one line.
func TestDiffSaysWhenTheDaemonQuirkDrains(t *testing.T) {
	t.Parallel()
	itms := "apiVersion: config.openshift.io/v1\nkind: ImageTagMirrorSet\nmetadata:\n  name: apps-tags\nspec:\n  imageTagMirrors:\n" +
		"  - source: quay.io/acme/app\n    mirrors:\n    - mirror.example.com/acme/app\n"
	dir := testtree.Write(t, map[string]string{
		"old/idms.yaml": idmsNamed("apps", "quay.io/acme/app", "mirror.example.com/acme/app"),
		"old/itms.yaml": itms,
		"new/idms.yaml": idmsNamed("apps", "quay.io/acme/app", "fast.example.com/acme/app", "mirror.example.com/acme/app"),
		"new/itms.yaml": itms,
	})
	r := mlRun(t, "", "diff", "--config", "none", filepath.Join(dir, "old"), filepath.Join(dir, "new"))
	const quirk = "  DRAIN  /etc/containers/registries.conf: registry quay.io/acme/app: mirror mirror.example.com/acme/app pull-from-mirror \"tag-only\" is unchanged, " +
		"but the daemon compares it with the first mirror.example.com/acme/app of the old file, \"digest-only\", and drains (an MCD quirk: it matches mirrors by location only)\n"
	if r.code != exitOK || !strings.Contains(r.stdout, "verdict: nodes drain") || !strings.Contains(r.stdout, quirk) ||
		!strings.Contains(r.stdout, "  reload /etc/containers/registries.conf: registry quay.io/acme/app: digest-only mirror fast.example.com/acme/app added\n") {
		t.Errorf("exit %d, want a drain naming the quirk:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
