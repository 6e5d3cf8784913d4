package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

// textWriter prints "file:line:col: severity rule-id: message", grouped by
// file, then a one-line summary.
type textWriter struct{}

func (textWriter) Write(w io.Writer, r *Report) error {
	// Every line is also guarded as a CI log line: text is what a job log
	// shows when no other format is asked for.
	guarded := &LogWriter{w: w, colored: true}
	defer guarded.Flush()
	bw := &errWriter{w: guarded}
	lastFile := ""
	for _, f := range r.Findings {
		if f.Suppressed != nil {
			continue
		}
		if f.File != lastFile && lastFile != "" {
			bw.printf("\n")
		}
		lastFile = f.File
		// Values from the tree are shown with their control characters
		// visible: a file name or a policy message cannot move the cursor
		// or print a line of its own.
		bw.printf("%s: %s %s: %s", Visible(location(f)), paint(r.Color, f.Severity), Visible(f.Rule), textMessage(f.Message))
		if label := ClusterLabel(f.Clusters); label != "" {
			bw.printf(" %s", Visible(label))
		}
		bw.printf("\n")
		for i, rel := range f.Related {
			if i == maxTextRelated && len(f.Related) > maxTextRelated+1 {
				// A finding joining a fleet's worth of places stays
				// readable; JSON and SARIF list every one.
				bw.printf("    and %d more places (--format json lists them)\n", len(f.Related)-i)
				break
			}
			what := ""
			if rel.Object.Kind != "" || rel.Object.Name != "" {
				what = fmt.Sprintf(" (%s/%s %s)", rel.Object.Kind, rel.Object.Name, rel.Path)
			}
			bw.printf("    also %s\n", Visible(rel.Position.String()+what))
		}
	}
	c := check.Count(r.Findings)
	if len(r.Findings) > 0 && c.Error+c.Warning+c.Info > 0 {
		bw.printf("\n")
	}
	bw.printf("%s\n", Summary(c))
	return bw.err
}

// maxTextRelated is how many related places the text format lists for a
// finding before it counts the rest.
const maxTextRelated = 5

// textMessage is a message for the text format: line breaks are kept as
// indented continuation lines (no value can start a line of its own),
// other control characters shown.
func textMessage(m string) string {
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(m), "\n")
	for i, l := range lines {
		lines[i] = Visible(l)
	}
	return strings.Join(lines, "\n    ")
}

// Summary is the one-line tally every human-facing format ends with.
func Summary(c check.Counts) string {
	total := c.Error + c.Warning + c.Info
	if total == 0 {
		s := "no problems found"
		if c.Suppressed > 0 {
			s += fmt.Sprintf(" (%d suppressed)", c.Suppressed)
		}
		return s
	}
	s := fmt.Sprintf("%d %s (%d %s, %d %s, %d info)", total, plural(total, "problem"),
		c.Error, plural(c.Error, "error"), c.Warning, plural(c.Warning, "warning"), c.Info)
	if c.Suppressed > 0 {
		s += fmt.Sprintf(", %d suppressed", c.Suppressed)
	}
	return s
}

func location(f check.Finding) string {
	if f.File == "" {
		return "mirrorlint"
	}
	if f.Line == 0 {
		return f.File
	}
	return fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func paint(color bool, s check.Severity) string {
	if !color {
		return s.String()
	}
	code := map[check.Severity]string{check.Error: "31", check.Warning: "33", check.Info: "36"}[s]
	return "\x1b[" + code + "m" + s.String() + "\x1b[0m"
}

// errWriter keeps the first write error so formatting code stays linear.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
