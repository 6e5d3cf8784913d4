package mco

import (
	"fmt"
	"slices"
	"sort"

	configv1 "github.com/openshift/api/config/v1"
)

// PrefixNamespacePolicy is how MCO wraps a refusal it gives while deriving
// the per-namespace policy files from ImagePolicies.
const PrefixNamespacePolicy = "could not update namespace policy JSON from imagepolicy"

// The ImagePolicy condition MCO sets on a scope conflict.
const (
	ConditionPending      = "Pending"
	ReasonConflictScopes  = "ConflictScopes"
	conflictMessageFormat = "has conflicting scope(s) %q that equal to or nest inside existing clusterimagepolicy, only policy from clusterimagepolicy scope(s) will be applied"
)

// scopeAt is where a policy scope is written: the object (by kind and
// index into the Input slice, -1 for the default policy) and the scope's
// index in spec.scopes. The Subject is built only for a refusal.
type scopeAt struct {
	kind         string
	index, scope int
}

func (a scopeAt) subject() Subject {
	return Subject{Kind: a.kind, Index: a.index, Path: fmt.Sprintf("spec.scopes[%d]", a.scope)}
}

// policyScope is one scope of the collected policies with its requirements
// in MCO's order (ANDed by the node) and where it was first written.
type policyScope struct {
	scope string
	reqs  []any
	at    scopeAt
	// implicit marks a scope only the default policy has: it is not in the
	// tree, so a refusal about it is placed on the related value instead.
	implicit bool
}

// signaturePolicies is what MCO's getValidScopePolicies derives from the
// policy objects: requirements by cluster scope, and by ImagePolicy scope
// and namespace (scopes in the order they were first met).
type signaturePolicies struct {
	cluster      []*policyScope
	clusterIndex map[string]*policyScope
	clusterIx    *scopeIndex // cluster scopes, for "inside a cluster scope"
	namespaced   []*nsScope
	nsIndex      map[string]*nsScope
	statuses     []ImagePolicyStatus
	usedDefault  bool
}

// nsScope is an ImagePolicy scope with its requirements per namespace.
type nsScope struct {
	scope string
	at    scopeAt
	byNS  map[string][]any
}

func (sp *signaturePolicies) empty() bool { return len(sp.cluster) == 0 && len(sp.namespaced) == 0 }

type cipRef struct {
	obj   *configv1.ClusterImagePolicy
	index int // into Input.ClusterImagePolicies, -1 for the default policy
}

// collectPolicies reproduces getValidScopePolicies: every ClusterImagePolicy
// (in name order, as MCO's lister returns them), then every ImagePolicy
// (by namespace and name). An ImagePolicy scope equal to or inside a
// cluster scope is dropped and reported in the object's status. A policy
// MCO cannot turn into a requirement stops everything, with the statuses
// set so far.
func collectPolicies(in Input, v Version) (*signaturePolicies, *Refusal) {
	return collect(in, v, true)
}

