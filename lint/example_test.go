package lint_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/mirrorlint/mirrorlint/lint"
)

// Lint a tree and print what would fail a build.
func Example() {
	l, err := lint.New(lint.WithOpenShiftVersion("4.16"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := l.Lint(context.Background(), []string{"testdata/example"})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Severity == lint.Error {
			fmt.Printf("%s: %s %s (%s)\n", f.Position, f.Severity, f.Rule, f.Path)
		}
	}
	fmt.Println("fails:", res.Fails(lint.Error))
	// Output:
	// testdata/example/mirrors.yaml:7:13: error repository-lowercase (spec.imageDigestMirrors[0].source)
	// fails: true
}

// Each cluster carries the registries.conf its nodes would get, or MCO's
// refusal.
func ExampleResult_clusters() {
	l, err := lint.New()
	if err != nil {
		log.Fatal(err)
	}
	res, err := l.Lint(context.Background(), []string{"testdata/example"})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Clusters {
		if c.Refusal != nil {
			fmt.Println("MCO refuses:", c.Refusal.Reason)
		}
	}
	// Output:
	// MCO refuses: invalid format for source "registry.redhat.io/UBI9"
}

// Compile once, lint many: the tree, its root, the cluster and a context
// directory are options of each call, so linting another tree does not
// compile the policies again.
func ExampleLinter_Lint() {
	l, err := lint.New(lint.WithOpenShiftVersion("4.16"))
	if err != nil {
		log.Fatal(err)
	}
	for _, tree := range []string{"testdata/example", "../testdata/examples/disconnected"} {
		res, err := l.Lint(context.Background(), []string{tree}, lint.RootDir(tree))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d clusters, fails: %v\n", tree, len(res.Clusters), res.Fails(lint.Error))
	}
	// Output:
	// testdata/example: 1 clusters, fails: true
	// ../testdata/examples/disconnected: 1 clusters, fails: false
}

// A stream, such as the output of kustomize build, is linted under the
// name the call gives it.
func ExampleLinter_LintReader() {
	l, err := lint.New(lint.WithOpenShiftVersion("4.16"))
	if err != nil {
		log.Fatal(err)
	}
	stream := strings.NewReader(`apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: ubi
spec:
  imageDigestMirrors:
  - source: registry.redhat.io/UBI9
    mirrors: [mirror.example.com/ubi9]
`)
	res, err := l.LintReader(context.Background(), "kustomize build overlays/prod", stream)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Severity == lint.Error {
			fmt.Printf("%s: %s\n", f.Position, f.Rule)
		}
	}
	// Output:
	// kustomize build overlays/prod:7:13: repository-lowercase
}
