package kustomization

import (
	"os"
	"path"
	"path/filepath"

	"github.com/mirrorlint/mirrorlint/internal/suggest"
)

// maxNearby bounds the directory entries read for a suggestion.
const maxNearby = 1000

// Nearby is the path the user probably meant for an entry value of the
// kustomization in dir that names no file: value with its last element
// replaced by the closest name in that directory ("01_configmap.yaml" for
// "01_cofigmap.yaml"), "" when no name is close.
func Nearby(dir, value string) string {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(path.Dir(value))))
	if err != nil {
		return ""
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxNearby)
	near := suggest.Typo(path.Base(value), names)
	if near == "" || near == path.Base(value) {
		return ""
	}
	return path.Join(path.Dir(value), near)
}
