package project

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
	"github.com/mirrorlint/mirrorlint/internal/ztp"
)

// The fleet view of a ZTP repository: where the tree holds the sites
// (SiteConfig, ClusterInstance) as well as the policies (PolicyGenTemplate,
// PolicyGenerator, ACM Policy with its placement), each site is one
// cluster holding what its install writes and the objects of every policy
// whose binding selects the site's labels, as ACM places them: common,
// group and site policies reach one spoke together, and are checked and
// rendered together there. A policy no site gets stays a cluster of its
// own, as every policy is in a tree without sites.

// Grant is one policy a site gets, and why.
type Grant struct {
	// Policy names the policy ("Policy/<namespace>/<name>"); Cluster is the
	// cluster of its objects the tree forms on its own.
	Policy  string
	Cluster *cluster.Cluster
	// Selector is the binding that selects the site, as kubectl writes a
	// selector; Because the site's labels that satisfy it ("common=true",
	// "no du-profile"), nil for a binding that selects every cluster.
	Selector string
	Because  []string
	// At is where the binding is written (bindingRules, placement, the
	// PlacementRule or Placement).
	At manifest.Position
}

// SiteFleet is what a site's cluster is made of beyond its install.
type SiteFleet struct {
	Site   *sites.Site
	Grants []Grant
	// Undecided are the policies whose binding selects the site or not
	// by the value of a label only the hub knows (Site.HubLabels): their
	// objects are not joined to the site.
	Undecided []Undecided
}

// Undecided is a policy whether a site gets it cannot be told from the
// repository: its binding would select the site, but for requirements on
// labels whose values ACM's import sets (vendor=OpenShift).
type Undecided struct {
	Policy   string
	Selector string
	At       manifest.Position
	// Open are the requirements the hub decides, as kubectl writes them.
	Open []string
}

// Fleet returns what made cl a site of the fleet, nil for any other
// cluster.
func (p *Project) Fleet(cl *cluster.Cluster) *SiteFleet { return p.fleets[cl] }

// Unplaced says why a policy's own cluster is not part of any site when
// the tree has sites ("" otherwise).
func (p *Project) Unplaced(cl *cluster.Cluster) string { return p.unplaced[cl] }

// policyCluster is one policy's cluster with its binding.
type policyCluster struct {
	cl  *cluster.Cluster
	ref string
	b   binding
}

// fleet joins each selected site's cluster with the policies bound to it.
// A site needs every policy of the tree, so the tree's clusters that were
// not loaded (a --cluster naming a site, a pre-commit file list) are
// loaded then; in a pre-commit run, a site that gets a policy the commit
// changes is linted with it.
func (p *Project) fleet(opts Options, res *cluster.Result) {
	if !slices.ContainsFunc(p.sites, func(s *sites.Site) bool { return s.Name != "" }) && len(p.unlabelled) == 0 {
		return
	}
	// Each spoke's own site: several sites of the tree may have one name
	// (copies of a site for two hubs), each with its own labels.
	siteOf := func(cl *cluster.Cluster) *sites.Site {
		if c := p.created[cl]; c != nil && c.Site != nil && c.Site.Name != "" {
			return c.Site
		}
		return nil
	}
	isSite := func(cl *cluster.Cluster) bool { return siteOf(cl) != nil }
	var selected []*cluster.Cluster
	for _, cl := range p.Clusters {
		if isSite(cl) {
			selected = append(selected, cl)
		}
	}
	acm := p.bindingsOnce()
	if opts.Only != nil {
		// The commit's policies reach the sites they are bound to.
		touched := p.policies(p.Clusters, acm)
		for _, cl := range p.spare {
			if !isSite(cl) {
				continue
			}
			s := siteOf(cl)
			for _, pc := range touched {
				if g, _ := grant(pc, s); g != nil {
					selected = append(selected, cl)
					p.Clusters = append(p.Clusters, cl)
					break
				}
			}
		}
	}
	if len(selected) == 0 {
		// No site to join: the policies the run holds are still told of
		// the spokes whose labels are unknown.
		p.noteUnlabelled(p.policies(p.Clusters, acm), nil, res)
		return
	}
	var todo []*cluster.Cluster
	for _, c := range res.All() {
		if !c.Loaded() {
			todo = append(todo, c)
		}
	}
	if len(todo) > 0 {
		res.Load(todo, cluster.LoadOptions{Build: !opts.Static})
	}
	all, twice := samePolicy(p.policies(res.All(), acm))
	if len(all) == 0 {
		return
	}
	placed := map[*cluster.Cluster]bool{}
	undecided := map[*cluster.Cluster][]string{}
	joined := map[*cluster.Cluster]*cluster.Cluster{}
	for _, cl := range selected {
		s := siteOf(cl)
		f := &SiteFleet{Site: s}
		var parts []*cluster.Cluster
		for _, pc := range all {
			g, u := grant(pc, s)
			switch {
			case g != nil:
				f.Grants = append(f.Grants, *g)
				parts = append(parts, pc.cl)
				placed[pc.cl] = true
			case u != nil:
				f.Undecided = append(f.Undecided, *u)
				undecided[pc.cl] = append(undecided[pc.cl], s.Name)
			}
		}
		j := cluster.Join(cl, parts)
		p.created[j] = p.created[cl]
		p.fleets[j] = f
		joined[cl] = j
	}
	var kept []*cluster.Cluster
	for _, cl := range p.Clusters {
		switch {
		case joined[cl] != nil:
			kept = append(kept, joined[cl])
		case placed[cl]:
			p.absorbed[cl] = true
		default:
			kept = append(kept, cl)
		}
	}
	p.Clusters = kept
	for _, pc := range all {
		switch {
		case placed[pc.cl]:
		case undecided[pc.cl] != nil:
			p.unplaced[pc.cl] = fmt.Sprintf("whether %s get%s it depends on labels only the hub knows (ACM sets them at import), so the policy is linted on its own",
				strings.Join(undecided[pc.cl], ", "), map[bool]string{true: "s"}[len(undecided[pc.cl]) == 1])
		default:
			p.unplaced[pc.cl] = unplacedNote(pc)
		}
	}
	for cl, first := range twice {
		p.unplaced[cl] = "the tree writes " + first.ref + " again in " + strings.Join(first.cl.Paths, ", ") +
			", and the hub holds one Policy of that name: the sites get that one, so this one is linted on its own"
	}
	p.noteUnlabelled(all, placed, res)
}

