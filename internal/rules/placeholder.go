package rules

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var placeholder = &check.Rule{
	ID:       "placeholder",
	Severity: check.Warning,
	Origin:   check.OriginTool,
	Summary:  "An object still holds a reference configuration's placeholder (<registry.example.com:8443>); it was not checked further.",
	Doc:      doc("placeholder"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, o := range c.Context.Unfilled {
			first := o.Placeholders[0]
			more := ""
			if n := len(o.Placeholders) - 1; n == 1 {
				more = " and 1 more value"
			} else if n > 1 {
				more = fmt.Sprintf(" and %d more values", n)
			}
			c.Report(o, first.Path, "%s is an unfilled placeholder (%q%s): the API server refuses such a value, so %s was not checked further and is left out of the render; write the real value before applying it",
				first.Text, first.Value, more, o.Ref())
		}
	},
}
