// Package impact answers a reviewer's question about a change to the
// manifests: what do the nodes' registry files become, and does applying it
// make the Machine Config Daemon drain (and reboot) the nodes or only reload
// CRI-O. It renders both trees, pairs their clusters, diffs the node files
// and asks package drain for the verdict.
package impact

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/drain"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
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
	// ActionStopped: a component before MCO refuses one side's input
	// (cluster.Cluster.Stopped), so its nodes get nothing: no verdict.
	ActionStopped = "stopped"
	// ActionUnreadable: an input does not load on one side (a
	// kustomization that does not build): the cluster is not compared.
	ActionUnreadable = "unreadable"
)

// Result is the whole answer; its JSON form is `diff --format json`. The
// top-level fields answer for every cluster compared (the change drains if
// it drains any cluster); Clusters answers for each one.
type Result struct {
	Drain  bool   `json:"drain"`
	Reboot bool   `json:"reboot"`
	Action string `json:"action"`
	// Actions is the daemon's action list when one cluster was compared
	// and its release follows node-disruption policies (see
	// ClusterResult.Actions).
	Actions []string `json:"actions,omitempty"`
	// Reasons lists every change to the node files, safe ones included.
	Reasons []Reason `json:"reasons"`
	// Files has one entry per node file (per cluster, "CLUSTER:PATH", when
	// the tree holds named clusters), changed or not.
	Files map[string]*File `json:"files"`
	// Refused lists the sides MCO would refuse to render.
	Refused []Refusal `json:"refused,omitempty"`
	// Stopped lists the sides whose input a component refuses before MCO
	// sees it (HyperShift stops a NodePool whose config it refuses), at
	// the refused value: nothing is rendered for them.
	Stopped []Refusal `json:"stopped,omitempty"`
	// Unreadable names the clusters that could not be compared because an
	// input of theirs does not load on either side (a kustomization that
	// does not build, a remote resource, a file that does not parse): no
	// verdict is given for them, and the others are still compared.
	Unreadable []string `json:"unreadable,omitempty"`
	// Clusters is the verdict of each cluster, in order.
	Clusters []ClusterResult `json:"clusters"`
	// Rejected lists what the API server would refuse of the change (see
	// Options.Rejected), in every cluster.
	Rejected []Rejection `json:"rejected,omitempty"`

	// pairs keeps each pair's renders and verdict for Findings.
	pairs      []pairResult
	old        Old
	relocate   func(cl *cluster.Cluster, fs []check.Finding) []check.Finding
	rejectedOf func(cl *cluster.Cluster) []check.Finding
}

// ClusterResult is one cluster's verdict.
type ClusterResult struct {
	// Name is the cluster's name ("" for the single cluster of a tree
	// that is one cluster).
	Name string `json:"name"`
	// Action is ActionNone … ActionReboot, ActionRefused, ActionStopped,
	// or ActionUnreadable when the cluster could not be compared.
	Action string `json:"action"`
	// Actions is the daemon's action list as it logs it ("Reload -
	// crio.service", "Special", "Reboot"), when the release follows
	// node-disruption policies (4.17+); Policy says which entries decided.
	Actions []string      `json:"actions,omitempty"`
	Policy  *PolicyResult `json:"policy,omitempty"`
	Drain   bool          `json:"drain"`
	Reboot  bool          `json:"reboot"`
	Reasons []Reason      `json:"reasons"`
	Refused []Refusal     `json:"refused,omitempty"`
	Stopped []Refusal     `json:"stopped,omitempty"`
	// Problems are the inputs that do not load, on either side, when the
	// cluster could not be compared.
	Problems []Problem `json:"problems,omitempty"`
	// Rejected is what the API server would refuse of the change here.
	Rejected []Rejection `json:"rejected,omitempty"`

	// files are the cluster's keys of Result.Files, in the order the text
	// output prints their diffs.
	files []string
}

// Problem is an input of one side that does not load.
type Problem struct {
	Side    string `json:"side"` // "old" or "new"
	Message string `json:"message"`
	// Position is where the problem is; on the old side of a --base
	// comparison the file is relative to the repository's top level, at
	// Rev.
	Position manifest.Position `json:"position"`
	Rev      string            `json:"rev,omitempty"`

	oldFile string // the file as the old tree was read (a temporary copy)
}

