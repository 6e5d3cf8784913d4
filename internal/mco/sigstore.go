package mco

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/containers/image/v5/docker/reference"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
	"github.com/opencontainers/go-digest"
	yaml "go.yaml.in/yaml/v2"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// sigstoreYAML reproduces generateSigstoreRegistriesdConfig: every policy
// scope (cluster and namespaced) gets use-sigstore-attachments, and, when
// MCO generated registries.conf (regs, as written), so does every endpoint
// a pull from that scope, or from an entry nested inside it, can reach:
// MCO asks containers/image for the pull sources of a digest and of a tag
// reference under the scope and lists each source's repository. nil when
// there is no policy scope.
//
// MCO writes the registries.conf to a temporary file and looks each scope up
// there (FindRegistry, a scan of every entry per lookup); the lookups here go
// through an index of the same entries as containers/image reads them back
// (see lookupTable), and only PullSourcesFromReference is the library's.
func sigstoreYAML(sp *signaturePolicies, regs []sysregistriesv2.Registry, generated bool, v Version, entryAt func(scope string) (Subject, bool)) ([]byte, *Refusal) {
	if sp.empty() {
		return nil, nil
	}
	// The keys are collected with repeats and made unique once sorted.
	keys := make([]string, 0, 2*(len(sp.cluster)+len(sp.namespaced)))
	policyScopes := make([]*policyScope, 0, len(sp.cluster)+len(sp.namespaced))
	policyScopes = append(policyScopes, sp.cluster...)
	policyScopes = append(policyScopes, sp.nsScopes()...)
	var lt *lookupTable
	if generated {
		var err error
		if lt, err = newLookupTable(regs, v); err != nil {
			// The entry containers/image refuses is what to fix: an Image
			// scope with a URI scheme.
			r := &Refusal{Reason: err.Error(), Subject: policyScopes[0].at.subject()}
			if le, ok := err.(*locationError); ok {
				if at, found := entryAt(le.scope); found {
					r.Subject, r.Related = at, []Subject{policyScopes[0].at.subject()}
				}
			}
			return nil, r
		}
	}
	// A failure is placed on the policy scope, with the registries.conf
	// entry whose mirrors failed as the related value (the subject itself
	// for the default policy, which is not in the tree).
	refuse := func(ps *policyScope, reg *sysregistriesv2.Registry, err error) *Refusal {
		r := &Refusal{Reason: fmt.Sprintf("error adding clusterimagepolicy scope %s relevant mirrors: %v", ps.scope, err), Subject: ps.at.subject()}
		if at, ok := entryAt(reg.Prefix); ok {
			r.Related = []Subject{at}
		}
		return placeImplicit(r, ps)
	}
	for _, ps := range policyScopes {
		scope := ps.scope
		keys = append(keys, scope)
		if lt == nil {
			continue
		}
		if reg := lt.find(scope); reg != nil {
			if err := addPullSources(&keys, scope, reg); err != nil {
				return nil, refuse(ps, reg, err)
			}
		}
		for _, nested := range lt.nestedIn(scope) {
			if reg := lt.find(nested); reg != nil {
				if err := addPullSources(&keys, nested, reg); err != nil {
					return nil, refuse(ps, reg, err)
				}
			}
		}
	}
	return encodeSigstoreYAML(keys)
}

// encodeSigstoreYAML writes {docker: {scope: {use-sigstore-attachments:
// true}}} the way MCO does: ghodss/yaml marshals to JSON, reads that back
// with yaml.v2 and marshals it with yaml.v2, which sorts the keys in its
// "natural" order and quotes a key that would read as another type. The
// JSON round trip changes nothing for these string keys, so yaml.v2 (the
// same code as MCO vendors) is given the map directly.
func encodeSigstoreYAML(keys []string) ([]byte, *Refusal) {
	keys = uniqueNatural(keys)
	if out, ok := fastSigstoreYAML(keys); ok {
		return out, nil
	}
	docker := make(map[any]any, len(keys))
	attach := map[any]any{"use-sigstore-attachments": true}
	for _, k := range keys {
		docker[k] = attach
	}
	out, err := yaml.Marshal(map[any]any{"docker": docker})
	if err != nil {
		return nil, &Refusal{Reason: fmt.Sprintf("error marshalling regisres configuration for sigstore (cluster)imagepolicies: %v", err)}
	}
	return out, nil
}

