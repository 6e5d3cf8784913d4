package testtree

import (
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Write creates the directories on the way and writes each file with its
// content; Link makes a link that resolves relative to its directory;
// Writer overwrites and adds files later.
func TestWriteAndLink(t *testing.T) {
	dir := Write(t, map[string]string{
		"top.yaml":          "a: 1\n",
		"nested/deep/x.txt": "x\n",
	})
	for name, want := range map[string]string{"top.yaml": "a: 1\n", "nested/deep/x.txt": "x\n"} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
		info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || info.Mode().Perm()&^0o644 != 0 {
			t.Errorf("%s mode %v, %v; want at most 0644", name, info.Mode(), err)
		}
	}
	Link(t, "../top.yaml", filepath.Join(dir, "links/top.yaml"))
	if b, err := os.ReadFile(filepath.Join(dir, "links/top.yaml")); err != nil || string(b) != "a: 1\n" {
		t.Errorf("through the link: %q, %v", b, err)
	}
	write := Writer(t, dir)
	write("top.yaml", "a: 2\n")
	write("later/y.yaml", "y: 1\n")
	for name, want := range map[string]string{"top.yaml": "a: 2\n", "later/y.yaml": "y: 1\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err != nil || string(b) != want {
			t.Errorf("after Writer, %s = %q, %v; want %q", name, b, err, want)
		}
	}
}

// PublicKeyData must stay a base64 PEM public key: the schema rejects
// anything else, and the tests using it expect no finding about the key.
func TestPublicKeyDataIsAPEMKey(t *testing.T) {
	b, err := base64.StdEncoding.DecodeString(PublicKeyData)
	if err != nil {
		t.Fatal(err)
	}
	if blk, _ := pem.Decode(b); blk == nil || blk.Type != "PUBLIC KEY" {
		t.Fatalf("not a PEM public key:\n%s", b)
	}
}

// HubFile indents registries.conf into its ConfigMap (blank lines stay
// blank), from line 8, and names the ConfigMap in the AgentServiceConfig;
// Hub puts it in asc.yaml of its directory, beside a kustomization listing
// it, with each source's mirror in the sources' order.
func TestHubFiles(t *testing.T) {
	file := HubFile("cm", "[[registry]]\nlocation = \"q\"\n\n  [[registry.mirror]]\n")
	lines := strings.Split(file, "\n")
	if lines[3] != "  name: cm" || lines[7] != "    [[registry]]" || lines[9] != "" || lines[10] != "      [[registry.mirror]]" ||
		!strings.HasSuffix(file, "kind: AgentServiceConfig\nmetadata:\n  name: agent\nspec:\n  mirrorRegistryRef:\n    name: cm\n") {
		t.Errorf("HubFile:\n%s", file)
	}
	for dir, prefix := range map[string]string{"": "", "clusters/hub": "clusters/hub/"} {
		files := Hub(dir, map[string]string{"quay.io/b": "m.example.com/b", "quay.io/a": "m.example.com/a"})
		want := HubFile("mirrors", "[[registry]]\nlocation = \"quay.io/a\"\n[[registry.mirror]]\nlocation = \"m.example.com/a\"\n"+
			"[[registry]]\nlocation = \"quay.io/b\"\n[[registry.mirror]]\nlocation = \"m.example.com/b\"\n")
		if len(files) != 2 || files[prefix+"asc.yaml"] != want || files[prefix+"kustomization.yaml"] != "resources: [asc.yaml]\n" {
			t.Errorf("Hub(%q) = %q", dir, files)
		}
	}
}

// ClusterInstance writes its overrides as a block from line 9, the last
// line ended once, and leaves the key out without them.
func TestClusterInstance(t *testing.T) {
	with := ClusterInstance("sno1", "openshift-4.20", "{\"a\":\n  1}")
	if lines := strings.Split(with, "\n"); len(lines) != 12 || lines[3] != "  name: sno1" || lines[7] != "  clusterImageSetNameRef: openshift-4.20" ||
		lines[8] != "  installConfigOverrides: |" || lines[9] != `    {"a":` || lines[10] != "      1}" {
		t.Errorf("with overrides:\n%s", with)
	}
	if without := ClusterInstance("sno1", "x", ""); strings.Contains(without, "installConfigOverrides") || !strings.HasSuffix(without, "  clusterName: sno1\n  clusterImageSetNameRef: x\n") {
		t.Errorf("without overrides:\n%s", without)
	}
}
