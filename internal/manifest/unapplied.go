package manifest

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/ztp"
)

// CodeNotApplied is the Problem code of a directory whose files no tool
// applies as written (a Helm chart, ZTP source CRs): it is not read, and
// reported once, as a warning problem (see Problem.Warning).
const CodeNotApplied = "not-applied"

// CodeNotInKustomization is the Problem code of a manifest lying in a
// kustomization's directory that the kustomization does not list: kustomize
// does not apply it (package cluster reports it, a warning problem).
const CodeNotInKustomization = "not-in-kustomization"

// CodeNotBuilt is the Problem code of a kustomization entry that no build
// of mirrorlint's holds (a remote resource, a Helm chart): the rest of the
// kustomization is built without it (package cluster reports it, a
// warning problem).
const CodeNotBuilt = "entry-not-built"

// unapplied is why the files of a directory are never applied as they are
// written, "" when they are.
type unapplied struct {
	kind   string // "helm" or "ztp"
	dir    string // the chart or source-crs directory, as displayed
	osDir  string // the same, to read it
	anchor string // where the notice is placed: Chart.yaml, or the first manifest
}

// unappliedDir recognises a directory whose files are never applied as
// written: a Helm chart (Chart.yaml beside templates/) or a ZTP source-crs
// directory. entries are the directory's own.
func unappliedDir(osDir, display string, entries []fs.DirEntry) *unapplied {
	if filepath.Base(filepath.Clean(osDir)) == ztp.SourceCRDir {
		return &unapplied{kind: "ztp", dir: display, osDir: osDir}
	}
	var chart, templates bool
	for _, e := range entries {
		if e.Name() == kubeCompareMetadata && e.Type().IsRegular() && isKubeCompare(filepath.Join(osDir, e.Name())) {
			return &unapplied{kind: "kube-compare", dir: display, osDir: osDir, anchor: filepath.ToSlash(filepath.Join(display, kubeCompareMetadata))}
		}
		switch {
		case e.Name() == "Chart.yaml" && e.Type().IsRegular():
			chart = true
		case e.Name() == "templates" && e.IsDir():
			templates = true
		}
	}
	if chart && templates {
		return &unapplied{kind: "helm", dir: display, osDir: osDir, anchor: filepath.ToSlash(filepath.Join(display, "Chart.yaml"))}
	}
	return nil
}

// unappliedAncestor finds the chart or source-crs directory enclosing the
// real (absolute, symlink-free) path of a file or directory named on the
// command line, so that a template given explicitly (by pre-commit, say) is
// not read either. display is how the argument was written.
func unappliedAncestor(real, display string, kindAt func(dir string) string) *unapplied {
	up := ""
	for dir := real; ; dir = filepath.Dir(dir) {
		shown := filepath.ToSlash(filepath.Join(display, up))
		switch kindAt(dir) {
		case "ztp":
			return &unapplied{kind: "ztp", dir: shown, osDir: dir}
		case "kube-compare":
			return &unapplied{kind: "kube-compare", dir: shown, osDir: dir, anchor: filepath.ToSlash(filepath.Join(shown, kubeCompareMetadata))}
		case "helm":
			return &unapplied{kind: "helm", dir: shown, osDir: dir, anchor: filepath.ToSlash(filepath.Join(shown, "Chart.yaml"))}
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
		up = filepath.Join(up, "..")
	}
}

// unappliedKindAt is what dir itself is, by the tests of unappliedAncestor:
// "ztp", "kube-compare", "helm", or "" for a directory applied as written
// (or a path that is no directory).
func unappliedKindAt(dir string) string {
	if filepath.Base(dir) == ztp.SourceCRDir && isDir(dir) {
		return "ztp"
	}
	if isKubeCompare(filepath.Join(dir, kubeCompareMetadata)) {
		return "kube-compare"
	}
	if isDir(filepath.Join(dir, "templates")) {
		if fi, err := os.Stat(filepath.Join(dir, "Chart.yaml")); err == nil && fi.Mode().IsRegular() {
			return "helm"
		}
	}
	return ""
}

// kubeCompareMetadata is the file naming a kube-compare reference: its
// parts and components list the Go-templated CRs a cluster is compared
// with.
const kubeCompareMetadata = "metadata.yaml"

// isKubeCompare tells a kube-compare reference's metadata.yaml (top-level
// parts holding components) from any other file of that name.
func isKubeCompare(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	return (bytes.HasPrefix(head, []byte("parts:")) || bytes.Contains(head, []byte("\nparts:"))) && bytes.Contains(head, []byte("components:"))
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// problem words the notice, counting the manifest files left unread; nil
// when the directory holds none (nothing was skipped that could matter).
func (u *unapplied) problem() *Problem {
	var files []string
	root := u.osDir
	if u.kind == "helm" {
		root = filepath.Join(u.osDir, "templates")
	}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && (manifestExt(d.Name()) || templateExt(d.Name())) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		return nil
	}
	slices.Sort(files)
	anchor := u.anchor
	if anchor == "" {
		rel, err := filepath.Rel(u.osDir, files[0])
		if err != nil {
			rel = filepath.Base(files[0])
		}
		anchor = filepath.ToSlash(filepath.Join(u.dir, rel))
	}
	n := fmt.Sprintf("%d manifest file", len(files))
	if len(files) > 1 {
		n += "s"
	}
	var msg string
	switch u.kind {
	case "helm":
		msg = fmt.Sprintf("Helm chart %s: its templates are rendered by Helm, never applied as written; %s under templates/ not linted — lint the rendered output instead (helm template %s | mirrorlint lint -)", u.dir, n, u.dir)
	case "kube-compare":
		msg = fmt.Sprintf("kube-compare reference %s: templates that `oc cluster-compare` compares a live cluster with (metadata.yaml lists them in parts and components), never applied; %s not linted", u.dir, n)
	default:
		msg = fmt.Sprintf("ZTP source CRs %s: templates that PolicyGenTemplate/PolicyGenerator patch into policies, never applied as written; %s not linted — lint the generated policies instead", u.dir, n)
	}
	return &Problem{Pos: Position{File: anchor, Line: 1, Column: 1}, Code: CodeNotApplied, Warning: true, Message: msg}
}

// UnappliedKindAt is what the walk takes the directory dir for ("ztp",
// "kube-compare", "helm", or "" for one applied as written): a directory
// above a path argument is asked too, so a caller keying a run by what it
// reads (package pipeline) holds the answer for each.
func UnappliedKindAt(dir string) string { return unappliedKindAt(dir) }
