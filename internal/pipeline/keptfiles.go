package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// A render's larger files are kept beside the entry that holds the
// render, each as an entry of its own holding the file's bytes as they
// are, named by their SHA-256 ("file/<sum>"): a cluster of thousands of
// mirrors has a registries.conf of megabytes, which inside a JSON entry is
// base64 that every run taking the entry scans byte by byte, and that a
// first run writes and reads back again to check its entry. A file entry
// whose bytes do not hash to its name is not taken, and neither is the
// entry naming it.

// keptFileMin is the size from which a file is kept as an entry of its
// own; smaller ones stay inside the render.
const keptFileMin = 4 << 10

// keptFields are the render's files that may be kept on their own.
var keptFields = []struct {
	name string
	at   func(*render.Output) *[]byte
}{
	{"RegistriesConf", func(o *render.Output) *[]byte { return &o.RegistriesConf }},
	{"SearchRegistriesConf", func(o *render.Output) *[]byte { return &o.SearchRegistriesConf }},
	{"PolicyJSON", func(o *render.Output) *[]byte { return &o.PolicyJSON }},
	{"SigstoreRegistriesYAML", func(o *render.Output) *[]byte { return &o.SigstoreRegistriesYAML }},
}

// keptOutput is a render as an entry holds it: the files named in Files
// are left out of Output and kept under those keys.
type keptOutput struct {
	render.Output
	Files map[string]string `json:"files,omitempty"`
}

// keepOutput stores o's larger files in store and returns o as an entry
// holds it; nil for nil.
func keepOutput(store manifest.Cache, o *render.Output) *keptOutput {
	if o == nil {
		return nil
	}
	k := &keptOutput{Output: *o}
	for _, f := range keptFields {
		b := f.at(&k.Output)
		if len(*b) < keptFileMin {
			continue
		}
		sum := sha256.Sum256(*b)
		key := "file/" + hex.EncodeToString(sum[:])
		store.Put(key, *b)
		if k.Files == nil {
			k.Files = map[string]string{}
		}
		k.Files[f.name] = key
		*b = nil
	}
	return k
}

// restore is the render k holds with its files read back from store;
// false when a file is missing, does not hash to its key, or is named
// under a field that holds none.
func (k *keptOutput) restore(store manifest.Cache) (*render.Output, bool) {
	if k == nil {
		return nil, true
	}
	out := k.Output
	for name, key := range k.Files {
		var at *[]byte
		for _, f := range keptFields {
			if f.name == name {
				at = f.at(&out)
			}
		}
		if at == nil || *at != nil {
			return nil, false
		}
		data, ok := store.Get(key)
		if !ok {
			return nil, false
		}
		sum := sha256.Sum256(data)
		if key != "file/"+hex.EncodeToString(sum[:]) {
			return nil, false
		}
		// The caller may keep the render longer than the store lives.
		*at = bytes.Clone(data)
	}
	return &out, true
}
