package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

// junitWriter prints one test suite per file and one test case per rule in
// it, the shape CI systems (GitLab, Jenkins, Azure) show as "rule X failed
// on file Y". A rule with only suppressed findings is a skipped case.
type junitWriter struct{ opts Options }

func (w junitWriter) Configure(o Options) Writer { w.opts = o; return w }

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// noFile names the suite for findings not tied to a file.
const noFile = "mirrorlint"

func (w junitWriter) Write(out io.Writer, r *Report) error {
	byFile := map[string]map[string][]check.Finding{}
	addFile := func(f string) {
		if byFile[f] == nil {
			byFile[f] = map[string][]check.Finding{}
		}
	}
	for _, f := range w.opts.Files {
		addFile(RelPath(w.opts.Base, f))
	}
	for _, f := range r.Findings {
		name := noFile
		if f.File != "" {
			name = RelPath(w.opts.Base, f.File)
		}
		addFile(name)
		byFile[name][f.Rule] = append(byFile[name][f.Rule], f)
	}
	var ruleIDs []string
	for _, rule := range r.Rules {
		if rule != nil && rule.ID != "" && rule.Severity != check.Off {
			ruleIDs = append(ruleIDs, rule.ID)
		}
	}

	doc := junitSuites{Name: "mirrorlint"}
	for _, file := range slices.Sorted(maps.Keys(byFile)) {
		rules := byFile[file]
		ids := map[string]bool{}
		// The file-less suite only holds what was found there; listing
		// every rule as passing "nowhere" would say nothing.
		if file != noFile {
			for _, id := range ruleIDs {
				ids[id] = true
			}
		}
		for id := range rules {
			ids[id] = true
		}
		suite := junitSuite{Name: file}
		for _, id := range slices.Sorted(maps.Keys(ids)) {
			c := junitCase{Name: id, Classname: file}
			var failing, suppressed []check.Finding
			for _, f := range rules[id] {
				if f.Suppressed != nil {
					suppressed = append(suppressed, f)
				} else {
					failing = append(failing, f)
				}
			}
			switch {
			case len(failing) > 0:
				c.Failure = junitFailureOf(failing, w.opts.Base)
				suite.Failures++
			case len(suppressed) > 0:
				var reasons []string
				for _, f := range suppressed {
					reasons = append(reasons, f.Suppressed.Reason)
				}
				c.Skipped = &junitSkipped{Message: "suppressed: " + strings.Join(dedup(reasons), "; ")}
				suite.Skipped++
			}
			suite.Cases = append(suite.Cases, c)
			suite.Tests++
		}
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Skipped += suite.Skipped
		doc.Suites = append(doc.Suites, suite)
	}

	if _, err := io.WriteString(out, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(out)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(out, "\n")
	return err
}

func junitFailureOf(fs []check.Finding, base string) *junitFailure {
	worst := check.Off
	var lines []string
	for _, f := range fs {
		if f.Severity > worst {
			worst = f.Severity
		}
		where := noFile
		if f.File != "" {
			where = RelPath(base, f.File) + lineSuffix(f.Line, f.Column)
		}
		line := fmt.Sprintf("%s: %s: %s", where, f.Severity, f.Message)
		if f.Object.Kind != "" {
			line += fmt.Sprintf(" (%s/%s %s)", f.Object.Kind, f.Object.Name, f.Path)
		}
		if label := ClusterLabel(f.Clusters); label != "" {
			line += " " + label
		}
		lines = append(lines, line)
	}
	msg := fs[0].Message
	if len(fs) > 1 {
		msg = fmt.Sprintf("%d findings; first: %s", len(fs), msg)
	}
	return &junitFailure{Message: msg, Type: worst.String(), Text: strings.Join(lines, "\n")}
}

func dedup(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}