// pairResult is one pair of clusters as Compare rendered and judged it.
type pairResult struct {
	label    string // the cluster's name when the trees hold several
	old, new *project.Rendered
	verdict  drain.Verdict // zero when either side is refused
	// newP is the project the new side was opened from, to place findings
	// about values the new tree no longer has.
	newP *project.Project
	// unreadable holds the problems that kept the pair from being
	// compared (old and new are nil then).
	unreadable []Problem
	// rejected are the API server's refusals of the change, as warnings.
	rejected []check.Finding
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

// Refusal is MCO refusing to render one side (Result.Refused), or a
// component before MCO refusing its input (Result.Stopped).
type Refusal struct {
	Side    string `json:"side"` // "old" or "new"
	Cluster string `json:"cluster,omitempty"`
	Reason  string `json:"reason"`
	// Position is where the offending value is, when it names one; on the
	// old side of a --base comparison the file is relative to the
	// repository's top level, at Rev.
	Position manifest.Position `json:"position"`
	Rev      string            `json:"rev,omitempty"`
}

// Options tell Compare how the two sides were given.
type Options struct {
	// OldRoots and NewRoots are the path arguments each side was opened
	// with; cluster names start with them when a cluster sits at an
	// argument, so pairing strips them (old/manifests pairs new/manifests).
	// When both have the same length they line up argument by argument
	// (diff --base REV a b: the old a pairs the new a, never b); an old
	// root that did not exist still holds its place.
	OldRoots, NewRoots []string
	// Old says where the old tree comes from, for messages.
	Old Old
	// Keep, when set, selects the clusters to compare by name (a CI
	// shard); the others are left out of the result.
	Keep func(name string) bool
	// Relocate, when set, moves the findings about a cluster of the new
	// side to where their values are written (the kustomize patch that
	// set a value), as a lint run does before reporting them.
	Relocate func(cl *cluster.Cluster, fs []check.Finding) []check.Finding
	// Rejected, when set, gives what the API server would refuse of the
	// change in a cluster of the new side (the findings of the lint rules
	// of origin api-server on the files that changed), reported as
	// warnings: the change cannot apply as it is.
	Rejected func(cl *cluster.Cluster) []check.Finding
}

// Compare renders every cluster of both projects and gives each its own
// verdict, then combines them. Clusters pair by name relative to their
// side's arguments; when each side holds one cluster they pair whatever
// their names. A cluster on one side only is compared with an empty cluster
// (no mirror objects). A cluster that does not load whole on either side
// is not compared: it is listed in Unreadable with its problems, and the
// other clusters are still compared.
func Compare(oldP, newP *project.Project, opts Options) *Result {
	res := &Result{Files: map[string]*File{}, Reasons: []Reason{}, Clusters: []ClusterResult{}, old: opts.Old, relocate: opts.Relocate, rejectedOf: opts.Rejected}
	pairs := pairClusters(oldP, newP, opts)
	for _, pair := range pairs {
		label := ""
		if len(pairs) > 1 || found(newP) > 1 {
			// Named as lint names them, also when --cluster or a shard
			// keeps one of several.
			label = pair.name
		}
		if opts.Keep != nil && !opts.Keep(pair.name) {
			continue
		}
		res.pairs = append(res.pairs, res.compareCluster(pair, label, newP))
	}
	res.Action = action(res)
	if compared := comparedClusters(res); len(compared) == 1 {
		res.Actions = compared[0].Actions
	}
	return res
}

// clusterPair is one cluster on both sides; name is how the new side names
// it (or would, for a cluster the change deleted).
type clusterPair struct {
	name     string
	old, new *cluster.Cluster
}

// pairKey is a cluster's name relative to the argument it was found
// under: the argument's index (when the sides line up argument by argument)
// and the name with the argument removed.
func pairKey(name string, roots []string, indexed bool) (key string, root int) {
	best, rest := -1, name
	for i, r := range roots {
		if r == "" {
			continue
		}
		arg := filepath.ToSlash(filepath.Clean(r))
		switch {
		case name == arg:
			if best < 0 || len(arg) > len(filepath.ToSlash(filepath.Clean(roots[best]))) {
				best, rest = i, "."
			}
		case strings.HasPrefix(name, arg+"/"):
			if best < 0 || len(arg) > len(filepath.ToSlash(filepath.Clean(roots[best]))) {
				best, rest = i, strings.TrimPrefix(name, arg+"/")
			}
		}
	}
	if indexed && best >= 0 {
		return fmt.Sprintf("%d\x00%s", best, rest), best
	}
	return rest, best
}

func pairClusters(oldP, newP *project.Project, opts Options) []clusterPair {
	if len(oldP.Clusters) == 1 && len(newP.Clusters) == 1 && found(newP) == 1 {
		return []clusterPair{{newP.Clusters[0].Name, oldP.Clusters[0], newP.Clusters[0]}}
	}
	indexed := len(opts.OldRoots) == len(opts.NewRoots) && len(opts.NewRoots) > 1
	oldBy := map[string]*cluster.Cluster{}
	for _, c := range oldP.Clusters {
		k, _ := pairKey(c.Name, opts.OldRoots, indexed)
		oldBy[k] = c
	}
	var pairs []clusterPair
	seen := map[string]bool{}
	for _, n := range newP.Clusters {
		key, _ := pairKey(n.Name, opts.NewRoots, indexed)
		o := oldBy[key]
		if o == nil {
			o = &cluster.Cluster{Name: n.Name, Settings: n.Settings}
		}
		pairs = append(pairs, clusterPair{n.Name, o, n})
		seen[key] = true
	}
	for _, o := range oldP.Clusters {
		key, root := pairKey(o.Name, opts.OldRoots, indexed)
		if seen[key] {
			continue
		}
		// Deleted by the change: named as the new side would name it, not
		// by its place in the old tree (a temporary directory for --base).
		name := newSideName(key, root, opts, indexed)
		pairs = append(pairs, clusterPair{name, o, &cluster.Cluster{Name: name, Settings: o.Settings}})
	}
	return pairs
}

// found is how many clusters discovery found in p, before --cluster,
// --shard or a commit's files selected some: a tree of one cluster pairs
// with the other side's single cluster whatever the names, a selection of
// one cluster among several does not.
func found(p *project.Project) int {
	if p.Discovery == nil {
		return len(p.Clusters)
	}
	return len(p.Discovery.All())
}

// newSideName names a cluster that exists on the old side only, from its
// pairing key, the way discovery names the new side's clusters: relative
// to the argument, prefixed with it when there are several.
func newSideName(key string, root int, opts Options, indexed bool) string {
	rest := key
	if indexed {
		_, rest, _ = strings.Cut(key, "\x00")
	}
	arg := "."
	switch {
	case root >= 0 && root < len(opts.NewRoots):
		arg = filepath.ToSlash(filepath.Clean(opts.NewRoots[root]))
	case len(opts.NewRoots) == 1:
		arg = filepath.ToSlash(filepath.Clean(opts.NewRoots[0]))
	}
	if len(opts.NewRoots) > 1 && arg != "." {
		return path.Join(arg, rest)
	}
	if rest == "." {
		return arg
	}
	return rest
}

// compareCluster judges one pair; label is the cluster's name when the
// trees hold several (it then prefixes file keys and tags reasons).
func (res *Result) compareCluster(pair clusterPair, label string, newP *project.Project) pairResult {
	pr := pairResult{label: label, newP: newP}
	cr := ClusterResult{Name: label, Reasons: []Reason{}}
	if res.rejectedOf != nil {
		// Whatever the verdict: an object the API server refuses never
		// reaches MCO, so the node files cannot show it.
		pr.rejected, cr.Rejected = rejections(res.rejectedOf(pair.new), label)
		res.Rejected = append(res.Rejected, cr.Rejected...)
	}
	for _, side := range []struct {
		name string
		cl   *cluster.Cluster
	}{{"old", pair.old}, {"new", pair.new}} {
		for _, p := range manifest.Errors(side.cl.Problems) {
			pb := Problem{Side: side.name, Message: p.Message, Position: p.Pos}
			if side.name == "old" {
				pb.oldFile = p.Pos.File
				pb.Position.File, pb.Rev, pb.Message = res.old.name(p.Pos.File), res.old.Rev, res.old.Message(p.Message)
			}
			pr.unreadable = append(pr.unreadable, pb)
		}
	}
	if len(pr.unreadable) > 0 {
		// Half a cluster would make every object in the other half look
		// added or removed: no verdict rather than a wrong one.
		cr.Action, cr.Problems = ActionUnreadable, pr.unreadable
		res.Unreadable = append(res.Unreadable, pair.name)
		res.Clusters = append(res.Clusters, cr)
		return pr
	}

	oldR, newR := project.Render(pair.old), project.Render(pair.new)
	pr.old, pr.new = oldR, newR
	for _, side := range []struct {
		name string
		r    *project.Rendered
	}{{"old", oldR}, {"new", newR}} {
		var ref Refusal
		switch r := side.r; {
		case r.Stopped != nil:
			ref = Refusal{Reason: r.Stopped.Reason, Position: r.Stopped.Pos}
		case r.Refusal != nil:
			ref = Refusal{Reason: r.Refusal.Error(), Position: r.Where(r.Refusal.Subject)}
		default:
			continue
		}
		ref.Side, ref.Cluster = side.name, label
		if side.name == "old" {
			ref.Reason = res.old.Message(ref.Reason)
			if ref.Position.File != "" {
				ref.Position.File, ref.Rev = res.old.name(ref.Position.File), res.old.Rev
			}
		}
		if side.r.Stopped != nil {
			res.Stopped = append(res.Stopped, ref)
			cr.Stopped = append(cr.Stopped, ref)
		} else {
			res.Refused = append(res.Refused, ref)
			cr.Refused = append(cr.Refused, ref)
		}
	}
	if len(cr.Refused)+len(cr.Stopped) > 0 {
		cr.Action = ActionRefused
		if len(cr.Refused) == 0 {
			cr.Action = ActionStopped
		}
		res.Clusters = append(res.Clusters, cr)
		return pr
	}
	key := func(path string) string {
		if label != "" {
			return label + ":" + path
		}
		return path
	}
	o, n := oldR.Output, newR.Output
	changed := false
	add := func(path string, f *File) {
		res.Files[key(path)] = f
		cr.files = append(cr.files, key(path))
		changed = changed || f.Changed
	}
	add(RegistriesConfPath, fileChange(RegistriesConfPath, o.NodeRegistriesConf(), n.NodeRegistriesConf(), source(o), source(n)))
	add(PolicyJSONPath, fileChange(PolicyJSONPath, o.NodePolicyJSON(), n.NodePolicyJSON(), policySource(o), policySource(n)))
	add(SearchDropInPath, fileChange(SearchDropInPath, o.NodeSearchRegistriesConf(), n.NodeSearchRegistriesConf(), presence(o.SearchRegistriesConf), presence(n.SearchRegistriesConf)))
	add(SigstorePath, fileChange(SigstorePath, o.SigstoreRegistriesYAML, n.SigstoreRegistriesYAML, presence(o.SigstoreRegistriesYAML), presence(n.SigstoreRegistriesYAML)))
	for _, ns := range drain.CRIONamespaces(o, n) {
		path := nodefiles.CRIOPolicyPath(ns)
		a, b := o.CRIOPolicies[ns], n.CRIOPolicies[ns]
		add(path, fileChange(path, a, b, presence(a), presence(b)))
	}

	// The registry CAs are listed with the node files, but no
	// MachineConfig carries them: they make no cluster reload or drain.
	mcChanged := changed
	for _, dir := range drain.RegistryCADirs(o, n) {
		path := mco.CertsDPath(dir)
		a, b := o.RegistryCAFiles[dir], n.RegistryCAFiles[dir]
		add(path, fileChange(path, a, b, presence(a), presence(b)))
	}
	changed = mcChanged

	v := verdict(pair.old, pair.new, o, n)
	pr.verdict = v
	res.Drain = res.Drain || v.Drain
	res.Reboot = res.Reboot || v.Reboot
	cr.Drain, cr.Reboot = v.Drain, v.Reboot
	for _, r := range v.Reasons {
		reason := Reason{Cluster: label, File: r.File, Scope: r.Scope, Message: r.Message, Drain: r.Drain}
		res.Reasons = append(res.Reasons, reason)
		cr.Reasons = append(cr.Reasons, reason)
	}
	switch {
	case v.Policy != nil:
		cr.Action = v.Policy.Decision.Verdict()
		cr.Actions = actionStrings(v.Policy.Decision.Actions)
		cr.Policy = policyResult(v.Policy, res.old)
	case v.Reboot:
		cr.Action = ActionReboot
	case v.Drain:
		cr.Action = ActionDrain
	case changed:
		cr.Action = ActionReload
	default:
		cr.Action = ActionNone
	}
	res.Clusters = append(res.Clusters, cr)
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

// action is the verdict over every cluster: refused when MCO refuses any
// side, else stopped when a component before MCO stops any side, else the
// most disruptive action of the clusters compared; unreadable only when no
// cluster could be compared at all.
func action(res *Result) string {
	switch {
	case len(res.Refused) > 0:
		return ActionRefused
	case len(res.Stopped) > 0:
		return ActionStopped
	case len(res.Clusters) > 0 && len(res.Unreadable) == len(res.Clusters):
		return ActionUnreadable
	}
	worst := ActionNone
	for _, cr := range res.Clusters {
		if rank[cr.Action] > rank[worst] {
			worst = cr.Action
		}
	}
	return worst
}

// rank orders the actions of compared clusters by disruption.
var rank = map[string]int{ActionNone: 0, ActionReload: 1, ActionDrain: 2, ActionReboot: 3}

// comparedClusters are the clusters that got a verdict.
func comparedClusters(res *Result) []ClusterResult {
	var out []ClusterResult
	for _, cr := range res.Clusters {
		if _, ok := rank[cr.Action]; ok {
			out = append(out, cr)
		}
	}
	return out
}
