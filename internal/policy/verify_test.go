package policy

import (
	"bytes"
	"strings"
	"testing"
)

func TestVerifyBuiltinLibraryPasses(t *testing.T) {
	var out bytes.Buffer
	failed, err := Verify(Options{Builtin: true}, &out)
	if err != nil {
		t.Fatalf("Verify: %v\n%s", err, out.String())
	}
	if failed {
		t.Fatalf("built-in library tests failed:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "PASS:") || strings.Contains(out.String(), "no tests found") {
		t.Errorf("want a PASS summary with tests, got:\n%s", out.String())
	}
	t.Log(out.String())
}
