package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// GitHub shows at most this many annotations of each type per step (and 50
// per job); the rest of the workflow commands are silently dropped.
const githubAnnotationLimit = 10

// githubWriter prints GitHub Actions workflow commands, which the runner
// turns into annotations on the pull request's changed lines.
type githubWriter struct{ opts Options }

func (w githubWriter) Configure(o Options) Writer { w.opts = o; return w }

func (w githubWriter) Write(out io.Writer, r *Report) error {
	var fs []check.Finding
	for _, f := range r.Findings {
		if f.Suppressed == nil && f.Severity != check.Off {
			fs = append(fs, f)
		}
	}
	// Most severe first, so that the ten annotations GitHub keeps per type
	// are the errors, not whatever sorted first by file name.
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity > fs[j].Severity })

	ew := &errWriter{w: out}
	shown := map[string]int{}
	hidden := map[string]int{}
	for _, f := range fs {
		cmd := githubCommand(f.Severity)
		if shown[cmd] >= githubAnnotationLimit {
			// Still in the log, as plain text, so nothing is lost.
			hidden[cmd]++
			// One guarded line: neither a newline in a value nor a file
			// named "::stop-commands::…" may start a workflow command.
			ew.printf("%s\n", GitHubLine(fmt.Sprintf("%s: %s %s: %s", location(f), f.Severity, f.Rule, strings.NewReplacer("\r", " ", "\n", " ").Replace(f.Message))))
			continue
		}
		shown[cmd]++
		ew.printf("%s\n", w.command(f))
	}
	c := check.Count(r.Findings)
	line := "mirrorlint: " + Summary(c)
	if n := hidden["error"] + hidden["warning"] + hidden["notice"]; n > 0 {
		line += fmt.Sprintf("; GitHub annotates at most %d errors, %d warnings and %d notices per step: %d more (%s) are printed above as plain lines — see the SARIF upload (code scanning) or the job summary for all of them",
			githubAnnotationLimit, githubAnnotationLimit, githubAnnotationLimit, n, hiddenCounts(hidden))
	}
	ew.printf("%s\n", GitHubLine(line))
	return ew.err
}

func hiddenCounts(h map[string]int) string {
	var parts []string
	for _, k := range []string{"error", "warning", "notice"} {
		if h[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", h[k], plural(h[k], k)))
		}
	}
	return strings.Join(parts, ", ")
}

func githubCommand(s check.Severity) string {
	switch s {
	case check.Error:
		return "error"
	case check.Warning:
		return "warning"
	}
	return "notice"
}

// command renders one finding as "::error file=…,line=…::message".
func (w githubWriter) command(f check.Finding) string {
	var props []string
	add := func(k, v string) { props = append(props, k+"="+escapeGitHubProperty(v)) }
	if f.File != "" && !manifest.IsStream(f.File) {
		add("file", RelPath(w.opts.Base, f.File))
		if f.Line > 0 {
			add("line", strconv.Itoa(f.Line))
			if f.EndLine >= f.Line {
				add("endLine", strconv.Itoa(f.EndLine))
			}
			if f.Column > 0 {
				add("col", strconv.Itoa(f.Column))
			}
			if f.EndColumn > 0 && f.EndLine >= f.Line {
				add("endColumn", strconv.Itoa(f.EndColumn))
			}
		}
	}
	title := f.Rule
	if label := ClusterLabel(f.Clusters); label != "" {
		title += " " + label
	}
	add("title", title)

	msg := f.Message
	for _, rel := range f.Related {
		msg += fmt.Sprintf("\nalso %s (%s/%s %s)", RelPath(w.opts.Base, rel.File)+lineSuffix(rel.Line, rel.Column), rel.Object.Kind, rel.Object.Name, rel.Path)
	}
	return "::" + githubCommand(f.Severity) + " " + strings.Join(props, ",") + "::" + escapeGitHubData(msg)
}

func lineSuffix(line, col int) string {
	if line == 0 {
		return ""
	}
	return fmt.Sprintf(":%d:%d", line, col)
}

// escapeGitHubData escapes a workflow command's message the way the
// runner unescapes it; '%' goes first so the escapes themselves survive.
// Other control characters are shown (Visible): the log viewer would
// otherwise interpret a terminal escape in a file name or a message.
func escapeGitHubData(s string) string {
	s = strings.ReplaceAll(s, "%", "%25")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\r")
		for j, p := range parts {
			parts[j] = Visible(p)
		}
		lines[i] = strings.Join(parts, "%0D")
	}
	return strings.Join(lines, "%0A")
}

// escapeGitHubProperty also escapes ':' and ',', which would otherwise end
// the property list or the property.
func escapeGitHubProperty(s string) string {
	s = escapeGitHubData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}
