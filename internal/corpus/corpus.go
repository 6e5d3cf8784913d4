// Package corpus is test support: it lists the cases of the MCO corpus (the
// shared copy beside the repository and the cases copied into testdata) and
// loads their manifests with the real loader, so that the corpus tests of
// render, drain, rules, impact and the CLI read cases the same way.
//
// It is a plain package, not a _test.go file, because test files cannot be
// imported across packages. It imports render (directly and through lint),
// so render's corpus test is an external test package (render_test).
package corpus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// The shared corpus sits beside the repository on the team's machines. The
// paths are relative to a package directory two levels below the root
// (internal/x, cmd/x), which is where go test runs each package's tests.
const (
	SharedRoot   = "../../../shared"
	SharedRender = SharedRoot + "/corpus/public/render"
	SharedDrain  = SharedRoot + "/corpus/public/drain"
)

// Case is one case directory of a corpus.
type Case struct {
	Name string // the directory's base name, used as the subtest name
	Dir  string // root joined with Name
}

// ReleaseImage is the case's release-image.txt, "" when it has none.
func (c Case) ReleaseImage() string { return ReadTrim(c.Dir, "release-image.txt") }

// Expected returns the path of a file under the case's expected/ directory.
func (c Case) Expected(name string) string { return filepath.Join(c.Dir, "expected", name) }

// Cases lists, in name order, the directories directly under root that hold
// marker (a path relative to the case, such as "expected/verdict.txt"; ""
// takes every directory). An unreadable root is an error rather than an
// empty list, so that a test pointed at a missing copy fails instead of
// passing on no cases.
func Cases(root, marker string) ([]Case, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var cases []Case
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := Case{Name: e.Name(), Dir: filepath.Join(root, e.Name())}
		if marker != "" {
			if _, err := os.Stat(filepath.Join(c.Dir, marker)); err != nil {
				continue
			}
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// ReadTrim reads a small text file (the path is joined from elem) with
// surrounding white space trimmed, "" when it cannot be read: the corpus
// leaves out the files that do not apply to a case.
func ReadTrim(elem ...string) string {
	b, err := os.ReadFile(filepath.Join(elem...))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// RenderInput loads the case's manifests/ tree and release image as the CLI
// would hand them to the renderer.
func (c Case) RenderInput() (render.Input, error) {
	return loadInput(filepath.Join(c.Dir, "manifests"), c.ReleaseImage(), false)
}

// SideInput does the same for one side ("old" or "new") of a drain pair. A
// side without a manifests/ directory is an empty tree: the pair that
// deletes every mirror object is written that way.
func (c Case) SideInput(side string) (render.Input, error) {
	return loadInput(filepath.Join(c.Dir, side, "manifests"), c.ReleaseImage(), true)
}

func loadInput(dir, releaseImage string, missingIsEmpty bool) (render.Input, error) {
	set, err := manifest.Load([]string{dir}, manifest.Options{})
	if errors.Is(err, manifest.ErrNotFound) && missingIsEmpty {
		set, err = &manifest.Set{}, nil
	}
	if err != nil {
		return render.Input{}, err
	}
	// The CLI refuses to render a tree with any problem (a file that does
	// not parse, an object that does not decode), so a case must have none.
	if len(set.Problems) > 0 {
		var msgs []string
		for _, p := range set.Problems {
			msgs = append(msgs, fmt.Sprintf("%s: %s", p.Pos, p.Message))
		}
		return render.Input{}, errors.New(strings.Join(msgs, "\n"))
	}
	return check.BuildInput(set.Objects, check.Settings{ReleaseImage: releaseImage}).Input, nil
}
