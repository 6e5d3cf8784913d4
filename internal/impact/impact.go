// Package impact answers a reviewer's question about a change to the
// manifests: what do the nodes' registry files become, and does applying it
// make the Machine Config Daemon drain (and reboot) the nodes or only reload
// CRI-O. It renders both trees, pairs their clusters, diffs the node files
// and asks package drain for the verdict.
package impact

import (
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/drain"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/textdiff"
	"github.com/mirrorlint/mirrorlint/render"
)

// Node file paths, the keys of Result.Files.
const (
	RegistriesConfPath = drain.RegistriesConfPath
	SearchDropInPath   = drain.SearchDropInPath
	PolicyJSONPath     = drain.PolicyJSONPath
	SigstorePath       = drain.SigstorePath
)

// Actions, from least to most disruptive.
const (
	ActionNone    = "none"    // the node files do not change
	ActionReload  = "reload"  // files change, CRI-O is reloaded, no drain
	ActionDrain   = "drain"   // cordon and drain before applying
	ActionReboot  = "reboot"  // drain and reboot
	ActionRefused = "refused" // MCO refuses one side: no verdict
)

// Result is the whole answer; its JSON form is `diff --format json`.
type Result struct {
	Drain  bool   `json:"drain"`
	Reboot bool   `json:"reboot"`
	Action string `json:"action"`
	// Reasons lists every change to the node files, safe ones included.
	Reasons []Reason `json:"reasons"`
	// Files has one entry per node file (per cluster, "CLUSTER:PATH", when
	// the tree holds named clusters), changed or not.
	Files map[string]*File `json:"files"`
	// Refused lists the sides MCO would refuse to render.
	Refused []Refusal `json:"refused,omitempty"`

	// pairs keeps each pair's renders and verdict for Findings.
	pairs   []pairResult
	oldName func(string) string
}

// pairResult is one pair of clusters as Compare rendered and judged it.
type pairResult struct {
	label    string // the cluster's name when the trees hold several
	old, new *project.Rendered
	verdict  drain.Verdict // zero when either side is refused
}

// Reason is one change and what it makes the node do.
type Reason struct {
	Cluster string `json:"cluster,omitempty"`
	File    string `json:"file"`
	Scope   string `json:"scope,omitempty"`
	Message string `json:"message"`
	// Drain is whether this change on its own drains the nodes.
	Drain bool `json:"drain"`
}

// File is one node file before and after: registries.conf, the search
// drop-in, policy.json, registries.d/sigstore-registries.yaml and the
// /etc/crio/policies/<namespace>.json of either side. Old/New are null when
// the node does not have the file (the search drop-in is written only when
// the Image sets search registries, the sigstore and namespace files only
// with signature policies).
type File struct {
	Changed bool    `json:"changed"`
	Old     *string `json:"old"`
	New     *string `json:"new"`
	// OldSource/NewSource say where the bytes come from: "generated" (MCO
	// writes the file), "template" (MCO writes nothing; the node keeps the
	// template file: registries.conf, policy.json) or "absent".
	OldSource string `json:"oldSource"`
	NewSource string `json:"newSource"`
	// Diff is the unified diff, empty when unchanged.
	Diff string `json:"diff,omitempty"`
}

// Refusal is MCO refusing to render one side.
type Refusal struct {
	Side    string `json:"side"` // "old" or "new"
	Cluster string `json:"cluster,omitempty"`
	Reason  string `json:"reason"`
	// Position is where the offending value is, when it names one.
	Position manifest.Position `json:"position"`
}

// Options tell Compare how the two sides were given.
type Options struct {
	// OldRoots and NewRoots are the path arguments each side was opened
	// with; cluster names start with them when a cluster sits at an
	// argument, so pairing strips them (old/manifests pairs new/manifests).
	OldRoots, NewRoots []string
	// OldName maps file names of the old side for display (e.g. a
	// temporary checkout back to "REV:path"); nil keeps them.
	OldName func(string) string
}

// Compare renders every cluster of both projects and combines the
// verdicts. Clusters pair by name relative to their side's arguments; when
// each side holds one cluster they pair whatever their names. A cluster on
// one side only is compared with an empty cluster (no mirror objects).
func Compare(oldP, newP *project.Project, opts Options) *Result {
	res := &Result{Files: map[string]*File{}, Reasons: []Reason{}, oldName: opts.OldName}
	pairs := pairClusters(oldP, newP, opts)
	for _, pair := range pairs {
		label := ""
		if len(pairs) > 1 {
			label = pair[1].Name
		}
		res.pairs = append(res.pairs, res.compareCluster(pair[0], pair[1], label, opts.OldName))
	}
	res.Action = action(res)
	return res
}

// relName is a cluster's name with its side's argument prefix removed.
func relName(name string, roots []string) string {
	for _, r := range roots {
		arg := filepath.ToSlash(filepath.Clean(r))
		if name == arg {
			return "."
		}
		if rest, ok := strings.CutPrefix(name, arg+"/"); ok {
			return rest
		}
	}
	return name
}

