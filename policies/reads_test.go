package policies

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// kindLiteral finds a quoted word that may be a kind in a policy.
var kindLiteral = regexp.MustCompile(`"([A-Z][A-Za-z]+)"`)

// TestReadsDeclared: every kind of object the loader keeps that the
// library's policies name is in Reads, so a pre-commit run never leaves a
// file the library reads unparsed.
func TestReadsDeclared(t *testing.T) {
	files, err := fs.Glob(FS, "*.rego")
	if err != nil || len(files) == 0 {
		t.Fatalf("library files: %v %v", files, err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.rego") {
			continue
		}
		data, err := fs.ReadFile(FS, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range kindLiteral.FindAllStringSubmatch(string(data), -1) {
			if manifest.Keeps(m[1]) && !slices.Contains(Reads, m[1]) {
				t.Errorf("%s names %s, which Reads does not declare", f, m[1])
			}
		}
	}
}
