package ztp

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The policy generator reads a manifest directory holding a
// kustomization.yaml or kustomization.yml (no other name: it looks for
// those two among the directory's YAML files) by running kustomize on it,
// with kustomize's defaults: no external plugin, no Helm unless its
// environment enables it, files only from the directory and its bases. It
// takes the built objects as the path's manifests, and fails as a whole
// when the build fails.

// ErrKustomization is what Manifests answers for a directory holding a
// kustomization: what it delivers is what Kustomization builds.
var ErrKustomization = errors.New("a kustomization")

// Built is one object kustomize built from a manifest directory.
type Built struct {
	// Node is the object as kustomize builds it, each node carrying the
	// line and column of the value it came from; a node with no file in
	// Files is placed on the generator's path entry.
	Node *yaml.Node
	// Files names the file of each node.
	Files map[*yaml.Node]string
	// Source is the file the object is written in.
	Source string
}

// Kustomized is a build of a manifest directory: its objects, and the
// files the build read (also when it failed: an edit to one changes it).
type Kustomized struct {
	Objects []Built
	Files   []File
}

// Kustomizer builds the kustomization in dir (a path to open), naming
// files by the paths it opened them by. An error of type *NotBuilt is a
// build it did not run or finish for a reason of its own; any other error
// is kustomize's, which fails the generator too.
type Kustomizer func(dir string) (Kustomized, error)

// NotBuilt is a kustomization left unbuilt for a reason of mirrorlint's,
// not of the generator's: a Helm chart it does not inflate, a remote base
// it does not fetch, a file outside the repository, or one of the run's
// limits (Limit).
type NotBuilt struct {
	Reason string
	Limit  bool
	// Helm: the build inflates a Helm chart (kustomize's --enable-helm).
	Helm bool
}

func (e *NotBuilt) Error() string { return e.Reason }

// overLimit is a build stopped at one of the run's limits.
type overLimit struct{ msg string }

func (e *overLimit) Error() string { return e.msg }

// Kustomization builds the manifest path rel, a directory holding a
// kustomization, through the Kustomize hook; without one, what it
// delivers is reported as not linted.
func (d *Dirs) Kustomization(rel string) (Kustomized, error) {
	p := filepath.Join(d.Dir, filepath.FromSlash(rel))
	shown := d.shown(p)
	lintIt := func(flags string) string {
		return fmt.Sprintf("; lint it with `kustomize build %s%s | mirrorlint lint -`", flags, shown)
	}
	if d.Kustomize == nil {
		return Kustomized{}, &missing{msg: fmt.Sprintf("the manifest path %s is a kustomization, which the policy generator builds with kustomize; it is not built here, so what it delivers is not linted%s", shown, lintIt(""))}
	}
	k, err := d.Kustomize(p)
	names := d.builtNames()
	out := Kustomized{Objects: k.Objects}
	for _, f := range k.Files {
		out.Files = append(out.Files, File{Name: names(f.Name), Data: f.Data})
	}
	for i := range out.Objects {
		b := &out.Objects[i]
		b.Source = names(b.Source)
		for n, f := range b.Files {
			b.Files[n] = names(f)
		}
	}
	var nb *NotBuilt
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &nb) && nb.Limit:
		return out, &overLimit{msg: fmt.Sprintf("the manifest path %s is a kustomization that was not built: %s; what it delivers is not linted", shown, d.inMessage(nb.Reason, names))}
	case errors.As(err, &nb):
		flags := ""
		if nb.Helm {
			flags = "--enable-helm "
		}
		return out, &missing{msg: fmt.Sprintf("the manifest path %s is a kustomization the policy generator builds, but %s, so what it delivers is not linted%s", shown, d.inMessage(nb.Reason, names), lintIt(flags))}
	}
	return out, fmt.Errorf("the manifest path %s is a kustomization that kustomize cannot build, so the policy generator fails: %s", shown, d.inMessage(err.Error(), names))
}

// builtNames names the files of a build (absolute paths) as positions
// show them, relative to Dir: kustomize opens files by their real paths,
// so a path under the directory's real path is taken relative to that.
func (d *Dirs) builtNames() func(string) string {
	var bases []string
	if abs, err := filepath.Abs(d.Dir); err == nil {
		bases = append(bases, abs)
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			bases = append(bases, real)
		}
	}
	known := map[string]string{}
	return func(p string) string {
		if s, ok := known[p]; ok || p == "" {
			return s
		}
		s := filepath.ToSlash(p)
		for i, base := range bases {
			rel, err := filepath.Rel(base, p)
			if err != nil || !filepath.IsAbs(p) {
				continue
			}
			if i == 0 || !strings.HasPrefix(rel, "..") {
				s = path.Join(d.Shown, filepath.ToSlash(rel))
			}
			if !strings.HasPrefix(rel, "..") {
				break
			}
		}
		known[p] = s
		return s
	}
}

// absInMessage is an absolute path inside a build's message, after what
// starts a path there (a relative path's own slashes are not one).
var absInMessage = regexp.MustCompile(`(^|[\s'"(\[=])(/[^\s'"\x60:,()\[\]]+)`)

// evalSymlink is kustomize's wording of a path that does not exist.
var evalSymlink = regexp.MustCompile(`evalsymlink failure on '([^']+)' : lstat [^:]+: no such file or directory`)

// maxCause bounds the text of a build's message kept in a problem.
const maxCause = 400

// inMessage is a build's message on one line, its paths named as
// positions name files, each part kustomize repeats once, and its
// innermost (last) part kept when it is long.
func (d *Dirs) inMessage(msg string, names func(string) string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	msg = evalSymlink.ReplaceAllString(msg, "$1 does not exist")
	msg = absInMessage.ReplaceAllStringFunc(msg, func(m string) string {
		sub := absInMessage.FindStringSubmatch(m)
		return sub[1] + names(filepath.Clean(sub[2]))
	})
	var kept []string
	seen := map[string]bool{}
	for _, part := range strings.Split(msg, ": ") {
		if !seen[part] {
			seen[part] = true
			kept = append(kept, part)
		}
	}
	msg = strings.Join(kept, ": ")
	if len(msg) > maxCause {
		cut := len(msg) - maxCause
		for cut < len(msg) && !utf8.RuneStart(msg[cut]) {
			cut++
		}
		msg = "… " + msg[cut:]
	}
	return msg
}

// kustomized reads the objects a manifest directory's build delivers,
// each a fresh copy; a node the build could not place is placed on the
// path entry at.
func (e *expander) kustomized(built []Built, at *yaml.Node) []*Object {
	var objs []*Object
	for _, b := range built {
		t := newTagged()
		obj := t.copyBuilt(b, at, e.file)
		if obj == nil || obj.Kind != yaml.MappingNode {
			continue
		}
		src := b.Source
		if src == "" {
			src = e.file
		}
		objs = append(objs, &Object{Node: obj, Files: t.files, Source: src, At: at})
	}
	return objs
}

// copyBuilt deep-copies a built object's node, keeping the file of each
// node; a node without one is placed on at in the file def.
func (t *tagged) copyBuilt(b Built, at *yaml.Node, def string) *yaml.Node {
	return t.copyDepth(b.Node, func(n, c *yaml.Node) string {
		if file, ok := b.Files[n]; ok && file != "" && n.Line != 0 {
			return file
		}
		if at != nil {
			c.Line, c.Column = at.Line, at.Column
		}
		return def
	}, 0)
}