func pairClusters(oldP, newP *project.Project, opts Options) [][2]*check.Cluster {
	if len(oldP.Clusters) == 1 && len(newP.Clusters) == 1 {
		return [][2]*check.Cluster{{oldP.Clusters[0], newP.Clusters[0]}}
	}
	oldBy := map[string]*check.Cluster{}
	for _, c := range oldP.Clusters {
		oldBy[relName(c.Name, opts.OldRoots)] = c
	}
	var pairs [][2]*check.Cluster
	seen := map[string]bool{}
	for _, n := range newP.Clusters {
		key := relName(n.Name, opts.NewRoots)
		o := oldBy[key]
		if o == nil {
			o = &check.Cluster{Name: n.Name, Settings: n.Settings}
		}
		pairs = append(pairs, [2]*check.Cluster{o, n})
		seen[key] = true
	}
	for _, o := range oldP.Clusters {
		if !seen[relName(o.Name, opts.OldRoots)] {
			pairs = append(pairs, [2]*check.Cluster{o, {Name: o.Name, Settings: o.Settings}})
		}
	}
	return pairs
}

// compareCluster adds one pair's verdict; label is the cluster's name when
// the trees hold several (it then prefixes file keys and tags reasons).
func (res *Result) compareCluster(oldCl, newCl *check.Cluster, label string, oldName func(string) string) pairResult {
	oldR, newR := project.Render(oldCl), project.Render(newCl)
	pr := pairResult{label: label, old: oldR, new: newR}
	refused := false
	for _, side := range []struct {
		name string
		r    *project.Rendered
		ren  func(string) string
	}{{"old", oldR, oldName}, {"new", newR, nil}} {
		if side.r.Refusal == nil {
			continue
		}
		refused = true
		pos := side.r.Where(side.r.Refusal.Subject)
		if side.ren != nil && pos.File != "" {
			pos.File = side.ren(pos.File)
		}
		res.Refused = append(res.Refused, Refusal{Side: side.name, Cluster: label, Reason: side.r.Refusal.Error(), Position: pos})
	}
	if refused {
		return pr
	}
	key := func(path string) string {
		if label != "" {
			return label + ":" + path
		}
		return path
	}
	o, n := oldR.Output, newR.Output
	res.Files[key(RegistriesConfPath)] = fileChange(RegistriesConfPath, o.NodeRegistriesConf(), n.NodeRegistriesConf(), source(o), source(n))
	res.Files[key(SearchDropInPath)] = fileChange(SearchDropInPath, o.NodeSearchRegistriesConf(), n.NodeSearchRegistriesConf(), dropInSource(o), dropInSource(n))
	res.Files[key(PolicyJSONPath)] = fileChange(PolicyJSONPath, o.NodePolicyJSON(), n.NodePolicyJSON(), policySource(o), policySource(n))
	res.Files[key(SigstorePath)] = fileChange(SigstorePath, o.SigstoreRegistriesYAML, n.SigstoreRegistriesYAML, presence(o.SigstoreRegistriesYAML), presence(n.SigstoreRegistriesYAML))
	for _, ns := range drain.CRIONamespaces(o, n) {
		path := nodefiles.CRIOPolicyPath(ns)
		a, b := o.CRIOPolicies[ns], n.CRIOPolicies[ns]
		res.Files[key(path)] = fileChange(path, a, b, presence(a), presence(b))
	}

	v := drain.Compare(o, n)
	pr.verdict = v
	res.Drain = res.Drain || v.Drain
	res.Reboot = res.Reboot || v.Reboot
	for _, r := range v.Reasons {
		res.Reasons = append(res.Reasons, Reason{Cluster: label, File: r.File, Scope: r.Scope, Message: r.Message, Drain: r.Drain})
	}
	return pr
}

func source(o *render.Output) string {
	if o.Generated {
		return "generated"
	}
	return "template"
}

func policySource(o *render.Output) string {
	if o.PolicyJSON == nil {
		return "template"
	}
	return "generated"
}

// presence is the source of a file MCO writes or leaves absent.
func presence(data []byte) string {
	if data == nil {
		return "absent"
	}
	return "generated"
}

func dropInSource(o *render.Output) string {
	if o.SearchRegistriesConf == nil {
		return "absent"
	}
	return "generated"
}

func fileChange(path string, a, b []byte, aSrc, bSrc string) *File {
	f := &File{OldSource: aSrc, NewSource: bSrc, Old: text(a), New: text(b)}
	f.Changed = (a == nil) != (b == nil) || string(a) != string(b)
	if f.Changed {
		oldLabel, newLabel := "a"+path, "b"+path
		if a == nil {
			oldLabel = "/dev/null"
		}
		if b == nil {
			newLabel = "/dev/null"
		}
		f.Diff = textdiff.Unified(oldLabel, newLabel, a, b, textdiff.DefaultContext)
	}
	return f
}

func text(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

func action(res *Result) string {
	switch {
	case len(res.Refused) > 0:
		return ActionRefused
	case res.Reboot:
		return ActionReboot
	case res.Drain:
		return ActionDrain
	}
	for _, f := range res.Files {
		if f.Changed {
			return ActionReload
		}
	}
	return ActionNone
}
