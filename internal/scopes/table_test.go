package scopes

import (
	"encoding/json"
	"os"
	"testing"
)

// NestingCase is one row of testdata/nesting.json, the table both IsNested
// and the Rego library's scope.within (policies/scope.rego) are tested
// against, so the two cannot drift apart.
type nestingCase struct {
	Sub, Super string
	Nested     bool
	Why        string
}

func TestIsNestedTable(t *testing.T) {
	data, err := os.ReadFile("testdata/nesting.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []nestingCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		if got := IsNested(c.Sub, c.Super); got != c.Nested {
			t.Errorf("IsNested(%q, %q) = %v, want %v: %s", c.Sub, c.Super, got, c.Nested, c.Why)
		}
	}
}
