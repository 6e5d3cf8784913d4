package policy

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// CompileError is a policy that does not parse or compile. The CLI treats it
// as a usage error (exit 2): a broken policy must never pass silently.
type CompileError struct {
	Problems []Problem
}

// Problem is one message at a place in a policy file.
type Problem struct {
	File    string
	Line    int
	Column  int
	Message string
}

func (p Problem) String() string {
	switch {
	case p.File == "":
		return p.Message
	case p.Line == 0:
		return p.File + ": " + p.Message
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
}

func (e *CompileError) Error() string {
	var b strings.Builder
	b.WriteString("policy does not compile:")
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// compileError converts OPA's errors, keeping their file:line:column and
// explaining the builtins mirrorlint removed.
func compileError(err error, allowNet bool) error {
	var errs ast.Errors
	switch v := err.(type) {
	case ast.Errors:
		errs = v
	case *ast.Error:
		errs = ast.Errors{v}
	default:
		return err
	}
	ce := &CompileError{}
	for _, e := range errs {
		p := Problem{Message: explainRemoved(e.Message, allowNet)}
		if e.Location != nil {
			p.File, p.Line, p.Column = e.Location.File, e.Location.Row, e.Location.Col
		}
		// OPA's message alone can be cryptic; its code says which stage
		// refused the policy (parse, compile or type check).
		if p.Message == e.Message && e.Code != "" {
			p.Message += " (" + e.Code + ")"
		}
		ce.Problems = append(ce.Problems, p)
	}
	return ce
}
