package impact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Old says where the old side of a comparison comes from. A --base
// comparison reads it from a temporary copy of the repository at a
// revision: its files are shown as paths from the repository's top level
// with the revision ("common/mirrors/idms.yaml:18 (at HEAD)"), never as
// the temporary directory, which is gone once the run ends.
type Old struct {
	// Rev is the base revision; "" when the old tree is a directory given
	// on the command line (its files are shown as they are named).
	Rev string
	// Name maps a file of the old tree to how people read it (the path
	// from the repository's top level); nil keeps the name.
	Name func(string) string
	// NewFile maps a file of the old tree to the same file in the new tree
	// (which may no longer exist); nil or "" when there is none.
	NewFile func(string) string
	// Dir is the temporary directory the old tree was copied to; messages
	// that quote a path inside it (kustomize's) get the path from the
	// repository's top level instead.
	Dir string
}

// Message rewrites a message about the old tree so that it names no
// temporary path.
func (o Old) Message(msg string) string {
	if o.Dir == "" {
		return msg
	}
	return strings.ReplaceAll(msg, o.Dir+string(filepath.Separator), "")
}

func (o Old) name(file string) string {
	if o.Name == nil || file == "" {
		return file
	}
	return o.Name(file)
}

// position shows a position in the old tree: "path:line", and
// " (at REV)" for a revision.
func (o Old) position(p manifest.Position) string {
	p.File = o.name(p.File)
	return o.at(p)
}

// at shows a position whose file is already named for people.
func (o Old) at(p manifest.Position) string {
	s := p.File
	if p.Line > 0 {
		s += fmt.Sprintf(":%d", p.Line)
	}
	if o.Rev != "" {
		s += " (at " + o.Rev + ")"
	}
	return s
}

func (o Old) newFile(file string) string {
	if o.NewFile == nil || file == "" {
		return ""
	}
	return o.NewFile(file)
}

// Dirs is the Old of a comparison of two directories given on the command
// line: a file under oldRoot corresponds to the file at the same place
// under newRoot.
func Dirs(oldRoot, newRoot string) Old {
	oldReal := manifest.RealPath(oldRoot)
	return Old{NewFile: func(f string) string {
		rel, in := manifest.Within(oldReal, manifest.RealPath(f))
		if !in {
			return ""
		}
		return filepath.Join(newRoot, rel)
	}}
}

// inNewTree is the start of the new tree's copy of an old file, for a
// finding about the old side that a viewer of the new tree should see (an
// annotation needs a file of the checkout); zero when there is none.
func (o Old) inNewTree(oldFile string) manifest.Position {
	nf := o.newFile(oldFile)
	if nf == "" {
		return manifest.Position{}
	}
	if st, err := os.Stat(nf); err != nil || !st.Mode().IsRegular() {
		return manifest.Position{}
	}
	return manifest.Position{File: nf, Line: 1, Column: 1}
}
