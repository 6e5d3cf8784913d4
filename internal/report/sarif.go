package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// SARIF 2.1.0 as GitHub code scanning reads it. Only the fields we fill are
// modelled; the test validates the output against the OASIS schema.
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	toolURI      = "https://github.com/mirrorlint/mirrorlint"
)

type sarifWriter struct{ opts Options }

func (w sarifWriter) Configure(o Options) Writer { w.opts = o; return w }

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations,omitempty"`
	// Results is always present: GitHub reads a missing array as "this
	// tool did not run" rather than "nothing found", and keeps old alerts.
	Results    []sarifResult `json:"results"`
	ColumnKind string        `json:"columnKind"`
	// OriginalURIBaseIDs says where srcRoot was on this machine, for
	// viewers that open the files locally; GitHub resolves srcRoot-relative
	// URIs against the repository and ignores it.
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name,omitempty"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      *sarifText      `json:"fullDescription,omitempty"`
	Help                 *sarifText      `json:"help,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           *sarifRuleProps `json:"properties,omitempty"`
}

type sarifRuleConfig struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
}

type sarifRuleProps struct {
	Tags []string `json:"tags,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations,omitempty"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          *sarifResultProps  `json:"properties,omitempty"`
}

type sarifResultProps struct {
	Clusters []string `json:"clusters,omitempty"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation *sarifPhysical         `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifText             `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// srcRoot names the repository root in artifact locations, as CodeQL does.
// GitHub wants URIs relative to the repository root; the base id says so to
// every other SARIF reader. A file outside the repository gets an absolute
// file: URI and no base id (SARIF allows a base id on relative URIs only):
// upload-sarif accepts it, and it names the right file, where a "../" path
// would be resolved against the wrong directory.
const srcRoot = "%SRCROOT%"

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification,omitempty"`
}

func (w sarifWriter) Write(out io.Writer, r *Report) error {
	rules, index := sarifRules(r)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            "mirrorlint",
			InformationURI:  toolURI,
			SemanticVersion: toolVersion(),
			Rules:           rules,
		}},
		Results:    []sarifResult{},
		ColumnKind: "unicodeCodePoints", // yaml.v3 counts columns in runes
	}
	base := w.opts.Base
	if base == "" {
		base = "."
	}
	if abs, err := filepath.Abs(base); err == nil {
		run.OriginalURIBaseIDs = map[string]sarifArtifact{srcRoot: {URI: strings.TrimSuffix(fileURI(filepath.ToSlash(abs)), "/") + "/"}}
	}
	if len(r.Refused) > 0 {
		inv := sarifInvocation{ExecutionSuccessful: true}
		for _, name := range slices.Sorted(maps.Keys(r.Refused)) {
			msg := "MCO would refuse to render: " + r.Refused[name]
			if name != "" {
				msg = "cluster " + name + ": " + msg
			}
			inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifText{Text: msg}})
		}
		run.Invocations = []sarifInvocation{inv}
	}
	for _, f := range r.Findings {
		run.Results = append(run.Results, w.result(f, index[f.Rule]))
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	// Messages quote YAML with < and >; escaping them to \u003c helps no
	// SARIF reader and makes the file harder to read.
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func (w sarifWriter) result(f check.Finding, ruleIndex int) sarifResult {
	res := sarifResult{
		RuleID:    f.Rule,
		RuleIndex: ruleIndex,
		Level:     sarifLevel(f.Severity),
		Message:   sarifText{Text: f.Message},
	}
	if loc := w.location(f.Position, f.Object, f.Path); loc.PhysicalLocation != nil || loc.LogicalLocations != nil {
		res.Locations = []sarifLocation{loc}
	}
	for i, rel := range f.Related {
		loc := w.location(rel.Position, rel.Object, rel.Path)
		if loc.PhysicalLocation == nil {
			continue
		}
		id := i + 1
		loc.ID = &id
		text := rel.Object.Kind + "/" + rel.Object.Name
		if rel.Path != "" {
			text += " " + rel.Path
		}
		loc.Message = &sarifText{Text: text}
		loc.LogicalLocations = nil
		res.RelatedLocations = append(res.RelatedLocations, loc)
	}
	// A fingerprint without line numbers keeps an alert the same alert when
	// lines above it move; GitHub would otherwise hash the line's text.
	uri := ""
	if f.File != "" {
		uri = RelPath(w.opts.Base, f.File)
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{f.Rule, uri, f.Object.Kind, f.Object.Name, f.Path, f.Message}, "\x00")))
	res.PartialFingerprints = map[string]string{"mirrorlintFinding/v1": hex.EncodeToString(sum[:16])}
	if f.Suppressed != nil {
		res.Suppressions = []sarifSuppression{{
			Kind:          suppressionKind(f.Suppressed.Kind),
			Status:        "accepted",
			Justification: f.Suppressed.Reason,
		}}
	}
	if cl := clusterNames(f.Clusters); len(cl) > 0 {
		res.Properties = &sarifResultProps{Clusters: cl}
	}
	return res
}

