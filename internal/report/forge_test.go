package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Values a hostile pull request controls: directory and file names,
// cluster names, policy messages.
const (
	forgedCommand = "x\n::error file=README.md,line=1::FORGED"
	stopCommands  = "::stop-commands::pwned"
	forgedSummary = "x\n\n## ✅ all good\n<img src=https://evil.example/t.png>"
	forgedLinks   = "see [the docs](https://evil.example/) ![i](https://evil.example/p.png)"
	terminalEsc   = "a\x1b]0;owned\x07b\x1b[2Jc\rd"
)

func hostileReport(n int) *Report {
	r := &Report{Refused: map[string]string{forgedSummary: forgedLinks}, Unreadable: map[string]string{stopCommands: forgedCommand},
		Rendered: map[string][]byte{forgedSummary: []byte("x = 1\n")}}
	for i := range n {
		file := []string{forgedCommand, stopCommands + "/a.yaml", terminalEsc}[i%3]
		r.Findings = append(r.Findings, check.Finding{
			Rule: "team/x", Severity: check.Error, Message: forgedLinks + "\n" + stopCommands + "\n" + terminalEsc,
			Position: manifest.Position{File: file, Line: i + 1, Column: 1}, Clusters: []string{forgedSummary},
		})
	}
	return r
}

// commandLine is a line the runner would read as a workflow command.
func commandLine(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "::") }

func TestGitHubOutputCannotBeForged(t *testing.T) {
	// 25 errors: ten annotations, fifteen overflow lines.
	out := writeGitHub(t, hostileReport(25))
	commands := 0
	for _, l := range strings.Split(out, "\n") {
		if !commandLine(l) {
			if strings.Contains(l, "##[") {
				t.Errorf("an old-style command in a plain line: %q", l)
			}
			continue
		}
		commands++
		// One command per finding: the values are inside its properties
		// and data, escaped, never a command of their own.
		if !strings.HasPrefix(l, "::error file=") {
			t.Errorf("forged workflow command: %q", l)
		}
	}
	if commands != githubAnnotationLimit {
		t.Errorf("%d workflow commands, want the %d annotations only:\n%s", commands, githubAnnotationLimit, out)
	}
	if strings.ContainsAny(out, "\x1b\x07\r") {
		t.Errorf("control characters reach the log: %q", out)
	}
}

func TestSafeLogGuardsEveryLine(t *testing.T) {
	var buf bytes.Buffer
	w := SafeLog(&buf)
	fmt.Fprintf(w, "mirrorlint: warning: %s would split the cluster\n", forgedCommand)
	fmt.Fprintf(w, "%s\n", stopCommands)
	fmt.Fprintf(w, "##[add-mask]secret %s", terminalEsc) // no final newline
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		if commandLine(l) || strings.Contains(l, "##[") {
			t.Errorf("forged line in the log: %q", l)
		}
	}
	if !strings.Contains(buf.String(), "FORGED") || strings.ContainsAny(buf.String(), "\x1b\x07\r") {
		t.Errorf("want the text kept, control characters shown: %q", buf.String())
	}
}

func TestSummaryCannotBeForged(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSummary(&buf, hostileReport(3), Options{}, SummaryLimit); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") && l != "## mirrorlint" {
			t.Errorf("forged heading: %q", l)
		}
	}
	if strings.Contains(out, "<img") {
		t.Errorf("an HTML tag from a value reaches the summary:\n%s", out)
	}
	if activeLink := regexp.MustCompile(`(^|[^\\])\]\(https://evil`); activeLink.MatchString(out) {
		t.Errorf("a link or image from a value is live:\n%s", out)
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("control characters in the summary: %q", out)
	}
}

func TestTextOutputShowsControlCharacters(t *testing.T) {
	w, _ := New("text")
	var buf bytes.Buffer
	if err := w.Write(&buf, hostileReport(3)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.ContainsAny(out, "\x1b\x07\r") {
		t.Errorf("raw terminal escapes in text output: %q", out)
	}
	if !strings.Contains(out, `\x1b]0;owned\x07`) {
		t.Errorf("the escape should be shown, not dropped: %q", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if commandLine(l) {
			t.Errorf("a value starts a line of its own: %q", l)
		}
	}
}
