package policy

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/topdown"
)

// strictError reports the builtin errors of an evaluation (--strict), each
// at the file:line:col of the call, once however often it was evaluated:
// Rego's default is to leave the calling rule undefined without a word, so
// that a deny rule whose to_number fails simply never fires.
func strictError(errs []topdown.Error) error {
	seen := map[string]bool{}
	var lines []string
	for _, e := range errs {
		msg := e.Message
		where := "(unknown position)"
		if e.Location != nil {
			where = fmt.Sprintf("%s:%d:%d", e.Location.File, e.Location.Row, e.Location.Col)
		}
		line := where + ": " + msg
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	const show = 10
	more := ""
	if len(lines) > show {
		more = fmt.Sprintf("\n  … and %d more", len(lines)-show)
		lines = lines[:show]
	}
	word := "error"
	if len(seen) > 1 {
		word = "errors"
	}
	return fmt.Errorf("policy builtin %s (strict mode: a builtin that fails is an error, not an undefined rule):\n  %s%s", word, strings.Join(lines, "\n  "), more)
}
