package check

import "github.com/mirrorlint/mirrorlint/internal/manifest"

// Move sets the position of every finding, and of every related location,
// to where place says the value at its object and path is written; a
// position place has no answer for (ok false) is kept.
func Move(fs []Finding, place func(kind, name, path string) (_ manifest.Position, ok bool)) {
	for i := range fs {
		f := &fs[i]
		if pos, ok := place(f.Object.Kind, f.Object.Name, f.Path); ok {
			f.Position = pos
		}
		for j := range f.Related {
			l := &f.Related[j]
			if pos, ok := place(l.Object.Kind, l.Object.Name, l.Path); ok {
				l.Position = pos
			}
		}
	}
}
