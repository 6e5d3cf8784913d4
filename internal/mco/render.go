package mco

import (
	"fmt"
	"sort"
	"strings"

	"github.com/containers/image/v5/docker/reference"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// Refusal prefixes: how MCO wraps the reason depending on the file it was
// editing when it gave up.
const (
	PrefixRegistries = "could not update registries config with new changes"
	PrefixPolicy     = "could not update policy json with new changes"
)

// ReasonReleaseImage is MCO's (unwrapped) reason when ClusterVersion's
// desired image cannot be parsed.
const ReasonReleaseImage = "error parsing reference of release image"

// Render computes what MCO's image-config sync writes for the cluster state
// in, or the *Refusal with which it gives up (MCO then keeps the previous
// MachineConfig).
func Render(in Input) (*Output, error) { return NewPlan(in).Render() }

// Render writes the files of the plan, or returns the *Refusal with which
// MCO gives up.
func (p *Plan) Render() (*Output, error) {
	in, v, pp := p.in, p.v, p.pp
	p.written = nil
	if p.releaseRefusal != nil {
		return nil, p.releaseRefusal
	}
	rs, entries, digest, tagC, pr := pp.rs, pp.entries, pp.digest, pp.tag, pp.pr

	// getValidScopePolicies runs next; its refusals are returned bare.
	sp, ref := collectPolicies(in, v)
	if ref != nil {
		return nil, ref
	}
	refuse := func(r *Refusal, prefix string) (*Output, error) {
		if prefix != "" {
			r.Prefix = prefix
		}
		r.ImagePolicyStatuses = sp.statuses
		return nil, r
	}

	out := &Output{Warnings: pr.warnings, ImagePolicyStatuses: sp.statuses, DefaultPolicy: sp.usedDefault}
	var regs []sysregistriesv2.Registry
	var written *sysregistriesv2.V2RegistriesConf // kept on the plan once the render succeeds
	anyObjects := len(in.ICSPs)+len(in.IDMSs)+len(in.ITMSs) > 0
	// An explicit empty insecure list still makes MCO write the file, while
	// an empty blocked list does not: MCO rebuilds that one by appending.
	if rs.InsecureRegistries != nil || pr.registriesBlocked != nil || anyObjects {
		conf, err := renderRegistries(rs.InsecureRegistries, pr.registriesBlocked, entries, digest, tagC, v, refuseICSPMix(in, v))
		if err != nil {
			return refuse(err, PrefixRegistries)
		}
		data, exact, encErr := encodeConf(&conf, v)
		if encErr != nil {
			return refuse(&Refusal{Reason: encErr.Error()}, PrefixRegistries)
		}
		out.Generated = true
		out.RegistriesConf = data
		regs = conf.Registries
		if exact {
			written = &conf
		}
	} else {
		out.RegistriesConf = nodefiles.RegistriesConf()
	}

	if pr.policyBlocked != nil || pr.allowed != nil || !sp.empty() {
		if r := checkExclusive(pr, in.ReleaseImage); r != nil {
			return refuse(r, PrefixPolicy)
		}
		if r := checkPolicyScopes("clusterimagePolicy", sp.cluster, pr); r != nil {
			return refuse(r, PrefixPolicy)
		}
		var doc *policyDoc
		if pr.policyBlocked == nil && pr.allowed == nil && len(sp.cluster) == 0 {
			// Only ImagePolicies: MCO writes the template as it is, and
			// the namespace files start from it.
			doc = templatePolicy()
			out.PolicyJSON = nodefiles.PolicyJSON()
		} else {
			if r := checkPolicyEntries(pr); r != nil {
				return refuse(r, PrefixPolicy)
			}
			doc = clusterPolicy(scopeStrings(pr.policyBlocked), pr.allowed, sp.cluster, v)
			data, err := encodePolicy(doc, v, "")
			if err != nil {
				return refuse(&Refusal{Reason: err.Error()}, PrefixPolicy)
			}
			out.PolicyJSON = data
		}
		if r := checkPolicyScopes("imagePolicy", sp.nsScopes(), pr); r != nil {
			return refuse(r, PrefixNamespacePolicy)
		}
		files, err := namespaceFiles(doc, sp, v)
		if err != nil {
			return refuse(&Refusal{Reason: err.Error()}, PrefixNamespacePolicy)
		}
		out.CRIOPolicies = files
		yml, r := sigstoreYAML(sp, regs, out.Generated, v, pp.entryAt)
		if r != nil {
			return refuse(r, "")
		}
		out.SigstoreRegistriesYAML = yml
	}

	out.SearchRegistriesConf = searchDropIn(rs.ContainerRuntimeSearchRegistries, v)
	out.RegistryCAFiles = CertsD(in)
	p.written = written
	return out, nil
}

// namespaceFiles renders /etc/crio/policies/<namespace>.json for every
// namespace with an ImagePolicy scope left: 4.18 indents them by one space,
// later releases by two like policy.json.
func namespaceFiles(cluster *policyDoc, sp *signaturePolicies, v Version) (map[string][]byte, error) {
	if len(sp.namespaced) == 0 {
		return nil, nil
	}
	byNS := map[string]map[string][]any{}
	for _, ns := range sp.namespaced {
		for n, reqs := range ns.byNS {
			if byNS[n] == nil {
				byNS[n] = map[string][]any{}
			}
			byNS[n][ns.scope] = append(byNS[n][ns.scope], reqs...)
		}
	}
	indent := "  "
	if !v.AtLeast(19) {
		indent = " "
	}
	files := make(map[string][]byte, len(byNS))
	for n, reqs := range byNS {
		data, err := encodePolicy(namespacePolicy(cluster, reqs), v, indent)
		if err != nil {
			return nil, err
		}
		files[n] = data
	}
	return files, nil
}

// prepared is what MCO has before it renders any file: the flattened
// mirror entries, the merged digest and tag sets, and the Image
// blocked/allowed lists after the payload rule.
type prepared struct {
	rs          *configv1.RegistrySources
	entries     []specEntry
	digest, tag []mergedSet
	pr          payloadResult
}

// prepare flattens and merges the mirror entries and applies the payload
// rule when the release image is known. An unparseable one is what MCO
// refuses first of all; the mirror sets are still prepared (for the rules)
// and the Image lists are then taken as written.
func prepare(in Input, v Version) (*prepared, *Refusal) {
	spec := in.Image
	if spec == nil {
		spec = &configv1.ImageSpec{}
	}
	pp := &prepared{rs: &spec.RegistrySources, entries: flatten(in), pr: payloadResult{payloadEntry: -1}}
	rs := pp.rs
	digestC, tagC := setCollector{}, setCollector{tag: true}
	for i := range pp.entries {
		e := &pp.entries[i]
		c := &digestC
		if e.tag {
			c = &tagC
		}
		c.add(e.source, e.mirrors, e.policy == configv1.NeverContactSource, e.at, i)
	}
	pp.digest, pp.tag = digestC.merged(), tagC.merged()

	// The Image blocked/allowed lists, after the payload rule when the
	// release image is known.
	var refusal *Refusal
	if in.ReleaseImage != "" {
		ref, err := reference.ParseNamed(in.ReleaseImage)
		if err == nil {
			pp.pr = applyPayloadRule(ref, rs.BlockedRegistries, rs.InsecureRegistries, rs.AllowedRegistries, pp.digest, v)
			return pp, nil
		}
		refusal = &Refusal{Reason: ReasonReleaseImage}
	}
	{
		for i, b := range rs.BlockedRegistries {
			pp.pr.registriesBlocked = append(pp.pr.registriesBlocked, indexedScope{b, i})
			pp.pr.policyBlocked = append(pp.pr.policyBlocked, indexedScope{b, i})
		}
		for i, a := range rs.AllowedRegistries {
			pp.pr.allowed = append(pp.pr.allowed, a)
			pp.pr.allowedIndex = append(pp.pr.allowedIndex, i)
		}
	}
	return pp, refusal
}

// entryAt is where the registries.conf entry of scope comes from: the
// first mirror entry of its source (digest sets first), else its blocked
// or insecure Image entry. Trailing slashes are ignored, as containers/image
// trims them from the prefixes it reads back.
func (pp *prepared) entryAt(scope string) (Subject, bool) {
	for _, sets := range [][]mergedSet{pp.digest, pp.tag} {
		for _, s := range sets {
			if strings.TrimRight(s.source, "/") == scope {
				return Subject{Kind: s.first.kind, Index: s.first.index, Path: s.first.path + ".source"}, true
			}
		}
	}
	for _, l := range []struct {
		field  string
		values []string
	}{{"blockedRegistries", pp.rs.BlockedRegistries}, {"insecureRegistries", pp.rs.InsecureRegistries}} {
		for i, b := range l.values {
			if strings.TrimRight(b, "/") == scope {
				return imageSubject(l.field, i), true
			}
		}
	}
	return Subject{}, false
}

// renderRegistries validates and builds registries.conf from the template.
// mix is the 4.13.0–4.13.26 ICSP mix refusal (nil elsewhere): MCO gave it
// when editing registries.conf, after validating the Image lists and the
// mirror entries.
func renderRegistries(insecure []string, blocked []indexedScope, entries []specEntry, digest, tag []mergedSet, v Version, mix *Refusal) (sysregistriesv2.V2RegistriesConf, *Refusal) {
	conf := nodefiles.Registries()
	insecureIx := make([]indexedScope, len(insecure))
	for i, s := range insecure {
		insecureIx[i] = indexedScope{s, i}
	}
	if r := validateScopes("insecureRegistries", "insecure", insecureIx); r != nil {
		return conf, r
	}
	if r := validateScopes("blockedRegistries", "blocked", blocked); r != nil {
		return conf, r
	}
	if r := validateEntries(entries, v); r != nil {
		return conf, r
	}
	if mix != nil {
		return conf, mix
	}
	regs, err := buildEntries(insecureIx, blocked, digest, tag)
	if err != nil {
		r := &Refusal{Reason: err.Error()}
		if nw, ok := err.(*nestedWildcardError); ok {
			r.Subject = Subject{Kind: nw.from.kind, Index: nw.from.index, Path: nw.from.path + ".source"}
		}
		return conf, r
	}
	conf.Registries = regs
	return conf, nil
}

// checkExclusive is the first check of MCO's policy.json step (which runs
// only after registries.conf rendered): blocked and allowed together are
// refused, unless the only allowed entry is the payload repository MCO
// itself added.
func checkExclusive(pr payloadResult, releaseImage string) *Refusal {
	if len(pr.allowed) == 0 || len(pr.policyBlocked) == 0 {
		return nil
	}
	// With the release image unknown the payload exception cannot apply
	// (Render already refused an unparseable non-empty one).
	if ref, err := reference.ParseNamed(releaseImage); err == nil && len(pr.allowed) == 1 && pr.allowed[0] == ref.Name() {
		return nil
	}
	sub := imageSubject("blockedRegistries", pr.policyBlocked[0].index)
	for _, i := range pr.allowedIndex {
		if i >= 0 {
			sub = imageSubject("allowedRegistries", i)
			break
		}
	}
	return &Refusal{
		Reason:  "invalid images config: only one of AllowedRegistries or BlockedRegistries may be specified",
		Subject: sub,
	}
}

// checkPolicyEntries is the last check of the policy.json step (after the
// signature policy scopes were checked against the lists): every blocked
// and allowed entry must be a valid scope.
func checkPolicyEntries(pr payloadResult) *Refusal {
	if r := validateScopes("blockedRegistries", "blocked", pr.policyBlocked); r != nil {
		return r
	}
	for k, a := range pr.allowed {
		if !scopes.ValidScope(a) {
			sub := Subject{Kind: KindImage, Path: "spec.registrySources.allowedRegistries"}
			if pr.allowedIndex[k] >= 0 {
				sub = imageSubject("allowedRegistries", pr.allowedIndex[k])
			}
			return &Refusal{Reason: fmt.Sprintf("invalid entry for allowed registries %q", a), Subject: sub}
		}
	}
	return nil
}

// refuseICSPMix is the 4.13.0–4.13.26 rule: MCO refused to edit
// registries.conf while ICSPs coexisted with IDMSs or ITMSs (the refusal
// comes after the release image check and the registries.conf validation,
// wrapped like any other registries.conf refusal). Nil objects do not
// count, as everywhere in Input.
func refuseICSPMix(in Input, v Version) *Refusal {
	if !v.RefusesICSPMix() || len(nameOrder(in.ICSPs)) == 0 {
		return nil
	}
	if idx := nameOrder(in.IDMSs); len(idx) > 0 {
		return &Refusal{Reason: "error: both imagecontentsourcepolicy and imagedigestmirrorset exist",
			Subject: Subject{Kind: KindIDMS, Index: idx[0], Path: "metadata.name"}}
	}
	if idx := nameOrder(in.ITMSs); len(idx) > 0 {
		return &Refusal{Reason: "error: both imagecontentsourcepolicy and imagetagmirrorset exist",
			Subject: Subject{Kind: KindITMS, Index: idx[0], Path: "metadata.name"}}
	}
	return nil
}

// nameOrder returns the indexes of the non-nil objects of objs ordered by
// name, stably: MCO's listers hand objects out sorted by name, and the
// corpus was produced that way.
func nameOrder[T any, P interface {
	*T
	GetName() string
}](objs []P) []int {
	idx := make([]int, 0, len(objs))
	for i, o := range objs {
		if o != nil {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return objs[idx[a]].GetName() < objs[idx[b]].GetName() })
	return idx
}

// flatten lists every mirror entry in MCO's order: IDMS, then ICSP (both
// digest), then ITMS (tag), each kind sorted by object name. Nil objects
// are skipped.
func flatten(in Input) []specEntry {
	var out []specEntry
	for _, i := range nameOrder(in.IDMSs) {
		for j, e := range in.IDMSs[i].Spec.ImageDigestMirrors {
			out = append(out, specEntry{
				source: e.Source, mirrors: scopes.Strings(e.Mirrors), policy: e.MirrorSourcePolicy,
				at: origin{kind: KindIDMS, index: i, path: fmt.Sprintf("spec.imageDigestMirrors[%d]", j)},
			})
		}
	}
	for _, i := range nameOrder(in.ICSPs) {
		for j, e := range in.ICSPs[i].Spec.RepositoryDigestMirrors {
			// ICSP has no policy field: always AllowContactingSource.
			out = append(out, specEntry{
				source: e.Source, mirrors: append([]string(nil), e.Mirrors...),
				at: origin{kind: KindICSP, index: i, path: fmt.Sprintf("spec.repositoryDigestMirrors[%d]", j)},
			})
		}
	}
	for _, i := range nameOrder(in.ITMSs) {
		for j, e := range in.ITMSs[i].Spec.ImageTagMirrors {
			out = append(out, specEntry{
				source: e.Source, mirrors: scopes.Strings(e.Mirrors), policy: e.MirrorSourcePolicy, tag: true,
				at: origin{kind: KindITMS, index: i, path: fmt.Sprintf("spec.imageTagMirrors[%d]", j)},
			})
		}
	}
	return out
}
