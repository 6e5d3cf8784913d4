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
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"os"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// The shared corpus sits beside the repository on the team's machines
// (the module root's parent holds "shared"). The paths are found from the
// working directory, which is the package directory under go test, at any
// depth (render is one level below the root, internal/x two).
var (
	SharedRoot      = sharedRoot()
	SharedRender    = SharedRoot + "/corpus/public/render"
	SharedDrain     = SharedRoot + "/corpus/public/drain"
	SharedSignature = SharedRoot + "/corpus/public/signature"
	SharedNDP       = SharedRoot + "/corpus/public/ndp"
)

// CorpusVersion is the release the render and drain corpora are run as:
// their cases model clusters without any ClusterImagePolicy, which 4.21
// always has (the default "openshift" policy), and 4.20 renders everything
// else the same way. A case with an openshift-version.txt (the signature
// corpus) uses that instead.
var CorpusVersion = render.Version{Minor: 20, Patch: -1}

// sharedRoot walks up from the working directory to the module root (the
// directory holding go.mod) and names "shared" beside it; the relative
// form "../../../shared" when there is no module root above.
func sharedRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "../../../shared"
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "../../../shared"
		}
		dir = parent
	}
}

// Case is one case directory of a corpus.
type Case struct {
	Name string // the directory's base name, used as the subtest name
	Dir  string // root joined with Name
}

// ReleaseImage is the case's release-image.txt, "" when it has none.
func (c Case) ReleaseImage() string { return ReadTrim(c.Dir, "release-image.txt") }

// Version is the case's openshift-version.txt, CorpusVersion without one.
func (c Case) Version() (render.Version, error) {
	s := ReadTrim(c.Dir, "openshift-version.txt")
	if s == "" {
		return CorpusVersion, nil
	}
	return render.ParseVersion(s)
}

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
	in, err := c.CheckInput()
	if err != nil {
		return render.Input{}, err
	}
	return in.Input, nil
}

// CheckInput is RenderInput with the way back to the objects.
func (c Case) CheckInput() (*check.Input, error) {
	v, err := c.Version()
	if err != nil {
		return nil, err
	}
	return loadInput(filepath.Join(c.Dir, "manifests"), cluster.Settings{ReleaseImage: c.ReleaseImage(), Version: v}, false)
}

// SideInput does the same for one side ("old" or "new") of a drain pair. A
// side without a manifests/ directory is an empty tree: the pair that
// deletes every mirror object is written that way.
func (c Case) SideInput(side string) (render.Input, error) {
	v, err := c.Version()
	if err != nil {
		return render.Input{}, err
	}
	in, err := loadInput(filepath.Join(c.Dir, side, "manifests"), cluster.Settings{ReleaseImage: c.ReleaseImage(), Version: v}, true)
	if err != nil {
		return render.Input{}, err
	}
	return in.Input, nil
}

func loadInput(dir string, s cluster.Settings, missingIsEmpty bool) (*check.Input, error) {
	set, err := manifest.Load([]string{dir}, manifest.Options{})
	if errors.Is(err, manifest.ErrNotFound) && missingIsEmpty {
		set, err = &manifest.Set{}, nil
	}
	if err != nil {
		return nil, err
	}
	// The CLI refuses to render a tree with any problem (a file that does
	// not parse, an object that does not decode), so a case must have none.
	if len(set.Problems) > 0 {
		var msgs []string
		for _, p := range set.Problems {
			msgs = append(msgs, fmt.Sprintf("%s: %s", p.Pos, p.Message))
		}
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	return check.BuildInput(set.Objects, s), nil
}
