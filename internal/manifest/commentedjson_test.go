package manifest

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A .json file YAML cannot read and whose text names no kind (a
// tsconfig.json or VS Code settings with comments, a \n escape and all)
// is no manifest: its syntax error is not reported. One that names a kind,
// could spell one with a numeric escape, or is a .yaml file, is reported
// as before.
func TestCommentedJSONIsNoManifest(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"ui/tsconfig.json":     "{\n  \"compilerOptions\": {\n    // \"incremental\": true,\n    \"target\": \"esnext\" /* the language */,\n  }\n}\n",
		"vscode/settings.json": "{\n  \"files.eol\": \"\\n\" /* the line end */,\n  \"editor.tabSize\": 2\n}\n",
		"broken-object.json":   "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\" /* a comment */}\n",
		"escaped.json":         "{\"\\u006bind\": \"ConfigMap\" /* a comment */}\n",
		"playbook.yaml":        "- hosts: all\n  vars: [unclosed\n",
		"good/configmap.json":  "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"x\"}}\n",
	})
	set := mustLoad(t, []string{dir}, Options{})
	var got []string
	for _, p := range set.Problems {
		rel, err := filepath.Rel(dir, p.Pos.File)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.ToSlash(rel)+" "+p.Code)
	}
	slices.Sort(got)
	want := []string{"broken-object.json parse-error", "escaped.json parse-error", "playbook.yaml parse-error"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
}