// samePolicy keeps the first cluster of each policy: two generators (a
// PolicyGenTemplate and the PolicyGenerator replacing it) writing the same
// Policy make one object on the hub, not two policies, so a site gets one
// of them. twice maps every later one to the one kept.
func samePolicy(pcs []policyCluster) (kept []policyCluster, twice map[*cluster.Cluster]policyCluster) {
	twice = map[*cluster.Cluster]policyCluster{}
	first := map[string]policyCluster{}
	for _, pc := range pcs {
		if f, ok := first[pc.ref]; ok {
			twice[pc.cl] = f
			continue
		}
		first[pc.ref] = pc
		kept = append(kept, pc)
	}
	return kept, twice
}

// unplacedNote says why no site of the tree gets a policy; the binding is
// named unless the cluster's reason names it already (a generator's).
func unplacedNote(pc policyCluster) string {
	said := pc.cl.Objects[0].BoundTo != ""
	if !pc.b.known() {
		if said {
			return "that binding is not evaluated against the sites of the tree, so the policy is linted on its own"
		}
		return pc.b.describe() + ": not evaluated against the sites of the tree, so the policy is linted on its own"
	}
	if said {
		return "no site of the tree has those labels, so the policy is linted on its own"
	}
	return pc.b.describe() + "; no site of the tree has those labels, so the policy is linted on its own"
}

// policies are the policy clusters among cls, each with its binding: the
// selector its generator wrote, else the PlacementBindings of the tree.
func (p *Project) policies(cls []*cluster.Cluster, acm func() *acmBindings) []policyCluster {
	var out []policyCluster
	for _, cl := range cls {
		if cl.Source != cluster.FromPolicy || !cl.Loaded() || len(cl.Objects) == 0 {
			continue
		}
		o := cl.Objects[0]
		pc := policyCluster{cl: cl, ref: o.DeliveredBy}
		switch {
		case o.Binding != nil:
			pc.b = binding{sels: []ztp.Selector{*o.Binding}, at: []manifest.Position{selectorPos(o)}}
		case strings.HasPrefix(o.DeliveredBy, "Policy/"):
			pc.b = acm().of(o.DeliveredBy)
		default:
			pc.b = binding{why: o.DeliveredBy + " is applied on its own, not placed by a binding"}
		}
		out = append(out, pc)
	}
	return out
}

// selectorPos is where the generator of o writes its policy's binding.
func selectorPos(o *manifest.Object) manifest.Position {
	if at := o.Binding.At; at != nil {
		return manifest.Position{File: o.File, Line: at.Line, Column: at.Column}
	}
	return manifest.Position{File: o.File, Line: 1, Column: 1}
}

// grant is the Grant of pc to site s, nil when no selector of its binding
// selects the site; then u is set when one would select it but for labels
// only the hub knows the values of.
func grant(pc policyCluster, s *sites.Site) (g *Grant, u *Undecided) {
	for i, sel := range pc.b.sels {
		selects, open := sel.Decide(s.Name, s.Labels, s.HubLabels)
		switch {
		case selects:
			return &Grant{Policy: pc.ref, Cluster: pc.cl, Selector: sel.String(), Because: sel.Because(s.Labels, s.HubLabels...), At: pc.b.at[i]}, nil
		case open != nil && u == nil:
			u = &Undecided{Policy: pc.ref, Selector: sel.String(), At: pc.b.at[i], Open: open}
		}
	}
	return nil, u
}

// bindingsOnce reads the tree's PlacementBindings, PlacementRules,
// Placements and PolicySets the first time a hand-written Policy asks.
func (p *Project) bindingsOnce() func() *acmBindings {
	var idx *acmBindings
	return func() *acmBindings {
		if idx == nil {
			idx = readBindings(p.placementObjects())
		}
		return idx
	}
}

func (p *Project) placementObjects() []*manifest.Object {
	if len(p.files) == 0 {
		return nil
	}
	for _, f := range p.files {
		if manifest.IsStream(f) {
			return nil
		}
	}
	o := p.load
	o.Unmodelled, o.ParseAll = manifest.UnmodelledAll, nil
	needs := manifest.NeedKinds(placementKinds...)
	o.Prefilter = &needs
	set, err := manifest.Load(p.files, o)
	if err != nil {
		return nil
	}
	return set.Objects
}
