package rules

import (
	"sort"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mirrororder"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// Policy values as the API defines them.
const (
	neverContact = string(configv1.NeverContactSource)
	allowContact = string(configv1.AllowContactingSource)
)

// entry is one source entry of an ICSP, IDMS or ITMS, flattened, with the
// way back to the YAML it came from.
type entry struct {
	obj     *manifest.Object
	list    string // the spec field holding the entries
	index   int
	source  string
	mirrors []string
	policy  string // as written; always "" for ICSP, which has no such field
	tag     bool   // from an ITMS
}

func (e *entry) path(elems ...any) manifest.Path {
	return manifest.Path{"spec", e.list, e.index}.Child(elems...)
}

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

// byName returns the known objects of kind the cluster keeps (the last of
// several with one name) in MCO's processing order: the informer listers
// hand them out sorted by name.
func byName(c *check.Context, kind manifest.Kind) []*manifest.Object {
	objs := c.Applied(kind)
	sort.SliceStable(objs, func(i, j int) bool { return objs[i].Name < objs[j].Name })
	return objs
}

// mirrorEntries lists every entry in MCO's validation order: IDMS, then
// ICSP, then ITMS, each kind sorted by object name. Many rules use it, so
// it is flattened once per context (a check.Memo). The slice is shared
// between rules: treat it as read-only.
func mirrorEntries(c *check.Context) []entry { return entriesMemo.Get(c) }

var entriesMemo = check.NewMemo("rules.mirrorEntries", flattenEntries)

func flattenEntries(c *check.Context) []entry {
	var out []entry
	for _, o := range byName(c, manifest.KindIDMS) {
		for i, d := range o.IDMS.Spec.ImageDigestMirrors {
			out = append(out, entry{obj: o, list: "imageDigestMirrors", index: i, source: d.Source,
				mirrors: scopes.Strings(d.Mirrors), policy: string(d.MirrorSourcePolicy)})
		}
	}
	for _, o := range byName(c, manifest.KindICSP) {
		for i, d := range o.ICSP.Spec.RepositoryDigestMirrors {
			out = append(out, entry{obj: o, list: "repositoryDigestMirrors", index: i, source: d.Source,
				mirrors: d.Mirrors})
		}
	}
	for _, o := range byName(c, manifest.KindITMS) {
		for i, d := range o.ITMS.Spec.ImageTagMirrors {
			out = append(out, entry{obj: o, list: "imageTagMirrors", index: i, source: d.Source,
				mirrors: scopes.Strings(d.Mirrors), policy: string(d.MirrorSourcePolicy), tag: true})
		}
	}
	return out
}

// mirrorSet is one source's entries with real mirrors, of one pull type
// (digest: IDMS and ICSP; tag: ITMS), as MCO groups them before merging.
type mirrorSet struct {
	source  string
	tag     bool
	entries []*entry // in MCO order; entries[0] is where MCO points
	never   bool
}

func (s *mirrorSet) lists() [][]string {
	out := make([][]string, len(s.entries))
	for i, e := range s.entries {
		out[i] = e.mirrors
	}
	return out
}

// merged is the mirror order MCO writes for the set.
func (s *mirrorSet) merged() []string { return mirrororder.Merge(s.source, s.lists()) }

// sets groups entries with real mirrors by source. The result lists digest
// sets sorted by source, then tag sets sorted by source: MCO's processing
// order, which decides which enclosing source a nested scope copies from.
type sets struct {
	all    []*mirrorSet
	digest map[string]*mirrorSet
	tag    map[string]*mirrorSet
}

func collectSets(es []entry) *sets {
	s := &sets{digest: map[string]*mirrorSet{}, tag: map[string]*mirrorSet{}}
	var dSrc, tSrc []string
	for i := range es {
		e := &es[i]
		if !e.realMirror() {
			continue
		}
		m, src := s.digest, &dSrc
		if e.tag {
			m, src = s.tag, &tSrc
		}
		set := m[e.source]
		if set == nil {
			set = &mirrorSet{source: e.source, tag: e.tag}
			m[e.source] = set
			*src = append(*src, e.source)
		}
		set.entries = append(set.entries, e)
		if e.never() {
			set.never = true
		}
	}
	sort.Strings(dSrc)
	sort.Strings(tSrc)
	for _, src := range dSrc {
		s.all = append(s.all, s.digest[src])
	}
	for _, src := range tSrc {
		s.all = append(s.all, s.tag[src])
	}
	return s
}

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