// The placeholders MCO builds its probe references with.
const (
	probeDigest = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	probeTag    = "aaa"
	probePath   = "/a"
	probeHost   = "matched"
)

// addPullSources is addScopeMirrorsSigstoreRegistriesdConfig: the
// repositories of the pull sources of scope (a wildcard host made concrete,
// a bare host given a repository) under reg, by digest and by tag, except
// the primary of a wildcard entry, which has no location.
func addPullSources(keys *[]string, scope string, reg *sysregistriesv2.Registry) error {
	if reg == nil {
		return nil
	}
	if strings.HasPrefix(scope, "*.") {
		scope = strings.Replace(scope, "*", probeHost, 1)
	}
	added := false
	if !strings.Contains(scope, "/") {
		scope += probePath
		added = true
	}
	// A plainly canonical repository name parses to itself; anything else
	// goes through the library, with its errors.
	name := scope
	var digestRef, tagRef reference.Named
	probes := func() error {
		if digestRef != nil {
			return nil
		}
		ref, err := reference.Parse(scope)
		if err != nil {
			return fmt.Errorf("error parsing scope %s: %w", scope, err)
		}
		named, ok := ref.(reference.Named)
		if !ok {
			return fmt.Errorf("scope %s is not a named reference", scope)
		}
		repo := reference.TrimNamed(named)
		d, _ := digest.Parse(probeDigest)
		if digestRef, err = reference.WithDigest(repo, d); err != nil {
			return fmt.Errorf("error parsing digest name for scope %s: %w", scope, err)
		}
		if tagRef, err = reference.WithTag(repo, probeTag); err != nil {
			return fmt.Errorf("error parsing tag name for scope %s: %w", scope, err)
		}
		name = repo.Name()
		return nil
	}
	if !plainCanonicalName(scope) {
		if err := probes(); err != nil {
			return err
		}
	}
	ref := func(byDigest bool) (reference.Named, error) {
		if err := probes(); err != nil {
			return nil, err
		}
		if byDigest {
			return digestRef, nil
		}
		return tagRef, nil
	}
	digestSources, err := pullSourceNames(reg, name, true, ref)
	if err != nil {
		return fmt.Errorf("error getting digest sources for scope %s: %w", scope, err)
	}
	tagSources, err := pullSourceNames(reg, name, false, ref)
	if err != nil {
		return fmt.Errorf("error getting tag sources for scope %s: %w", scope, err)
	}
	// The primary and the scope itself come up in both lists; dropping
	// repeats here keeps the sort short.
	all := append(digestSources, tagSources...)
	for i, ep := range all {
		if ep == "" || slices.Contains(all[:i], ep) {
			continue
		}
		if added {
			ep = strings.TrimSuffix(ep, probePath)
		}
		*keys = append(*keys, ep)
	}
	return nil
}

