package manifest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMayHoldShapes: the ways YAML and JSON can write a kind, each read or
// kept, and documents without a needed kind skipped.
func TestMayHoldShapes(t *testing.T) {
	t.Parallel()
	need := NeedAll()
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n", false},
		{"kind: ImageDigestMirrorSet\n", true},
		{"kind:   'ImageTagMirrorSet'   # tags\n", true},
		{"kind: \"ImageContentSourcePolicy\"\n", true},
		{"- {apiVersion: v1, kind: Image}\n", true},
		{`{"apiVersion":"config.openshift.io/v1","kind":"ImageDigestMirrorSet"}`, true},
		{`{"kind" : "Secret"}`, false},
		{"kind: ImageDigestMirrorSetList\nitems: [{spec: {}}]\n", true},
		{"kind: List\nitems:\n- kind: MachineConfig\n", true},
		{"kind: !!str ImageDigestMirrorSet\n", true},
		{"kind: &k ImageDigestMirrorSet\n", true},
		{"\xEF\xBB\xBFkind: ImageDigestMirrorSet\n", true},
		{"kind: Deployment\r\nmetadata: {name: x}\r\n", false},
		// Values MayHold cannot read keep the file.
		{"kind:\n  ImageDigestMirrorSet\n", true},
		{"kind: *k\n", true},
		{"kind: >\n  ImageDigestMirrorSet\n", true},
		{"kind: \"Image\n  DigestMirrorSet\"\n", true},
		{"? kind\n: ImageDigestMirrorSet\n", true},
		{"&k kind: ImageDigestMirrorSet\n", true},
		{"kind: \"Image\\u0044igestMirrorSet\"\n", true},
		{"kind: Deployment\ndata: 'C:\\path'\n", true},
		{"\xFF\xFEk\x00i\x00n\x00d\x00", true},
		// "kind" that is no key, or another key.
		{"apiVersion: v1\nkind: Secret\ndata:\n  kindness: ImageDigestMirrorSet\n  app.kubernetes.io/kind: Image\n", false},
		{"kind: Secret\ndata: {x: \"kind of ImageDigestMirrorSet\"}\n", false},
		// ConfigMaps are parsed: the platform's own are kept.
		{"kind: ConfigMap\n", true},
		{"", false},
	} {
		if got := need.MayHold([]byte(tc.doc), UnmodelledNone); got != tc.want {
			t.Errorf("MayHold(%q) = %v, want %v", tc.doc, got, tc.want)
		}
	}
	only := NeedKinds("ImageTagMirrorSet")
	if only.MayHold([]byte("kind: ImageDigestMirrorSet\n"), UnmodelledNone) || !only.MayHold([]byte("kind: ImageTagMirrorSetList\n"), UnmodelledNone) {
		t.Errorf("NeedKinds(ImageTagMirrorSet): an IDMS is not needed, a typed list of ITMS is")
	}
	// A misspelt mirror kind is kept to be reported: needed with any kind.
	if !only.MayHold([]byte("kind: imageDigestMirrorSet\n"), UnmodelledNone) {
		t.Errorf("a near miss of a mirror kind is skipped")
	}
	// Workloads are needed only when the loader keeps them.
	deploy := []byte("apiVersion: apps/v1\nkind: Deployment\n")
	for u, want := range map[Unmodelled]bool{UnmodelledNone: false, UnmodelledImages: true, UnmodelledAll: true} {
		if got := NeedAll().MayHold(deploy, u); got != want {
			t.Errorf("a Deployment with Unmodelled %d: %v, want %v", u, got, want)
		}
	}
	if NeedKinds("ImageDigestMirrorSet").MayHold(deploy, UnmodelledImages) {
		t.Errorf("a Deployment is not needed when only IDMS are")
	}
}

// TestPrefilterConservative: every file of the repository's test data, the
// shared corpus and the real-world folders from which the loader keeps an
// object is one MayHold keeps, for every kind among its objects: the
// byte test never skips a file the loader reads something from.
func TestPrefilterConservative(t *testing.T) {
	t.Parallel()
	roots := []string{"../..", "/work/shared/corpus", realworldDir}
	files := 0
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && (d.Name() == ".git" || d.Name() == "bin") {
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || !manifestExt(d.Name()) {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil || len(data) > 1<<20 {
				return nil
			}
			files++
			checkConservative(t, p, data)
			return nil
		})
	}
	if files < 100 {
		t.Fatalf("only %d files checked", files)
	}
}

func checkConservative(t *testing.T, name string, data []byte) {
	t.Helper()
	for _, u := range []Unmodelled{UnmodelledNone, UnmodelledImages, UnmodelledAll} {
		res := parseFile(name, data, u)
		for _, o := range res.objects {
			for _, n := range []Needs{NeedAll(), NeedKinds(string(o.Kind))} {
				if !n.MayHoldFile(name, data, u) {
					t.Errorf("%s: %s is kept by the loader (unmodelled %d), but MayHold(%v) skips the file", name, o.Ref(), u, n.Kinds())
				}
			}
		}
	}
}

// FuzzPrefilter: on any input, a file the loader keeps an object from is
// a file MayHold keeps. Seeds in testdata/fuzz/FuzzPrefilter.
func FuzzPrefilter(f *testing.F) {
	f.Add([]byte(goodIDMS))
	f.Add([]byte("{\"kind\":\"Image\",\"apiVersion\":\"config.openshift.io/v1\"}"))
	f.Add([]byte("kind: List\nitems:\n- {kind: MachineConfig, apiVersion: machineconfiguration.openshift.io/v1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(data, []byte("\x00")) || strings.ContainsRune(string(data), '\\') {
			return // kept wholesale, nothing to learn
		}
		checkConservative(t, "fuzz.yaml", data)
	})
}
