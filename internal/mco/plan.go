package mco

import (
	"path"

	"github.com/containers/image/v5/docker/reference"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// Plan is what MCO decides for one cluster before it writes a file: the
// mirror entries in its order, the merged mirror sets with the entries they
// came from, the Image lists after the payload rule, the [[registry]]
// entries with their flags, and the signature policies. Render writes the
// node files from it and mirrorlint's rules read it, so neither derives any
// of it again. Every value carries the Subject it was written at.
//
// The plan is computed whatever MCO would refuse (the rules report on
// clusters MCO refuses too); Render returns the refusal.
type Plan struct {
	// Entries are every mirror entry of the IDMS, ICSP and ITMS objects, in
	// MCO's validation order: IDMS, then ICSP, then ITMS, each kind by
	// object name.
	Entries []Entry
	// Sets are the entries with a real mirror grouped by source and merged:
	// digest sets (IDMS and ICSP) sorted by source, then tag sets (ITMS)
	// sorted by source. That is MCO's processing order, which decides the
	// set a nested scope copies its mirrors from.
	Sets []MirrorSet
	// Registries are the [[registry]] entries MCO writes, in its order
	// (the sources, then the blocked scopes MCO keeps, then the insecure
	// scopes), with insecure and blocked propagated to nested scopes.
	Registries []Registry
	// Payload is what the payload rule decided about the Image lists.
	Payload Payload

	in             Input
	v              Version
	pp             *prepared
	releaseRefusal *Refusal

	// written is the value the last Render encoded into registries.conf,
	// kept when the file decodes back to exactly it (see WrittenRegistries).
	written *sysregistriesv2.V2RegistriesConf
}

// WrittenRegistries is the registries.conf the last Render wrote, as the
// value the node decodes from it, when that value is the one Render
// encoded (the shapes MCO writes, with plain strings: nearly every
// cluster); nil otherwise (no Render yet, the template, a refusal, or an
// encoding that may not read back the same), and the caller decodes
// Output.RegistriesConf. The rules ask it for every image a workload pulls,
// and decoding a large registries.conf again costs more than the render.
// The value is shared: callers must not change it.
func (p *Plan) WrittenRegistries() *sysregistriesv2.V2RegistriesConf { return p.written }

// Entry is one source entry of an IDMS, ICSP or ITMS.
type Entry struct {
	Source  string
	Mirrors []string
	// Policy is mirrorSourcePolicy as written ("" for unset, and always
	// for an ICSP, which has no such field).
	Policy configv1.MirrorSourcePolicy
	// Tag is set for an ITMS entry (tag mirrors); the others are digest
	// mirrors.
	Tag bool
	// At is the entry, e.g. {ImageDigestMirrorSet 2 "spec.imageDigestMirrors[0]"}.
	At Subject
}

// MirrorSet is one source's entries with a real mirror, of one pull type,
// as MCO merges them.
type MirrorSet struct {
	Source string
	Tag    bool
	// Mirrors is the merged order MCO writes.
	Mirrors []string
	// Never is set when an entry asks for NeverContactSource.
	Never bool
	// Entries are the merged entries (indexes into Plan.Entries) in MCO's
	// order; the first is where MCO points when it names the set.
	Entries []int
}

// Registry is one [[registry]] entry MCO writes.
type Registry struct {
	// Scope is the entry's prefix (a wildcard) or location.
	Scope string
	// At is the value that created the entry: the source of the set's
	// first entry, or the Image blocked or insecure entry.
	At Subject
	// Set is the index in Plan.Sets of the set giving the entry mirrors
	// of its own (the digest set when there are both), -1 for none.
	Set int
	// CopyFrom is, for an entry without mirrors of its own that lies
	// strictly inside a source, the index in Plan.Sets of the set MCO
	// copies mirrors from: the first enclosing one in processing order,
	// not the nearest. MCO fails when that set's source is a wildcard.
	CopyFrom int
	// Insecure and Blocked are the entry's flags after propagation;
	// NeverContactSource blocks the source's entry too.
	Insecure, Blocked bool
}

// Payload is what MCO's payload rule made of the Image lists: a blocked
// entry containing the release repository is kept only when the payload
// has a digest mirror outside every blocked scope.
type Payload struct {
	// Repository is the release repository ("" when the release image is
	// not known or does not parse); Components is the repository of the
	// payload's component images (ocp-v4.0-art-dev beside it).
	Repository, Components string
	// Kept are the indexes in blockedRegistries that registries.conf keeps.
	Kept []int
	// Dropped are the blocked entries MCO drops (and logs) because they
	// block the payload, which has no mirror outside them.
	Dropped []int
	// Discarded is set when MCO's own check of the payload failed: it then
	// drops every blocked and allowed entry and validates none of them.
	Discarded bool
	// ComponentsBlocked are the kept blocked entries that contain the
	// component repository while it has no digest mirror outside the
	// blocked scopes: MCO only protects the release repository, so the
	// nodes cannot pull the payload's images.
	ComponentsBlocked []int
}

// ReleaseOrganization holds the OpenShift release repositories: the
// release images and the component images they reference.
const ReleaseOrganization = "quay.io/openshift-release-dev"

// componentsRepository is where the release images of releaseRepo keep
// their component images: ocp-v4.0-art-dev beside an ocp-release
// repository (mirrored or not), else Red Hat's.
func componentsRepository(releaseRepo string) string {
	if path.Base(releaseRepo) == "ocp-release" {
		return path.Dir(releaseRepo) + "/ocp-v4.0-art-dev"
	}
	return ReleaseOrganization + "/ocp-v4.0-art-dev"
}

// ReleaseRepositories are the repositories a cluster pulls its release
// from: the release image's repository when it is known, else Red Hat's
// release and component repositories.
func (p *Plan) ReleaseRepositories() []string {
	if p.Payload.Repository != "" {
		return []string{p.Payload.Repository}
	}
	return []string{DefaultPolicyScope, componentsRepository(DefaultPolicyScope)}
}

// NewPlan computes the plan for in, once per cluster. render.Render hands
// it a library caller's Input, whose zero Version means the newest release;
// the tool's own clusters come with their version settled.
func NewPlan(in Input) *Plan {
	v := in.Version.OrNewest()
	pp, ref := prepare(in, v)
	p := &Plan{in: in, v: v, pp: pp, releaseRefusal: ref}
	for i := range pp.entries {
		e := &pp.entries[i]
		p.Entries = append(p.Entries, Entry{Source: e.source, Mirrors: e.mirrors, Policy: e.policy, Tag: e.tag,
			At: Subject{Kind: e.at.kind, Index: e.at.index, Path: e.at.path}})
	}
	for _, sets := range [][]mergedSet{pp.digest, pp.tag} {
		for _, s := range sets {
			p.Sets = append(p.Sets, MirrorSet{Source: s.source, Tag: s.tag, Mirrors: s.mirrors, Never: s.never, Entries: s.entries})
		}
	}
	rs := pp.rs
	t := newEntryTable(indexed(rs.InsecureRegistries), pp.pr.registriesBlocked, pp.digest, pp.tag)
	for i, r := range t.regs {
		p.Registries = append(p.Registries, Registry{Scope: RegistryScope(&r), At: t.at[i], Set: t.set[i], CopyFrom: t.copyFrom[i],
			Insecure: r.Insecure, Blocked: r.Blocked})
	}
	p.Payload = p.payload(ref)
	return p
}

func (p *Plan) payload(releaseRefusal *Refusal) Payload {
	pr, rs := p.pp.pr, p.pp.rs
	var out Payload
	if releaseRefusal == nil && p.in.ReleaseImage != "" {
		if ref, err := reference.ParseNamed(p.in.ReleaseImage); err == nil {
			out.Repository = ref.Name()
			out.Components = componentsRepository(out.Repository)
		}
	}
	for _, b := range pr.registriesBlocked {
		out.Kept = append(out.Kept, b.index)
	}
	out.Dropped, out.Discarded = pr.dropped, pr.discarded
	if out.Repository == "" || out.Discarded {
		return out
	}
	var blocking []int
	for _, b := range pr.registriesBlocked {
		if !scopes.IsNested(out.Repository, b.scope) && scopes.IsNested(out.Components, b.scope) {
			blocking = append(blocking, b.index)
		}
	}
	if len(blocking) == 0 {
		return out
	}
	// A by-digest pull of a component image, asked of containers/image as
	// MCO asks it about the payload.
	probe, err := reference.ParseNamed(out.Components + "@" + probeDigest)
	if err != nil {
		return out
	}
	ok, err := payloadHasUnblockedMirror(probe, rs.BlockedRegistries, rs.InsecureRegistries, p.pp.digest, p.v)
	if err == nil && !ok {
		out.ComponentsBlocked = blocking
	}
	return out
}

// Version is the release the plan models (Input.Version, or Newest).
func (p *Plan) Version() Version { return p.v }