// pullSourceNames is the repository name of each of
// reg.PullSourcesFromReference(ref), "" for the primary of a wildcard entry
// (which has no location). The endpoints are chosen as the library does
// (by pull-from-mirror against a digest or tag reference, the primary
// last); a rewritten name that is plainly canonical is taken as it is, any
// other goes through the library's own rewrite, so its result and its
// error are the library's. (Parsing every rewritten reference with the
// library's regular expressions took most of the render's time with
// thousands of policy scopes.)
func pullSourceNames(reg *sysregistriesv2.Registry, name string, byDigest bool, ref func(byDigest bool) (reference.Named, error)) ([]string, error) {
	eps := make([]sysregistriesv2.Endpoint, 0, len(reg.Mirrors)+1)
	if reg.MirrorByDigestOnly {
		if byDigest {
			eps = append(eps, reg.Mirrors...)
		}
	} else {
		for _, m := range reg.Mirrors {
			if m.PullFromMirror == sysregistriesv2.MirrorByDigestOnly && !byDigest || m.PullFromMirror == sysregistriesv2.MirrorByTagOnly && byDigest {
				continue
			}
			eps = append(eps, m)
		}
	}
	eps = append(eps, reg.Endpoint)
	out := make([]string, 0, len(eps))
	for _, ep := range eps {
		if ep.Location != "" {
			if n := prefixMatchLen(name, reg.Prefix); n >= 0 && plainCanonicalName(ep.Location+name[n:]) {
				out = append(out, ep.Location+name[n:])
				continue
			}
		}
		r, err := ref(byDigest)
		if err != nil {
			return nil, err
		}
		one := sysregistriesv2.Registry{Prefix: reg.Prefix, Endpoint: ep}
		ps, err := one.PullSourcesFromReference(r)
		if err != nil {
			return nil, err
		}
		if ep.Location == "" {
			out = append(out, "")
			continue
		}
		out = append(out, ps[0].Reference.Name())
	}
	return out, nil
}

// prefixMatchLen is how much of name a registries.conf prefix matches,
// -1 when it does not: containers/image's refMatchingSubdomainPrefix for a
// "*.domain" prefix (the first occurrence of ".domain" in name, with no "/"
// before it, ends name or is followed by ':', '/' or '@'), else its
// refMatchingPrefix.
func prefixMatchLen(name, prefix string) int {
	if strings.HasPrefix(prefix, "*.") {
		suffix := prefix[1:]
		i := strings.Index(name, suffix)
		if i < 0 || strings.Contains(name[:i], "/") {
			return -1
		}
		i += len(suffix)
		if i < len(name) && name[i] != ':' && name[i] != '/' && name[i] != '@' {
			return -1
		}
		return i
	}
	switch {
	case name == prefix:
		return len(prefix)
	case len(name) > len(prefix) && strings.HasPrefix(name, prefix):
		if c := name[len(prefix)]; c == ':' || c == '/' || c == '@' {
			return len(prefix)
		}
	}
	return -1
}

// plainCanonicalName reports whether s certainly parses with
// reference.ParseNamed to a name equal to s: a lower-case host with a dot
// (or a port) other than docker.io, then lower-case path components of
// letters and digits separated by ".", "_", "__" or dashes, 255 bytes at
// most. It says false for anything else, which the library then decides.
func plainCanonicalName(s string) bool {
	if len(s) > 255 {
		return false
	}
	slash := strings.IndexByte(s, '/')
	if slash < 0 || slash == len(s)-1 {
		return false
	}
	host, path := s[:slash], s[slash+1:]
	if host == "docker.io" || host == "index.docker.io" {
		return false
	}
	hostname, port, hasPort := strings.Cut(host, ":")
	if hasPort {
		if port == "" || strings.Trim(port, "0123456789") != "" {
			return false
		}
	} else if strings.IndexByte(host, '.') < 0 {
		return false
	}
	for len(hostname) > 0 {
		label := hostname
		if k := strings.IndexByte(hostname, '.'); k >= 0 {
			label, hostname = hostname[:k], hostname[k+1:]
			if hostname == "" {
				return false
			}
		} else {
			hostname = ""
		}
		if label == "" || !lowerAlnum(label[0]) || !lowerAlnum(label[len(label)-1]) {
			return false
		}
		for k := 0; k < len(label); k++ {
			if c := label[k]; !lowerAlnum(c) && c != '-' {
				return false
			}
		}
	}
	for {
		comp := path
		k := strings.IndexByte(path, '/')
		if k >= 0 {
			comp, path = path[:k], path[k+1:]
		}
		if !plainPathComponent(comp) {
			return false
		}
		if k < 0 {
			return true
		}
	}
}

func lowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// plainPathComponent is docker/reference's path component: runs of
// lower-case letters and digits joined by ".", "_", "__" or dashes.
func plainPathComponent(c string) bool {
	if c == "" || !lowerAlnum(c[0]) || !lowerAlnum(c[len(c)-1]) {
		return false
	}
	for i := 0; i < len(c); {
		if lowerAlnum(c[i]) {
			i++
			continue
		}
		j := i
		for j < len(c) && !lowerAlnum(c[j]) {
			j++
		}
		switch sep := c[i:j]; {
		case sep == "." || sep == "_" || sep == "__":
		case strings.Trim(sep, "-") == "":
		default:
			return false
		}
		i = j
	}
	return true
}

// lookupTable is registries.conf as containers/image reads it back
// (post-processed: prefix defaulted to the location, trailing slashes
// trimmed), indexed for FindRegistry's longest-prefix match, plus the
// entries' scopes as written (MCO decodes the file itself for those).
type lookupTable struct {
	regs     []sysregistriesv2.Registry // read back, in file order
	byPrefix map[string]int             // the first entry of each prefix
	wild     []int                      // the first entry of each "*." prefix
	written  []string                   // scopes as written, in file order
	sorted   []int                      // indexes into written, by scope
}

// newLookupTable post-processes regs like containers/image's
// postProcessRegistries for the shapes MCO writes. Mirror locations keep
// their trailing slashes up to 4.19: the containers/image MCO vendored
// there trimmed only locations and prefixes. A scheme in a location is the
// error the library gives when MCO loads its temporary file.
func newLookupTable(regs []sysregistriesv2.Registry, v Version) (*lookupTable, error) {
	lt := &lookupTable{regs: make([]sysregistriesv2.Registry, len(regs)), byPrefix: make(map[string]int, len(regs)), written: make([]string, 0, len(regs))}
	for i, r := range regs {
		c := r
		scope := RegistryScope(&r)
		lt.written = append(lt.written, scope)
		var err error
		if c.Location, err = parseLocation(c.Location); err != nil {
			return nil, &locationError{err, scope}
		}
		if c.Prefix == "" {
			c.Prefix = c.Location
		} else if c.Prefix, err = parseLocation(c.Prefix); err != nil {
			return nil, &locationError{err, scope}
		}
		// The entry shares the written mirrors unless a location loses a
		// trailing slash (4.20+) or carries a scheme.
		for j, m := range r.Mirrors {
			loc, err := parseLocation(m.Location)
			if err != nil && v.AtLeast(20) {
				return nil, &locationError{err, scope}
			}
			if v.AtLeast(20) && loc != m.Location {
				if &c.Mirrors[0] == &r.Mirrors[0] {
					c.Mirrors = append([]sysregistriesv2.Endpoint(nil), r.Mirrors...)
				}
				c.Mirrors[j].Location = loc
			}
		}
		lt.regs[i] = c
		// containers/image keeps the first entry of each prefix.
		if _, dup := lt.byPrefix[c.Prefix]; !dup {
			lt.byPrefix[c.Prefix] = i
			if strings.HasPrefix(c.Prefix, "*.") {
				lt.wild = append(lt.wild, i)
			}
		}
	}
	if err := lt.conflicts(); err != nil {
		return nil, err
	}
	lt.sorted = make([]int, len(lt.written))
	for i := range lt.sorted {
		lt.sorted[i] = i
	}
	sort.SliceStable(lt.sorted, func(a, b int) bool { return lt.written[lt.sorted[a]] < lt.written[lt.sorted[b]] })
	return lt, nil
}

