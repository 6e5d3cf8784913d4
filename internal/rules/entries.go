package rules

import (
	"slices"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/mirrororder"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// Policy values as the API defines them.
const (
	neverContact = string(configv1.NeverContactSource)
	allowContact = string(configv1.AllowContactingSource)
)

// entry is one source entry of an ICSP, IDMS or ITMS (mco.Entry), with the
// way back to the YAML it came from.
type entry struct {
	obj     *manifest.Object
	at      manifest.Path // the entry, e.g. spec.imageDigestMirrors[2]
	source  string
	mirrors []string
	policy  string // as written; always "" for ICSP, which has no such field
	tag     bool   // from an ITMS
	// replaced: the object is replaced by a later one of the same kind
	// and name (check.Applied), so MCO never sees the entry; only
	// writtenEntries holds such entries.
	replaced bool
}

func (e *entry) path(elems ...any) manifest.Path { return e.at.Child(elems...) }

func (e *entry) sourcePath() manifest.Path      { return e.path("source") }
func (e *entry) mirrorPath(k int) manifest.Path { return e.path("mirrors", k) }

// policyPath is where a policy finding belongs: the policy value when one is
// written, else the source (an unset policy has no line of its own).
func (e *entry) policyPath() manifest.Path {
	if e.policy != "" {
		return e.path("mirrorSourcePolicy")
	}
	return e.sourcePath()
}

// effectivePolicy is the policy MCO compares: unset means
// AllowContactingSource, and ICSP is always AllowContactingSource. Any other
// string is compared as written, which is what MCO does.
func (e *entry) effectivePolicy() string {
	if e.policy == "" {
		return allowContact
	}
	return e.policy
}

func (e *entry) never() bool { return e.policy == neverContact }

// realMirror reports whether the entry has a mirror other than its source;
// MCO skips entries without one, policy included.
func (e *entry) realMirror() bool { return mirrororder.HasRealMirror(e.source, e.mirrors) }

func (e *entry) kind() manifest.Kind { return e.obj.Kind }

// mirrorEntries lists every entry of the plan (mco.Plan.Entries: IDMS,
// then ICSP, then ITMS, each kind by object name) with its object. Many
// rules use it, so it is built once per context (a check.Memo). The slice
// is shared between rules: treat it as read-only.
func mirrorEntries(c *check.Context) []entry { return entriesMemo.Get(c) }

var entriesMemo = check.NewMemo("rules.mirrorEntries", func(c *check.Context) []entry {
	out := make([]entry, 0, len(c.Plan.Entries))
	for _, e := range c.Plan.Entries {
		out = append(out, entry{obj: c.SubjectObject(e.At), at: manifest.ParsePath(e.At.Path), source: e.Source,
			mirrors: e.Mirrors, policy: string(e.Policy), tag: e.Tag})
	}
	return out
})

// writtenEntries are mirrorEntries and the entries of the objects a later
// one of the same kind and name replaces: the API server judges each
// object when it is applied, whatever replaces it afterwards, so its
// refusals are found on every copy. Each replaced object is planned on
// its own (BuildInput keeps one object per identity).
func writtenEntries(c *check.Context) []entry { return writtenMemo.Get(c) }

var writtenMemo = check.NewMemo("rules.writtenEntries", func(c *check.Context) []entry {
	out := slices.Clip(mirrorEntries(c))
	for _, kind := range []manifest.Kind{manifest.KindIDMS, manifest.KindICSP, manifest.KindITMS} {
		applied := map[*manifest.Object]bool{}
		for _, o := range c.Applied(kind) {
			applied[o] = true
		}
		for _, o := range c.Objects(kind) {
			if applied[o] {
				continue
			}
			in := check.BuildInput([]*manifest.Object{o}, c.Settings)
			for _, e := range mco.NewPlan(in.Input).Entries {
				out = append(out, entry{obj: in.Object(e.At), at: manifest.ParsePath(e.At.Path), source: e.Source,
					mirrors: e.Mirrors, policy: string(e.Policy), tag: e.Tag, replaced: true})
			}
		}
	}
	return out
})

// mirrorSet is one of the plan's merged sets (mco.Plan.Sets) with its
// entries.
type mirrorSet struct {
	source  string
	tag     bool
	entries []*entry // in MCO order; entries[0] is where MCO points
	never   bool
	mirrors []string // merged, as MCO writes them
}

// lists are the mirror lists of the set's entries, in MCO order.
func (s *mirrorSet) lists() [][]string {
	out := make([][]string, len(s.entries))
	for i, e := range s.entries {
		out[i] = e.mirrors
	}
	return out
}

// merged is the mirror order MCO writes for the set, a copy the caller
// may change.
func (s *mirrorSet) merged() []string { return slices.Clone(s.mirrors) }

// sets are the plan's sets in MCO's processing order (digest sets sorted by
// source, then tag sets), and by source per pull type.
type sets struct {
	all    []*mirrorSet
	digest map[string]*mirrorSet
	tag    map[string]*mirrorSet
}

// mirrorSets returns the plan's sets, built once per context.
func mirrorSets(c *check.Context) *sets { return setsMemo.Get(c) }

var setsMemo = check.NewMemo("rules.mirrorSets", func(c *check.Context) *sets {
	es := mirrorEntries(c)
	s := &sets{digest: map[string]*mirrorSet{}, tag: map[string]*mirrorSet{}}
	for _, ps := range c.Plan.Sets {
		set := &mirrorSet{source: ps.Source, tag: ps.Tag, never: ps.Never, mirrors: ps.Mirrors}
		for _, i := range ps.Entries {
			set.entries = append(set.entries, &es[i])
		}
		s.all = append(s.all, set)
		if ps.Tag {
			s.tag[ps.Source] = set
		} else {
			s.digest[ps.Source] = set
		}
	}
	return s
})

// enclosing returns every scope that contains x under MCO's nesting rule
// (scopes.IsNested), most specific first: x itself unless strict, x
// cut at each "/" from the right, then "*.domain" wildcards built from x's
// host part, longest first. Callers look these up in maps, which keeps
// every "what encloses x" question linear in len(x) rather than in the
// number of sources. The list is exact: a scope contains x exactly when it
// is listed (TestEnclosingIsExactlyIsNested), so no candidate needs
// checking again.
func enclosing(x string, strict bool) []string {
	var out []string
	if !strict {
		out = append(out, x)
	}
	for i := len(x) - 1; i > 0; i-- {
		if x[i] == '/' {
			out = append(out, x[:i])
		}
	}
	if host, ok := scopes.WildcardHostPart(x); ok {
		for i := 0; i < len(host); i++ {
			if host[i] != '.' {
				continue
			}
			w := "*" + host[i:]
			if strict && w == x {
				continue
			}
			out = append(out, w)
		}
	}
	return out
}

// imageCluster returns the Image object MCO reads (named cluster), or nil.
func imageCluster(c *check.Context) (*manifest.Object, *configv1.ImageSpec) {
	o := c.Input.ImageObject()
	if o == nil || o.Image == nil {
		return nil, nil
	}
	return o, &o.Image.Spec
}

// scopeList is one Image registrySources list with its field name.
type scopeList struct {
	field  string
	values []string
}

func (l scopeList) path(i int) manifest.Path {
	return manifest.Path{"spec", "registrySources", l.field, i}
}

// repoPath splits a registry scope into host[:port] and the repository
// path after the first "/" (empty when there is none).
func repoPath(s string) (host, path string) {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// quoteList renders up to max strings for a message.
func quoteList(l []string, max int) string {
	var b strings.Builder
	for i, s := range l {
		if i == max {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}
