package config

import (
	"strings"
	"testing"
)

// FuzzParse: any bytes either parse into a config that validates, or give an
// error naming the file; never a panic.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"rules: {icsp-deprecated: \"off\"}\n",
		"ignore: [{rule: r, path: \"a/**\", reason: why}]\n",
		"clusters: [{name: prod, paths: [base, overlays/prod]}]\n",
		"openshiftVersion: 4.16\nreleaseImage: quay.io/x@sha256:abc\n",
		"rules: [a, b]\n",
		"&a [*a]\n",
		"{{ .Values }}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yaml", data)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if c.Path != "fuzz.yaml" {
			t.Fatalf("Path = %q", c.Path)
		}
	})
}
