package pipeline

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/policy"
)

// Every rule a run can report, Go or built-in Rego, documents how to fix
// what it finds in a "## Fix" section, and the documentation is Markdown
// read from a file (docs/<id>.md next to the Go rules, the METADATA
// description of a Rego rule), so it renders in docs/rules.md.
func TestEveryRuleDocHasAFixSection(t *testing.T) {
	t.Parallel()
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range checks.Rules.All() {
		if !strings.Contains(r.Doc, "\n## Fix\n") {
			t.Errorf("%s: documentation has no \"## Fix\" section", r.ID)
		}
	}
}
