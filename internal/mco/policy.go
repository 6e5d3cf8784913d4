package mco

import (
	"encoding/json"
	"strings"
)

// policyDoc is containers/image's signature.Policy as MCO fills it: the
// default requirements and, per transport, the requirements by scope.
// signature itself is not imported: it drags in gpgme (cgo) and libtrust.
// Its maps marshal with sorted keys, exactly like these; requirement values
// are the pr*/prm* structs of requirement.go.
type policyDoc struct {
	Default    []any                       `json:"default"`
	Transports map[string]map[string][]any `json:"transports"`
}

// templatePolicy is the template policy.json as MCO decodes it before
// editing: accept anything, also from the docker-daemon transport.
func templatePolicy() *policyDoc {
	return &policyDoc{
		Default:    []any{reqAcceptAnything},
		Transports: map[string]map[string][]any{"docker-daemon": {"": {reqAcceptAnything}}},
	}
}

// clusterPolicy is MCO's updatePolicyJSON on the template, for the
// (payload-filtered) blocked and allowed lists and the ClusterImagePolicy
// scopes, when at least one of them is set: with allowed entries the
// default becomes reject and each allowed scope accepts anything, unless a
// ClusterImagePolicy has exactly that scope; with blocked entries (MCO only
// lets both through when the single allowed entry is the payload repository
// it added) the default is accept-anything again and each blocked scope
// rejects; then each policy scope gets its requirements appended. The
// scopes go under the "docker" transport and under "atomic" (see
// atomicScope).
func clusterPolicy(blocked, allowed []string, cluster []*policyScope, v Version) *policyDoc {
	p := templatePolicy()
	scopes := make(map[string][]any, len(allowed)+len(blocked)+len(cluster))
	if len(allowed) > 0 {
		p.Default = []any{reqReject}
		inPolicy := policyScopeIndex(cluster)
		for _, s := range allowed {
			if _, ok := inPolicy[s]; ok {
				continue
			}
			scopes[s] = []any{reqAcceptAnything}
		}
	}
	if len(blocked) > 0 {
		p.Default = []any{reqAcceptAnything}
		for _, s := range blocked {
			scopes[s] = []any{reqReject}
		}
	}
	for _, ps := range cluster {
		scopes[ps.scope] = append(scopes[ps.scope], ps.reqs...)
	}
	if len(scopes) > 0 {
		atomic := make(map[string][]any, len(scopes))
		for s, r := range scopes {
			if atomicScope(s, v) {
				atomic[s] = r
			}
		}
		p.Transports["docker"] = scopes
		p.Transports["atomic"] = atomic
	}
	return p
}

func policyScopeIndex(l []*policyScope) map[string]struct{} {
	m := make(map[string]struct{}, len(l))
	for _, ps := range l {
		m[ps.scope] = struct{}{}
	}
	return m
}

// atomicScope reports whether MCO of release v puts scope under the
// "atomic" transport too: from 4.14 it leaves out scopes with three or more
// slashes, which that transport does not support; 4.13 puts every scope there.
func atomicScope(scope string, v Version) bool {
	return !v.AtLeast(14) || strings.Count(scope, "/") < 3
}

// namespacePolicy is MCO's per-namespace policy (updateNamespacedPolicyJSONs):
// the cluster-wide policy as written (decoded again), with the namespace's
// ImagePolicy requirements appended to its scopes under "docker" and, for
// scopes with fewer than three slashes, under "atomic". Both transports
// exist afterwards even when nothing went into one of them.
func namespacePolicy(cluster *policyDoc, reqs map[string][]any) *policyDoc {
	p := &policyDoc{Default: cluster.Default, Transports: make(map[string]map[string][]any, len(cluster.Transports)+2)}
	for t, m := range cluster.Transports {
		c := make(map[string][]any, len(m)+len(reqs))
		for s, r := range m {
			c[s] = r
		}
		p.Transports[t] = c
	}
	for _, t := range []string{"docker", "atomic"} {
		if p.Transports[t] == nil {
			p.Transports[t] = map[string][]any{}
		}
	}
	for s, r := range reqs {
		d := p.Transports["docker"]
		d[s] = append(d[s][:len(d[s]):len(d[s])], r...)
		if strings.Count(s, "/") >= 3 {
			continue
		}
		a := p.Transports["atomic"]
		a[s] = append(a[s][:len(a[s]):len(a[s])], r...)
	}
	return p
}

// encodePolicy writes p as MCO of release v does. MCO decodes the template
// and marshals the result again, so the bytes are encoding/json's (with
// its HTML escaping), without a final newline:
//   - 4.17+: two-space indented (json.MarshalIndent); up to 4.16 compact
//     (json.Marshal).
//
// indent overrides the indentation (the 4.18 per-namespace files use one
// space); "" keeps the release's.
func encodePolicy(p *policyDoc, v Version, indent string) ([]byte, error) {
	if indent == "" && !v.AtLeast(17) {
		return json.Marshal(p)
	}
	if indent == "" {
		indent = "  "
	}
	if out, ok := fastEncodePolicy(p, indent); ok {
		return out, nil
	}
	return json.MarshalIndent(p, "", indent)
}
