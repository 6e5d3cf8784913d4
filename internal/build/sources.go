package build

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// kustomize loads a generator's files as "loading KV pairs: file sources:
// [LIST]: CAUSE" (env source files for envs), naming the files as written
// and the one that failed by its absolute path, but not the generator nor
// the line: discovery would blame line 1 of the kustomization.
var kvSourcesErr = regexp.MustCompile(`loading KV pairs: (file sources|env source files): \[`)

// sourceProblem positions kustomize's failure to read a generator's file
// on the files:/envs: item that names it, in whichever kustomization of
// the closure holds it, with the paths the report uses. ok is false for
// any other error, or when no item names the failing file.
func (d *env) sourceProblem(err error, kusts []*kustomization.File) (manifest.Problem, bool) {
	msg := err.Error()
	m := kvSourcesErr.FindStringIndex(msg)
	if m == nil {
		return manifest.Problem{}, false
	}
	envs := strings.Contains(msg[m[0]:m[1]], "env source files")
	cause := msg[m[1]:]
	var best *kustomization.File
	var bestSrc kustomization.Source
	bestLen := 0
	for _, k := range kusts {
		for _, s := range k.Sources {
			if (s.Field != "files") != envs {
				continue
			}
			abs := filepath.Clean(filepath.Join(k.Dir, s.Path))
			if len(abs) > bestLen && namesPath(cause, abs) {
				best, bestSrc, bestLen = k, s, len(abs)
			}
		}
	}
	if best == nil {
		return manifest.Problem{}, false
	}
	abs := filepath.Clean(filepath.Join(best.Dir, bestSrc.Path))
	what := bestSrc.Generator
	if bestSrc.Name != "" {
		what += fmt.Sprintf(" %q", bestSrc.Name)
	}
	shown := d.res.Display(abs)
	var text string
	if _, statErr := os.Lstat(abs); statErr != nil {
		text = fmt.Sprintf("%s: %s entry %q does not exist", what, bestSrc.Field, bestSrc.Path)
		if !filepath.IsAbs(shown) {
			text += fmt.Sprintf(" (%s)", shown)
		}
		text += ", so kustomize cannot build this cluster and it is not checked: add the file, or correct the path (kustomize reads it relative to the kustomization's directory)"
	} else if why := refusal(err); why != nil {
		// mirrorlint's own refusal (outside the repository, too large):
		// its reason, without the machine's paths it names.
		text = fmt.Sprintf("%s: %s entry %q is %v; it is not read, so kustomize cannot build this cluster and it is not checked", what, bestSrc.Field, bestSrc.Path, why)
	} else {
		text = fmt.Sprintf("%s: kustomize cannot read %s entry %q, so it cannot build this cluster and it is not checked: %s", what, bestSrc.Field, bestSrc.Path, d.shownCause(cause, abs, bestSrc.Path))
	}
	return d.kustProblem(best, bestSrc.Line, bestSrc.Column, text), true
}

// refusal is the reason the access layer refused a read inside err:
// kustomize flattens the errors it wraps into text, so it is found by its
// wording.
func refusal(err error) error {
	var ref *safefs.Refusal
	if errors.As(err, &ref) {
		return ref.Err
	}
	for _, why := range []error{safefs.ErrOutside, safefs.ErrNotRegular, safefs.ErrTooLarge, safefs.ErrBudget, safefs.ErrMemory, safefs.ErrBuildResources, safefs.ErrBuildWork, safefs.ErrURL} {
		if strings.Contains(err.Error(), why.Error()) {
			return why
		}
	}
	return nil
}

// namesPath reports whether msg names the absolute path abs as a whole
// path: not only as the start of a longer one.
func namesPath(msg, abs string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], abs)
		if j < 0 {
			return false
		}
		end := i + j + len(abs)
		if end == len(msg) || strings.ContainsRune("'\": ,)", rune(msg[end])) {
			return true
		}
		i = end
	}
}

// absInCause is an absolute path in kustomize's text.
var absInCause = regexp.MustCompile(`/[^\s'":,()\[\]]+`)

// shownCause is kustomize's cause after the list of files: one line, the
// failing file named as written, other absolute paths as the report names
// files (or by their base name when they lie outside everything it names).
func (d *env) shownCause(cause, abs, written string) string {
	if i := strings.Index(cause, "]: "); i >= 0 {
		cause = cause[i+3:]
	}
	cause = strings.Join(strings.Fields(cause), " ")
	return absInCause.ReplaceAllStringFunc(cause, func(p string) string {
		if filepath.Clean(p) == abs {
			return written
		}
		if shown := d.res.Display(filepath.Clean(p)); !filepath.IsAbs(shown) {
			return shown
		}
		return "…/" + filepath.Base(p)
	})
}

// kustomize's error for a patches: path it cannot read names the path as
// written, and the file by its absolute path.
var patchFileErr = regexp.MustCompile(`failed to get the patch file from path\(([^)]*)\)`)

// patchFileProblem positions kustomize's failure to read a patch file on
// the patches entry that names it, in whichever kustomization of the
// closure holds it (a base's, which the overlay's resources entry would
// otherwise be blamed for). ok is false for any other error.
func (d *env) patchFileProblem(err error, kusts []*kustomization.File) (manifest.Problem, bool) {
	msg := err.Error()
	m := patchFileErr.FindStringSubmatch(msg)
	if m == nil {
		return manifest.Problem{}, false
	}
	var best *kustomization.File
	var bestEntry kustomization.Entry
	for _, k := range kusts {
		for _, e := range k.Entries {
			if !e.IsPatch() || e.Value != m[1] {
				continue
			}
			if abs := filepath.Clean(filepath.Join(k.Dir, e.Value)); best == nil || namesPath(msg, abs) {
				best, bestEntry = k, e
			}
		}
	}
	if best == nil {
		return manifest.Problem{}, false
	}
	abs := filepath.Clean(filepath.Join(best.Dir, bestEntry.Value))
	if _, statErr := os.Lstat(abs); statErr == nil {
		return manifest.Problem{}, false // unreadable for another reason, which the build's message says
	}
	text := fmt.Sprintf("%s entry %q does not exist", bestEntry.Field, bestEntry.Value)
	if shown := d.res.Display(abs); !filepath.IsAbs(shown) {
		text += fmt.Sprintf(" (%s)", shown)
	}
	text += ", so kustomize cannot build this cluster and it is not checked: add the file, or correct the path (kustomize reads it relative to the kustomization's directory); a patch a build step writes must exist before linting"
	return d.kustProblem(best, bestEntry.Line, bestEntry.Column, text), true
}