// collect is collectPolicies; without requirements it only gathers the
// scopes (and the conflicts), whatever MCO would think of the policies.
func collect(in Input, v Version, requirements bool) (*signaturePolicies, *Refusal) {
	n := 0
	for _, c := range in.ClusterImagePolicies {
		if c != nil {
			n += len(c.Spec.Scopes)
		}
	}
	sp := &signaturePolicies{clusterIndex: make(map[string]*policyScope, n+1), nsIndex: map[string]*nsScope{}}
	// One allocation for all scopes: there may be thousands.
	pool := make([]policyScope, 0, n+1)
	newScope := func(ps policyScope) *policyScope {
		if len(pool) == cap(pool) {
			return &ps
		}
		pool = append(pool, ps)
		return &pool[len(pool)-1]
	}
	if !v.AtLeast(18) {
		return sp, nil
	}
	sp.usedDefault = in.DefaultPolicy
	for _, c := range clusterPolicyOrder(in) {
		var req any
		var perr *policyError
		if requirements {
			req, perr = requirementFor(c.obj.Spec.Policy, v)
		}
		if perr != nil {
			return nil, &Refusal{Reason: perr.msg, Subject: Subject{Kind: KindClusterImagePolicy, Index: c.index, Path: perr.path}}
		}
		for j, s := range c.obj.Spec.Scopes {
			scope := string(s)
			ps := sp.clusterIndex[scope]
			if ps == nil {
				ps = newScope(policyScope{scope: scope, at: scopeAt{KindClusterImagePolicy, c.index, j}, implicit: c.index < 0})
				sp.clusterIndex[scope] = ps
				sp.cluster = append(sp.cluster, ps)
			} else if ps.implicit && c.index >= 0 {
				// The scope is in the tree too: refusals go there.
				ps.implicit = false
				ps.at = scopeAt{KindClusterImagePolicy, c.index, j}
			}
			ps.reqs = append(ps.reqs, req)
		}
	}
	if len(in.ImagePolicies) > 0 {
		sp.clusterIx = newScopeIndex(len(sp.cluster))
		for i, ps := range sp.cluster {
			sp.clusterIx.add(ps.scope, i)
		}
	}

	for _, i := range imagePolicyOrder(in) {
		p := in.ImagePolicies[i]
		var req any
		var perr *policyError
		if requirements {
			req, perr = requirementFor(p.Spec.Policy, v)
		}
		if perr != nil {
			return nil, &Refusal{Reason: perr.msg, Subject: Subject{Kind: KindImagePolicy, Index: i, Path: perr.path}, ImagePolicyStatuses: sp.sortedStatuses()}
		}
		var conflicts []string
		var conflictAt []int
		for j, s := range p.Spec.Scopes {
			scope := string(s)
			if _, inside := sp.clusterIx.containing(scope, false); inside {
				conflicts = append(conflicts, scope)
				conflictAt = append(conflictAt, j)
				continue
			}
			ns := sp.nsIndex[scope]
			if ns == nil {
				ns = &nsScope{scope: scope, at: scopeAt{KindImagePolicy, i, j}, byNS: map[string][]any{}}
				sp.nsIndex[scope] = ns
				sp.namespaced = append(sp.namespaced, ns)
			}
			ns.byNS[p.Namespace] = append(ns.byNS[p.Namespace], req)
		}
		if len(conflicts) > 0 {
			sp.statuses = append(sp.statuses, ImagePolicyStatus{
				Namespace: p.Namespace, Name: p.Name, Index: i, Scopes: conflictAt,
				Type: ConditionPending, Status: "False", Reason: ReasonConflictScopes,
				Message: fmt.Sprintf(conflictMessageFormat, conflicts),
			})
		}
	}
	sp.statuses = sp.sortedStatuses()
	return sp, nil
}

// clusterPolicyOrder is the ClusterImagePolicies in the order MCO's lister
// gives them, by name, with the default policy (index -1) in place of a
// tree object of its name when the cluster has it.
func clusterPolicyOrder(in Input) []cipRef {
	var cips []cipRef
	for i, c := range in.ClusterImagePolicies {
		if c == nil || (in.DefaultPolicy && c.Name == DefaultPolicyName) {
			continue
		}
		cips = append(cips, cipRef{c, i})
	}
	if in.DefaultPolicy {
		cips = append(cips, cipRef{DefaultClusterImagePolicy(), -1})
	}
	sort.SliceStable(cips, func(a, b int) bool { return cips[a].obj.Name < cips[b].obj.Name })
	return cips
}

// imagePolicyOrder is the indexes of the ImagePolicies in the order MCO's
// lister gives them: by namespace, then name.
func imagePolicyOrder(in Input) []int {
	ips := make([]int, 0, len(in.ImagePolicies))
	for i, p := range in.ImagePolicies {
		if p != nil {
			ips = append(ips, i)
		}
	}
	sort.SliceStable(ips, func(a, b int) bool {
		pa, pb := in.ImagePolicies[ips[a]], in.ImagePolicies[ips[b]]
		if pa.Namespace != pb.Namespace {
			return pa.Namespace < pb.Namespace
		}
		return pa.Name < pb.Name
	})
	return ips
}

// sortedStatuses lists the statuses in Input order.
func (sp *signaturePolicies) sortedStatuses() []ImagePolicyStatus {
	out := slices.Clone(sp.statuses)
	sort.SliceStable(out, func(a, b int) bool { return out[a].Index < out[b].Index })
	return out
}

// checkPolicyScopes reproduces validateImagePolicyWithAllowedBlockedRegistries
// for the given scopes against the Image lists after the payload rule (the
// ones policy.json is built from): each must lie inside an allowed registry
// (when any is listed), then none may lie inside a blocked one. what is
// "clusterimagePolicy" or "imagePolicy". MCO walks a Go map, so with
// several offending scopes the one it names varies; the first in the order
// they were written is taken here (scopeProblems lists them all).
func checkPolicyScopes(what string, list []*policyScope, pr payloadResult) *Refusal {
	if rs := scopeProblems(what, list, pr, true); len(rs) > 0 {
		return rs[0]
	}
	return nil
}