// location builds a physical location (when the finding has a file) and a
// logical one naming the object, which is what a reader looks for when the
// position is only approximate.
func (w sarifWriter) location(pos manifest.Position, obj check.ObjectRef, path string) sarifLocation {
	var loc sarifLocation
	if pos.File != "" {
		loc.PhysicalLocation = &sarifPhysical{
			ArtifactLocation: w.artifact(pos.File),
			Region:           sarifRegionOf(pos),
		}
	}
	if obj.Kind != "" || obj.Name != "" {
		fq := obj.Kind + "/" + obj.Name
		if path != "" {
			fq += "." + path
		}
		loc.LogicalLocations = []sarifLogicalLocation{{Name: obj.Name, FullyQualifiedName: fq}}
	}
	return loc
}

// artifact locates file relative to the repository root when it is in it,
// else by its absolute file: URI.
func (w sarifWriter) artifact(file string) sarifArtifact {
	p, inRepo := repoPath(w.opts.Base, file)
	switch {
	case inRepo:
		return sarifArtifact{URI: sarifURI(p), URIBaseID: srcRoot}
	case strings.HasPrefix(p, "/") || filepath.IsAbs(filepath.FromSlash(p)):
		return sarifArtifact{URI: fileURI(p)}
	}
	return sarifArtifact{URI: sarifURI(p)}
}

// sarifRegionOf always returns a region: GitHub needs startLine ≥ 1, and a
// finding about a whole file is best shown on its first line.
func sarifRegionOf(pos manifest.Position) *sarifRegion {
	if pos.Line < 1 {
		return &sarifRegion{StartLine: 1}
	}
	reg := &sarifRegion{StartLine: pos.Line}
	if pos.Column >= 1 {
		reg.StartColumn = pos.Column
	}
	if pos.EndLine >= pos.Line && pos.EndColumn >= 1 {
		if pos.EndLine > pos.Line || pos.EndColumn > pos.Column {
			reg.EndLine, reg.EndColumn = pos.EndLine, pos.EndColumn
		}
	}
	return reg
}

// sarifURI escapes a relative path as a URI reference: spaces and '%' in
// file names would otherwise make an invalid URI.
func sarifURI(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// sarifRules lists every documented rule plus any rule id a finding uses
// that is not documented (a user policy), so every ruleIndex is valid.
func sarifRules(r *Report) ([]sarifRule, map[string]int) {
	index := map[string]int{}
	var out []sarifRule
	for _, rule := range r.Rules {
		if rule == nil || rule.ID == "" {
			continue
		}
		if _, dup := index[rule.ID]; dup {
			continue
		}
		index[rule.ID] = len(out)
		out = append(out, sarifRuleOf(rule))
	}
	var extra []string
	for _, f := range r.Findings {
		if _, ok := index[f.Rule]; !ok {
			index[f.Rule] = -1
			extra = append(extra, f.Rule)
		}
	}
	sort.Strings(extra)
	for _, id := range extra {
		index[id] = len(out)
		out = append(out, sarifRule{
			ID:                   id,
			ShortDescription:     sarifText{Text: id},
			DefaultConfiguration: sarifRuleConfig{Enabled: true, Level: "warning"},
		})
	}
	if out == nil {
		out = []sarifRule{}
	}
	return out, index
}

func sarifRuleOf(rule *check.Rule) sarifRule {
	short := strings.TrimSpace(rule.Summary)
	if short == "" {
		short = rule.ID
	}
	sr := sarifRule{
		ID:               rule.ID,
		Name:             ruleName(rule.ID),
		ShortDescription: sarifText{Text: short},
		DefaultConfiguration: sarifRuleConfig{
			Enabled: rule.Severity != check.Off,
			Level:   sarifLevel(rule.Severity),
		},
	}
	if doc := strings.TrimSpace(rule.Doc); doc != "" {
		sr.FullDescription = &sarifText{Text: firstParagraph(doc)}
		sr.Help = &sarifText{Text: doc, Markdown: doc}
	}
	var tags []string
	if rule.Origin != "" {
		tags = append(tags, string(rule.Origin))
	}
	tags = append(tags, "openshift", "image-mirroring")
	sr.Properties = &sarifRuleProps{Tags: tags}
	return sr
}

// ruleName turns "icsp-deprecated" into "IcspDeprecated", the PascalCase
// form SARIF viewers expect in rule.name.
func ruleName(id string) string {
	var b strings.Builder
	upper := true
	for _, r := range id {
		switch {
		case r == '-' || r == '_' || r == '/' || r == '.':
			upper = true
		case upper:
			b.WriteString(strings.ToUpper(string(r)))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func firstParagraph(s string) string {
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

func sarifLevel(s check.Severity) string {
	switch s {
	case check.Error:
		return "error"
	case check.Warning:
		return "warning"
	case check.Info:
		return "note"
	}
	return "none"
}

// suppressionKind maps mirrorlint's suppression kinds onto SARIF's: an
// annotation or comment lives in the analysed file ("inSource"); a config
// file entry lives elsewhere ("external").
func suppressionKind(kind string) string {
	switch kind {
	case "annotation", "comment":
		return "inSource"
	}
	return "external"
}

// clusterNames drops the empty name of the single unnamed cluster.
func clusterNames(cs []string) []string {
	var out []string
	for _, c := range cs {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return strings.TrimPrefix(v, "v")
		}
	}
	return ""
}
