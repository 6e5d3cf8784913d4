package report

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/atomicfile"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// NotRenderedFile is what a cluster's directory of the render artifact
// holds instead of registries.conf when nothing can be rendered for it.
const NotRenderedFile = "NOT-RENDERED.txt"

// WriteRendered writes the render artifact (lint --render): each cluster's
// registries.conf, to path itself for a single cluster, to
// path/<cluster>/registries.conf for several (the unnamed cluster of the
// tree's leftover files to path/registries.conf). A cluster MCO refuses
// (Report.Refused), whose input a component before MCO refuses
// (Report.Stopped), or whose input does not load (Report.Unreadable), gets
// no registries.conf — one left by an earlier run is removed — since an
// empty or partial file would read as "no mirrors"; with several clusters
// its directory holds NOT-RENDERED.txt saying why. It returns one line per
// cluster saying what was written, or why nothing was.
func WriteRendered(path string, r *Report) (notes []string, err error) {
	names := map[string]bool{}
	for _, m := range []map[string]string{r.Refused, r.Stopped, r.Unreadable} {
		for n := range m {
			names[n] = true
		}
	}
	for n := range r.Rendered {
		names[n] = true
	}
	single := len(names) <= 1
	var out *safefs.OutDir
	if !single {
		if out, err = safefs.NewOutDir(path); err != nil {
			return nil, err
		}
	}
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
		label := "the cluster"
		if name != "" {
			label = "cluster " + name
		}
		if !single {
			if dir, err = safefs.ClusterDir(name, path); err != nil {
				return notes, err
			}
			if name == "" {
				label = "cluster ."
			}
			file = out.Path(under(dir, "registries.conf"))
		}
		if conf, ok := r.Rendered[name]; ok {
			if dir != "" {
				if err := out.Remove(under(dir, NotRenderedFile)); err != nil {
					return notes, err
				}
				err = out.WriteFile(under(dir, "registries.conf"), conf, 0o644)
			} else {
				err = atomicfile.Write(file, conf, 0o644)
			}
			if err != nil {
				return notes, err
			}
			written = append(written, fmt.Sprintf("%s: wrote %s", label, file))
			continue
		}
		why := ""
		if reason, ok := r.Unreadable[name]; ok {
			why = "its input does not load, so any file would be incomplete: " + reason
		} else if reason, ok := r.Stopped[name]; ok {
			why = "not rendered: " + reason
		} else {
			why = "MCO would refuse to render it and the nodes would keep their previous registries.conf: " + r.Refused[name]
		}
		if dir != "" {
			if err := out.Remove(under(dir, "registries.conf")); err != nil {
				return notes, err
			}
			text := fmt.Sprintf("No registries.conf for %s: %s\n", label, why)
			if err := out.WriteFile(under(dir, NotRenderedFile), []byte(text), 0o644); err != nil {
				return notes, err
			}
		} else if err := removeIfThere(file); err != nil {
			return notes, err
		}
		notes = append(notes, fmt.Sprintf("%s: no registries.conf written: %s", label, why))
	}
	return notes, nil
}

// under is file in the cluster directory dir of the artifact, "." being
// the artifact's own directory.
func under(dir, file string) string {
	if dir == "." {
		return file
	}
	return dir + "/" + file
}

func removeIfThere(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