// scopeProblems is every scope of list MCO would refuse (the allowed check
// first, as MCO does), or only the first when first is set.
func scopeProblems(what string, list []*policyScope, pr payloadResult, first bool) []*Refusal {
	var out []*Refusal
	refused := map[*policyScope]bool{}
	if len(pr.allowed) > 0 {
		allowed := newScopeIndex(len(pr.allowed))
		for i, a := range pr.allowed {
			allowed.add(a, i)
		}
		for _, ps := range list {
			if _, inside := allowed.containing(ps.scope, false); !inside {
				r := &Refusal{Reason: fmt.Sprintf("%s configured for the scope %s is not nested inside allowedRegistries", what, ps.scope), Subject: ps.at.subject()}
				r.Related = []Subject{pr.allowedSubject()}
				out = append(out, placeImplicit(r, ps))
				refused[ps] = true
				if first {
					return out
				}
			}
		}
	}
	if len(pr.policyBlocked) == 0 {
		return out
	}
	// MCO names the scope with the first blocked entry (in list order)
	// that contains it; the index keeps the smallest position per entry.
	blocked := newScopeIndex(len(pr.policyBlocked))
	for i, b := range pr.policyBlocked {
		blocked.add(b.scope, i)
	}
	for _, ps := range list {
		if refused[ps] {
			continue
		}
		if k, inside := blocked.containing(ps.scope, false); inside {
			r := &Refusal{Reason: fmt.Sprintf("%s configured for the scope %s is nested inside blockedRegistries", what, ps.scope), Subject: ps.at.subject()}
			r.Related = []Subject{imageSubject("blockedRegistries", pr.policyBlocked[k].index)}
			out = append(out, placeImplicit(r, ps))
			if first {
				return out
			}
		}
	}
	return out
}

// placeImplicit puts a refusal about a scope that is not in the tree (the
// default policy's) on the related value.
func placeImplicit(r *Refusal, ps *policyScope) *Refusal {
	if ps.implicit && len(r.Related) > 0 {
		r.Subject, r.Related = r.Related[0], append([]Subject{ps.at.subject()}, r.Related[1:]...)
	}
	return r
}

// allowedSubject is where the allowed list comes from: the user's
// allowedRegistries, or, when MCO only has the payload repository it added
// itself, the blocked entry that made it add it.
func (pr payloadResult) allowedSubject() Subject {
	for _, i := range pr.allowedIndex {
		if i >= 0 {
			return Subject{Kind: KindImage, Path: "spec.registrySources.allowedRegistries"}
		}
	}
	if pr.payloadEntry >= 0 {
		return imageSubject("blockedRegistries", pr.payloadEntry)
	}
	return Subject{Kind: KindImage, Path: "spec.registrySources"}
}

// nsScopes views the ImagePolicy scopes as policyScopes for the checks.
func (sp *signaturePolicies) nsScopes() []*policyScope {
	out := make([]*policyScope, len(sp.namespaced))
	for i, ns := range sp.namespaced {
		out[i] = &policyScope{scope: ns.scope, at: ns.at}
	}
	return out
}

// PolicyScopeFindings lists every ClusterImagePolicy and ImagePolicy scope
// that MCO refuses to render because of the Image lists: outside
// allowedRegistries (when any is listed, the payload repository MCO adds
// itself included) or inside blockedRegistries, both after the payload
// rule. The renderer stops at the first such scope (MCO walks a map, so
// which one it names varies); this names them all, with MCO's message and
// the scope as the subject (the related Image value for the default
// policy's scope, which is not in the tree). An ImagePolicy scope that a
// ClusterImagePolicy scope contains is dropped before the check and is not
// listed. A release image that does not parse yields nothing (the render
// is refused for that first).
func (p *Plan) PolicyScopeFindings() []Finding {
	in, v, pp := p.in, p.v, p.pp
	if p.releaseRefusal != nil {
		return nil
	}
	sp, _ := collect(in, v, false)
	var out []Finding
	for _, group := range []struct {
		what string
		list []*policyScope
	}{{"clusterimagePolicy", sp.cluster}, {"imagePolicy", sp.nsScopes()}} {
		for _, r := range scopeProblems(group.what, group.list, pp.pr, false) {
			out = append(out, Finding{Message: r.Reason, Subject: r.Subject, Related: r.Related})
		}
	}
	return out
}
