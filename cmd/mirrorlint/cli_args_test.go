package main

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Mistakes on the command line are usage errors (exit 2) found before any
// tree is read, with a message saying what is wrong.
func TestCommandLineMistakesAreUsageErrors(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{"idms.yaml": resolveTree})
	cases := []struct {
		args []string
		want string
	}{
		// Not an image reference at all: a usage error, not "MCO would
		// refuse to render".
		{[]string{"lint", "--config", "none", "--release-image", "bad ref", tree}, `--release-image "bad ref" is not an image reference`},
		{[]string{"render", "--config", "none", "--release-image", "https://quay.io/a/b@sha256:1", tree}, "is not an image reference"},
		// resolve checks its image before reading the tree: the tree does
		// not exist, and the message is about the image.
		{[]string{"resolve", "Not A Reference", "/no/such/tree"}, `invalid image reference "Not A Reference"`},
		// A stream and a tree in one run: refused, not one of them ignored.
		{[]string{"lint", "--config", "none", "-", tree}, `"-" (standard input) cannot be combined with other paths (` + tree + `)`},
		{[]string{"render", "--config", "none", tree, "-"}, `"-" (standard input) cannot be combined`},
		{[]string{"resolve", "quay.io/a/b:1", "-", tree}, `"-" (standard input) cannot be combined`},
		// A stream has no tree at another revision to compare with.
		{[]string{"lint", "--config", "none", "--base", "HEAD", "-"}, "--base HEAD: --base cannot be combined with standard input"},
		{[]string{"diff", "--config", "none", "--base", "HEAD", "-"}, "--base cannot be combined with standard input"},
	}
	for _, c := range cases {
		r := mlRun(t, "", c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, want 2 with %q\nstderr: %s", c.args, r.code, c.want, r.stderr)
		}
		if strings.Contains(r.stderr, "MCO would refuse") {
			t.Errorf("%v: reported as an MCO refusal: %s", c.args, r.stderr)
		}
	}
}

// A reference-shaped release image that MCO's parser rejects (upper case in
// the repository) stays what the cluster would do: MCO refuses to render.
func TestReleaseImageMCORejectsStaysARefusal(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{"idms.yaml": resolveTree})
	r := mlRun(t, "", "render", "--config", "none", "--release-image", "quay.io/openshift-release-dev/OCP-release@sha256:"+strings.Repeat("ab", 32), tree)
	if r.code != exitFindings || !strings.Contains(r.stderr, "error parsing reference of release image") {
		t.Errorf("exit %d, stderr %s", r.code, r.stderr)
	}
}

// Bare `mirrorlint` prints the help under the program's name and exits 2.
func TestBareCommandPrintsHelpWithItsName(t *testing.T) {
	t.Parallel()
	r := mlRun(t, "")
	if r.code != exitUsage {
		t.Errorf("exit %d, want 2", r.code)
	}
	if !strings.Contains(r.stdout, "NAME:\n   mirrorlint - check OpenShift") || !strings.Contains(r.stdout, "USAGE:\n   mirrorlint [global options] command") {
		t.Errorf("help does not name the program:\n%s", r.stdout)
	}
}

// resolve pulls a tag+digest reference by digest, as CRI-O does.
func TestResolveTagAndDigest(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{"idms.yaml": resolveTree})
	dg := "@sha256:" + strings.Repeat("ab", 32)
	r := mlRun(t, "", "resolve", "--config", "none", "quay.io/openshift-release-dev/ocp-release:4.16.0"+dg, tree)
	if r.code != exitOK || !strings.Contains(r.stdout, "1. mirror  mirror.example.com/ocp/release"+dg) || !strings.Contains(r.stdout, "drops the tag (:4.16.0)") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
