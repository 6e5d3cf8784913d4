package sites

import (
	"os"
	"strings"
	"testing"
)

func readTrim(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("shared corpus not present: %v", err)
	}
	return strings.TrimSpace(string(b))
}