// conflicts is containers/image's check that entries for one location
// (trailing slashes trimmed: "quay.io/acme/" from an Image list is
// "quay.io/acme" from a mirror set) agree on insecure and blocked: the
// first entry, in file order, of a location whose entries disagree is
// refused, naming the first setting another entry has differently.
func (lt *lookupTable) conflicts() error {
	groups := make(map[string][]int, len(lt.regs))
	key := func(r *sysregistriesv2.Registry) string {
		if r.Location == "" {
			return r.Prefix
		}
		return r.Location
	}
	for i := range lt.regs {
		k := key(&lt.regs[i])
		groups[k] = append(groups[k], i)
	}
	for i := range lt.regs {
		r := &lt.regs[i]
		g := groups[key(r)]
		if len(g) < 2 {
			continue
		}
		for _, j := range g {
			o := &lt.regs[j]
			if r.Insecure != o.Insecure {
				return &locationError{fmt.Errorf("loading registries configuration %q: registry '%s' is defined multiple times with conflicting 'insecure' setting", tempRegistriesConf(), r.Location), lt.written[i]}
			}
			if r.Blocked != o.Blocked {
				return &locationError{fmt.Errorf("loading registries configuration %q: registry '%s' is defined multiple times with conflicting 'blocked' setting", tempRegistriesConf(), r.Location), lt.written[i]}
			}
		}
	}
	return nil
}

// tempRegistriesConf stands for the temporary file MCO writes
// registries.conf to, whose random name appears in containers/image's
// loading errors.
func tempRegistriesConf() string { return filepath.Join(os.TempDir(), "regtemp…") }

// locationError is containers/image refusing a location while loading
// registries.conf, with the scope of the entry that holds it.
type locationError struct {
	err   error
	scope string
}

func (e *locationError) Error() string { return e.err.Error() }

// parseLocation is containers/image's normalisation of a location.
func parseLocation(s string) (string, error) {
	t := strings.TrimRight(s, "/")
	if strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") {
		return "", fmt.Errorf("loading registries configuration %q: invalid location '%s': URI schemes are not supported",
			tempRegistriesConf(), s)
	}
	return t, nil
}

// find is FindRegistry: the entry with the longest prefix matching ref (a
// prefix matches ref itself or ref continued by ':', '/' or '@'; a
// "*.domain" prefix matches a host ending in it), the first one listed
// among equally long ones; nil when none matches.
func (lt *lookupTable) find(ref string) *sysregistriesv2.Registry {
	// containers/image sorts the entries by prefix: among equally long
	// matching prefixes the smallest wins.
	best, bestLen := -1, 0
	consider := func(i, n int) {
		if n > bestLen || (n == bestLen && lt.regs[i].Prefix < lt.regs[best].Prefix) {
			best, bestLen = i, n
		}
	}
	for end := len(ref); end > 0; end-- {
		if end < len(ref) {
			if c := ref[end]; c != ':' && c != '/' && c != '@' {
				continue
			}
		}
		if i, ok := lt.byPrefix[ref[:end]]; ok {
			consider(i, end)
			break
		}
	}
	for _, i := range lt.wild {
		p := lt.regs[i].Prefix
		if prefixMatchLen(ref, p) >= 0 {
			consider(i, len(p))
		}
	}
	if best < 0 {
		return nil
	}
	r := lt.regs[best]
	return &r
}

// nestedIn lists, in file order, the written entry scopes strictly inside
// scope (runtime-utils' ScopeIsNestedInsideScope).
func (lt *lookupTable) nestedIn(scope string) []string {
	var out []string
	if scopes.IsWildcard(scope) {
		for _, s := range lt.written {
			if s != scope && scopes.IsNested(s, scope) {
				out = append(out, s)
			}
		}
		return out
	}
	lo := scope + "/"
	k := sort.Search(len(lt.sorted), func(k int) bool { return lt.written[lt.sorted[k]] >= lo })
	var idx []int
	for ; k < len(lt.sorted) && strings.HasPrefix(lt.written[lt.sorted[k]], lo); k++ {
		idx = append(idx, lt.sorted[k])
	}
	sort.Ints(idx)
	for _, i := range idx {
		out = append(out, lt.written[i])
	}
	return out
}
