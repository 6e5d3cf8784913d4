package lint_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mirrorlint/mirrorlint/lint"
)

// Lint a tree and print what would fail a build.
func Example() {
	l, err := lint.New(lint.WithOpenShiftVersion("4.16"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := l.Lint(context.Background(), "testdata/example")
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
	res, err := l.Lint(context.Background(), "testdata/example")
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
