package migrate

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Load reads the trees at paths and returns the files holding an
// ImageContentSourcePolicy the cluster would serve, in walk order, with the
// text the loader read (so that planning does not read them again). When
// an input does not load, it returns its problems and no file: such a file
// may hold an ICSP the loader cannot see, and migrating only the rest would
// leave it behind without a word.
func Load(paths []string, o manifest.Options) ([]File, []manifest.Problem, error) {
	set, err := manifest.Load(paths, o)
	if err != nil {
		return nil, nil, err
	}
	if problems := manifest.Errors(set.Problems); len(problems) > 0 {
		return nil, problems, nil
	}
	var out []File
	seen := map[string]bool{}
	for _, obj := range set.Objects {
		if obj.Known && obj.Kind == manifest.KindICSP && !seen[obj.File] {
			seen[obj.File] = true
			out = append(out, File{Path: obj.File, Data: obj.Text()})
		}
	}
	return out, nil, nil
}

// UnlistedBy returns the kustomization of path's directory when it does
// not name path's file: kustomize would not apply a new file written there,
// and the ICSP it replaces would stay in effect. "" when there is no
// kustomization or it names the file.
func UnlistedBy(path string) string {
	k := kustomization.Find(filepath.Dir(path))
	if k == "" {
		return ""
	}
	data, err := os.ReadFile(k)
	if err != nil || strings.Contains(string(data), filepath.Base(path)) {
		return ""
	}
	return k
}
