package policies_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/mirrorlint/mirrorlint/policies"
)

// The Rego library's scope.within answers the shared nesting table exactly
// as the renderer's scopes.IsNested does (internal/scopes tests the Go side
// against the same file).
func TestWithinTable(t *testing.T) {
	data, err := os.ReadFile("../internal/scopes/testdata/nesting.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Sub, Super string
		Nested     bool
		Why        string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	src, err := policies.FS.ReadFile("scope.rego")
	if err != nil {
		t.Fatal(err)
	}
	q, err := rego.New(
		rego.Query("x := data.mirrorlint.lib.scope.within(input.sub, input.super)"),
		rego.Module("scope.rego", string(src)),
	).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		rs, err := q.Eval(context.Background(), rego.EvalInput(map[string]any{"sub": c.Sub, "super": c.Super}))
		if err != nil {
			t.Fatal(err)
		}
		got := len(rs) == 1 && rs[0].Bindings["x"] == true
		if got != c.Nested {
			t.Errorf("scope.within(%q, %q) = %v, want %v: %s", c.Sub, c.Super, got, c.Nested, c.Why)
		}
	}
}
