// Package report prints lint results. Each format is one file implementing
// Writer; New picks one by name.
package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

// Report is everything a format may print.
type Report struct {
	Findings []check.Finding
	// Rules documents every rule that can appear (built-in and policy).
	Rules []*check.Rule
	// Rendered holds each cluster's registries.conf ("" key for a single
	// unnamed cluster); Refused holds MCO's refusal message instead,
	// Stopped "file:line:col: why" for a cluster whose input a component
	// before MCO refuses (cluster.Cluster.Stopped), and Unreadable the
	// first input that does not load for a cluster that cannot be
	// rendered whole (a cluster is in one of the four).
	Rendered   map[string][]byte
	Refused    map[string]string
	Stopped    map[string]string
	Unreadable map[string]string
	// Color enables ANSI colour in the text format.
	Color bool
}

// Writer prints a report in one format.
type Writer interface {
	Write(w io.Writer, r *Report) error
}

// constructors maps format names to writers; a format adds one line here.
var constructors = map[string]func() Writer{
	"text":        func() Writer { return textWriter{} },
	"json":        func() Writer { return jsonWriter{} },
	"sarif":       func() Writer { return sarifWriter{} },
	"github":      func() Writer { return githubWriter{} },
	"junit":       func() Writer { return junitWriter{} },
	"codequality": func() Writer { return codeQualityWriter{} },
}

// New returns the writer for format.
func New(format string) (Writer, error) {
	c, ok := constructors[format]
	if !ok {
		return nil, fmt.Errorf("unknown format %q: want one of %s", format, strings.Join(Formats(), ", "))
	}
	return c(), nil
}

// Formats lists the format names, sorted.
func Formats() []string {
	var out []string
	for k := range constructors {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
