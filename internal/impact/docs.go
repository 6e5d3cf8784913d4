package impact

import (
	"embed"
	"strings"
)

// The documentation of each rule this package defines is a Markdown file,
// docs/<rule-id>.md: what the rule detects, why it matters, what the
// cluster does, and a "## Fix" section.
//
//go:embed docs/*.md
var docFiles embed.FS

// doc returns a rule's documentation. A missing file is a programming
// error, caught when the package is initialised (and by the tests).
func doc(id string) string {
	b, err := docFiles.ReadFile("docs/" + id + ".md")
	if err != nil {
		panic("rule " + id + " has no docs/" + id + ".md")
	}
	return strings.TrimSpace(string(b))
}
