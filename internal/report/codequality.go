package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// codeQualityWriter prints a GitLab Code Quality report: a JSON array of
// issues, the subset of the Code Climate format GitLab reads from an
// artifacts:reports:codequality file and shows in merge requests.
type codeQualityWriter struct{ opts Options }

func (w codeQualityWriter) Configure(o Options) Writer { w.opts = o; return w }

type codeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeQualityLocation `json:"location"`
}

type codeQualityLocation struct {
	Path  string           `json:"path"`
	Lines codeQualityLines `json:"lines"`
}

type codeQualityLines struct {
	Begin int `json:"begin"`
}

// codeQualityNoFile is the path of findings tied to no file (a setting, a
// release payload): GitLab wants a path on every issue, and the repository
// root is the only honest one.
const codeQualityNoFile = "."

// Write prints the unsuppressed findings; GitLab has no notion of an
// accepted issue, and listing one would show it as open in every merge
// request.
func (w codeQualityWriter) Write(out io.Writer, r *Report) error {
	issues := []codeQualityIssue{}
	seen := map[string]int{}
	for _, f := range r.Findings {
		if f.Suppressed != nil || f.Severity == check.Off {
			continue
		}
		path := codeQualityNoFile
		if f.File != "" && !manifest.IsStream(f.File) {
			path = RelPath(w.opts.Base, f.File)
		}
		line := f.Line
		if line < 1 {
			line = 1
		}
		desc := f.Message
		if label := ClusterLabel(f.Clusters); label != "" {
			desc += " " + label
		}
		fp := codeQualityFingerprint(f, path)
		// GitLab pairs issues of two pipelines by fingerprint, so two
		// findings may not share one; identical findings (the same rule,
		// object and message twice in one file) are told apart by their
		// order, which is stable between runs on the same tree.
		if n := seen[fp]; n > 0 {
			seen[fp] = n + 1
			fp = codeQualityHash(fp, strconv.Itoa(n))
		} else {
			seen[fp] = 1
		}
		issues = append(issues, codeQualityIssue{
			Description: desc,
			CheckName:   f.Rule,
			Fingerprint: fp,
			Severity:    codeQualitySeverity(f.Severity),
			Location:    codeQualityLocation{Path: path, Lines: codeQualityLines{Begin: line}},
		})
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(issues)
}

// codeQualityFingerprint leaves the line out, like the SARIF fingerprint:
// an edit above a finding moves it without making GitLab report it as
// fixed and found again.
func codeQualityFingerprint(f check.Finding, path string) string {
	return codeQualityHash(f.Rule, path, f.Object.Kind, f.Object.Name, f.Path, f.Message, strings.Join(f.Clusters, ","))
}

func codeQualityHash(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// codeQualitySeverity maps mirrorlint's three levels onto GitLab's five:
// what the API server or MCO refuses is critical (the change cannot roll
// out), a surprise at runtime major, a note info. blocker and minor are
// left unused.
func codeQualitySeverity(s check.Severity) string {
	switch s {
	case check.Error:
		return "critical"
	case check.Warning:
		return "major"
	}
	return "info"
}
