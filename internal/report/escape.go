package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Every line a CI system or a terminal interprets is built by one function
// per format, so that no file name, cluster name or policy message from a
// pull request can forge a workflow command, a summary heading, a link or
// a terminal escape:
//
//   - Visible: text for a terminal or a log, control characters shown as
//     escapes (ESC, OSC, BEL, a carriage return cannot rewrite the screen);
//   - GitHubLine: a plain line in a GitHub Actions log, which can neither
//     start a workflow command ("::") nor hold an old-style one ("##[");
//   - escapeGitHubData / escapeGitHubProperty: inside a workflow command;
//   - mdText, mdCell, mdCode, htmlText: the job summary's Markdown.

// Visible shows the control characters of s as Go escapes (\n, \x1b,
// \u2028), tabs excepted, so that s stays on one line and cannot move the
// cursor, set a window title or ring a bell.
func Visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == 0x2028 || r == 0x2029 || r == 0x85 || (unicode.Is(unicode.Cf, r) && r != 0x200d):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError ||
			r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r) && r != 0x200d {
			return true
		}
	}
	return false
}

// GitHubLine is s as one plain line of a GitHub Actions log: on one line
// (Visible), never read by the runner as a workflow command. The runner
// treats a line that starts with "::" (after blanks) as a command and
// "##[" anywhere as an old-style one.
func GitHubLine(s string) string { return notACommand(Visible(s)) }

// notACommand guards a line already free of control characters (or whose
// escapes are the writer's own colours).
func notACommand(s string) string {
	s = strings.ReplaceAll(s, "##[", "# #[")
	if strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::") {
		s = "mirrorlint: " + s
	}
	return s
}

// SafeLog wraps a log stream (stderr) so that no line written to it can
// be a workflow command or carry a terminal escape, whatever the values
// formatted into it: a directory name holding "\n::error …" or
// "::stop-commands::" prints as text. Lines are guarded as they complete.
func SafeLog(w io.Writer) *LogWriter { return &LogWriter{w: w} }

// LogWriter is SafeLog's writer; Flush writes an unfinished last line.
type LogWriter struct {
	w       io.Writer
	partial []byte
	// colored: the lines' escapes are the writer's own (values were made
	// Visible before formatting); only the command guard applies.
	colored bool
}

func (l *LogWriter) guard(s string) string {
	if l.colored {
		return notACommand(s)
	}
	return GitHubLine(s)
}

// Flush writes what is left of an unterminated line, guarded.
func (l *LogWriter) Flush() error {
	if len(l.partial) == 0 {
		return nil
	}
	line := l.guard(string(l.partial))
	l.partial = nil
	_, err := io.WriteString(l.w, line)
	return err
}

func (l *LogWriter) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		line := l.guard(string(l.partial[:i]))
		l.partial = l.partial[i+1:]
		if _, err := io.WriteString(l.w, line+"\n"); err != nil {
			return len(p), err
		}
	}
	return len(p), nil
}

// mdReplacer escapes what GitHub's Markdown would read as more than text
// inside one line: HTML (tags, entities), links and images (escaping the
// brackets is enough: "![i](u)" and "[t](u)" need both), and the table
// cell's end. A heading or a quote needs a line of its own, which mdText
// never lets a value start.
var mdReplacer = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "[", `\[`, "]", `\]`, "|", `\|`,
)

// mdText is s as inline Markdown text on one line (a heading, a quoted
// note): no markup of its own, no line break that could start a heading.
func mdText(s string) string {
	return mdReplacer.Replace(Visible(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)))
}

// mdCell is s inside a table cell: mdText, line breaks kept as <br>.
func mdCell(s string) string {
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s), "\n")
	for i, l := range lines {
		lines[i] = mdText(l)
	}
	return strings.Join(lines, "<br>")
}

// mdCode is s inside a code span in a table cell: no backtick to end the
// span, no '|' to end the cell (GitHub splits cells before code spans).
func mdCode(s string) string {
	return strings.NewReplacer("`", "", "|", `\|`).Replace(Visible(s))
}

// htmlText is s inside an HTML element of the summary (<summary>): escaped
// as HTML and as Markdown, on one line.
func htmlText(s string) string { return mdText(s) }
