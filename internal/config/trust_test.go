package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDistrustKeepsOnlyWhatStaysInside: a config found in the tree keeps
// the data files, policy and source CR directories inside the repository
// and loses the others, each refusal naming its key's line; allowNet and a
// longer policyTimeout or larger policyMemory go too; a smaller
// policyMemory, which only tightens the run, stays.
func TestDistrustKeepsOnlyWhatStaysInside(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"policy", "source-crs"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "data.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := `allowNet: true
policyTimeout: 1000h
policyMemory: 65536
data: [data.yaml, /etc/passwd]
policies: [policy, ../../outside]
sourceCRs: [source-crs, /etc]
`
	c, err := Parse(filepath.Join(root, ".mirrorlint.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	refused := c.Distrust(root, 10*time.Second, 1024)
	var keys []string
	for _, r := range refused {
		keys = append(keys, r.Key)
		if r.Line == 0 || !strings.Contains(r.Message, "refused from a config found in the repository") {
			t.Errorf("refusal %+v: no line or no reason", r)
		}
	}
	want := []string{"allowNet", "policyTimeout", "policyMemory", "data[1]", "policies[1]", "sourceCRs[1]"}
	if !slices.Equal(keys, want) {
		t.Errorf("refused %v, want %v", keys, want)
	}
	if c.AllowNet || c.PolicyTimeout != "" || c.PolicyMemory != 0 {
		t.Errorf("allowNet %v, policyTimeout %q, policyMemory %d kept", c.AllowNet, c.PolicyTimeout, c.PolicyMemory)
	}
	if r := refused[2]; r.Line != 3 || !strings.Contains(r.Message, "policyMemory 65536 MiB is more than the default 1024 MiB (use --policy-memory)") {
		t.Errorf("policyMemory refusal at line %d: %s", r.Line, r.Message)
	}
	smaller, err := Parse(filepath.Join(root, ".mirrorlint.yaml"), []byte("policyMemory: 256\n"))
	if err != nil {
		t.Fatal(err)
	}
	if refused := smaller.Distrust(root, 10*time.Second, 1024); len(refused) != 0 || smaller.PolicyMemory != 256 {
		t.Errorf("a smaller policyMemory: refused %v, kept %d", refused, smaller.PolicyMemory)
	}
	if !slices.Equal(c.Data, []string{"data.yaml"}) || !slices.Equal(c.Policies, []string{"policy"}) || !slices.Equal(c.SourceCRs, []string{"source-crs"}) {
		t.Errorf("kept data %v, policies %v, sourceCRs %v", c.Data, c.Policies, c.SourceCRs)
	}
}
