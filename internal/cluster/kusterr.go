package cluster

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// kustomize's errors nest every layer's context in one line ("accumulating
// resources: accumulation err='accumulating resources from 'x': evalsymlink
// failure on '/abs/x' : lstat /abs/x: no such file or directory': must
// build at directory: …"), with the machine's absolute paths and, from some
// layers, newlines. A message shows the cause the user acts on, in the
// paths the rest of the report uses.

// absPath is an absolute path inside a kustomize message.
var absPath = regexp.MustCompile(`/[^\s'":,()]+`)

// evalSymlink is kustomize's wording of a path that does not exist.
var evalSymlink = regexp.MustCompile(`evalsymlink failure on '([^']+)' : lstat [^:]+: no such file or directory`)

// notDirectory is kustomize's report of a resource file it could not read
// as a file, then tried as a directory: the second failure ("file is not
// directory") is only the fallback's, the first is the cause.
var notDirectory = regexp.MustCompile(`accumulation err='(accumulating resources from '[^']+': .*)': must build at directory: '[^']*': file is not directory`)

// maxCause bounds the kustomize text kept in a message.
const maxCause = 240

// shortCause is a kustomize error as a message: one line, paths named as
// the report names files, each repeated layer once, the innermost cause
// kept whole and the context before it cut to fit.
func (d *discoverer) shortCause(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	msg = notDirectory.ReplaceAllString(msg, "$1")
	msg = evalSymlink.ReplaceAllString(msg, "$1 does not exist")
	msg = absPath.ReplaceAllStringFunc(msg, func(p string) string {
		if !filepath.IsAbs(p) {
			return p
		}
		if d.names.base != "" {
			if rel, in := manifest.Within(d.names.base, filepath.Clean(p)); in {
				return filepath.ToSlash(rel)
			}
		}
		return d.names.display(filepath.Clean(p))
	})
	// Drop segments repeated verbatim (kustomize wraps one cause twice).
	parts := strings.Split(msg, ": ")
	var kept []string
	seen := map[string]bool{}
	for _, p := range parts {
		if !seen[p] {
			seen[p] = true
			kept = append(kept, p)
		}
	}
	msg = strings.Join(kept, ": ")
	if len(msg) <= maxCause {
		return msg
	}
	last := kept[len(kept)-1]
	if len(kept) > 1 {
		last = kept[len(kept)-2] + ": " + last
	}
	if len(last) >= maxCause {
		return "… " + last[len(last)-maxCause:]
	}
	head := msg[:maxCause-len(last)]
	if i := strings.LastIndex(head, ": "); i > 0 {
		head = head[:i]
	}
	return head + ": … " + last
}
