package check

import (
	"embed"
	"io/fs"
	"strings"
)

// The documentation of each rule is a Markdown file, docs/<rule-id>.md,
// next to the package that defines the rule: what the rule detects, why it
// matters, what the cluster does, and a "## Fix" section.
//
//go:embed docs/*.md
var docFiles embed.FS

var doc = Docs(docFiles)

// Docs returns the documentation reader of a package's embedded docs/
// directory. Reading a rule without a file panics: it is a programming
// error, met when the package is initialised (and caught by its tests).
func Docs(fsys fs.FS) func(id string) string {
	return func(id string) string {
		b, err := fs.ReadFile(fsys, "docs/"+id+".md")
		if err != nil {
			panic("rule " + id + " has no docs/" + id + ".md")
		}
		return strings.TrimSpace(string(b))
	}
}
