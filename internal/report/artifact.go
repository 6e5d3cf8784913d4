package report

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/atomicfile"
)

// NotRenderedFile is what a cluster's directory of the render artifact
// holds instead of registries.conf when nothing can be rendered for it.
const NotRenderedFile = "NOT-RENDERED.txt"

// WriteRendered writes the render artifact (lint --render): each cluster's
// registries.conf, to path itself for a single cluster, to
// path/<cluster>/registries.conf for several. A cluster MCO refuses
// (Report.Refused), or whose input does not load (Report.Unreadable), gets
// no registries.conf — one left by an earlier run is removed — since an
// empty or partial file would read as "no mirrors"; with several clusters
// its directory holds NOT-RENDERED.txt saying why. It returns one line per
// cluster saying what was written, or why nothing was.
func WriteRendered(path string, r *Report) (notes []string, err error) {
	names := map[string]bool{}
	for _, m := range []map[string]string{r.Refused, r.Unreadable} {
		for n := range m {
			names[n] = true
		}
	}
	for n := range r.Rendered {
		names[n] = true
	}
	single := len(names) <= 1
	var written []string
	defer func() {
		// A fleet's directory speaks for itself: one line for many files.
		if len(written) > ClusterListLimit {
			written = []string{fmt.Sprintf("wrote registries.conf for %d clusters under %s (DIR/<cluster>/registries.conf)", len(written), path)}
		}
		notes = append(written, notes...)
	}()
	for _, name := range slices.Sorted(maps.Keys(names)) {
		file, dir := path, ""
		if !single {
			dir = filepath.Join(path, filepath.FromSlash(name))
			file = filepath.Join(dir, "registries.conf")
		}
		label := "the cluster"
		if name != "" {
			label = "cluster " + name
		}
		if conf, ok := r.Rendered[name]; ok {
			if dir != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return notes, err
				}
				if err := removeIfThere(filepath.Join(dir, NotRenderedFile)); err != nil {
					return notes, err
				}
			}
			if err := atomicfile.Write(file, conf, 0o644); err != nil {
				return notes, err
			}
			written = append(written, fmt.Sprintf("%s: wrote %s", label, file))
			continue
		}
		why := ""
		if reason, ok := r.Unreadable[name]; ok {
			why = "its input does not load, so any file would be incomplete: " + reason
		} else {
			why = "MCO would refuse to render it and the nodes would keep their previous registries.conf: " + r.Refused[name]
		}
		if err := removeIfThere(file); err != nil {
			return notes, err
		}
		if dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return notes, err
			}
			text := fmt.Sprintf("No registries.conf for %s: %s\n", label, why)
			if err := atomicfile.Write(filepath.Join(dir, NotRenderedFile), []byte(text), 0o644); err != nil {
				return notes, err
			}
		}
		notes = append(notes, fmt.Sprintf("%s: no registries.conf written: %s", label, why))
	}
	return notes, nil
}

func removeIfThere(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
