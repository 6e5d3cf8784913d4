// Package resolve answers "where does a node pull this image from?": the
// ordered pull sources containers/image (CRI-O's library) derives from a
// rendered registries.conf, with the mirrors it skips and the sources it
// refuses to contact. The library itself does the matching and rewriting;
// this package only loads the rendered files into it and explains the result.
package resolve

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/containers/image/v5/docker/reference"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
	"github.com/containers/image/v5/types"
)

// Result is the answer for one image reference.
type Result struct {
	// Image is the reference as given; Reference the fully qualified one
	// containers/image works with (docker.io/library/ added, :latest implied).
	Image     string `json:"image"`
	Reference string `json:"reference"`
	ByDigest  bool   `json:"byDigest"`
	// ShortName is set when Image names no registry. CRI-O then tries the
	// unqualified-search-registries in order (SearchRegistries); Sources are
	// for the docker.io normalisation, which is what a fully qualified
	// pull spec in a pod would use.
	ShortName        bool     `json:"shortName,omitempty"`
	SearchRegistries []string `json:"searchRegistries,omitempty"`
	// Entry is the registries.conf entry whose prefix matched (longest
	// prefix wins); nil when none did and the image is pulled as named.
	Entry *Entry `json:"entry"`
	// Sources are the pull sources in the order they are tried, with the
	// mirrors that are skipped for this reference left in place (Skipped).
	Sources []Source `json:"sources"`
	// Fails is set when every source that would be tried is blocked: the
	// pull cannot succeed whatever the registries hold.
	Fails bool     `json:"fails"`
	Notes []string `json:"notes,omitempty"`
	// Signature is what the signature policy asks of the image (see
	// AddSignature), nil when not asked.
	Signature *Signature `json:"signature,omitempty"`
}

// Entry is a [[registry]] table.
type Entry struct {
	Prefix             string `json:"prefix"`
	Location           string `json:"location"`
	Blocked            bool   `json:"blocked"`
	Insecure           bool   `json:"insecure"`
	MirrorByDigestOnly bool   `json:"mirrorByDigestOnly"`
}

// Source is one place the node would (or would not) try.
type Source struct {
	// Order is the 1-based position among the sources actually tried; 0 for
	// a skipped mirror.
	Order int `json:"order"`
	// Kind is "mirror" or "primary" (the entry's own location).
	Kind string `json:"kind"`
	// Location is the endpoint; Reference the rewritten reference pulled.
	Location       string `json:"location"`
	Reference      string `json:"reference"`
	PullFromMirror string `json:"pullFromMirror,omitempty"`
	Insecure       bool   `json:"insecure"`
	Skipped        bool   `json:"skipped"`
	SkipReason     string `json:"skipReason,omitempty"`
	// Blocked is set when the entry matching Reference is blocked:
	// containers/image refuses to contact it (BlockedBy is that entry's prefix).
	Blocked   bool   `json:"blocked"`
	BlockedBy string `json:"blockedBy,omitempty"`
}

// Resolve computes the pull sources for image under the rendered files:
// conf is registries.conf, dropIn the search-registries drop-in (nil when
// MCO writes none).
func Resolve(conf, dropIn []byte, image string) (*Result, error) {
	if _, _, err := Parse(image); err != nil {
		return nil, err
	}
	c, err := Load(conf, dropIn, nil)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.Resolve(image)
}

// Resolve is the package's Resolve under c's configuration.
func (c *Config) Resolve(image string) (*Result, error) {
	named, dropped, err := Parse(image)
	if err != nil {
		return nil, err
	}
	return c.resolve(image, named, dropped)
}

// ResolveNamed is Resolve of a reference Parse gave (its String() as the
// image), for a caller that has parsed it already: parsing is most of
// what a question that no entry matches costs.
func (c *Config) ResolveNamed(named reference.Named) (*Result, error) {
	return c.resolve(named.String(), named, "")
}

func (c *Config) resolve(image string, named reference.Named, dropped string) (*Result, error) {
	_, digested := named.(reference.Canonical)
	res := &Result{Image: image, Reference: named.String(), ByDigest: digested, ShortName: IsShortName(image)}
	if dropped != "" {
		res.Notes = append(res.Notes, fmt.Sprintf("%q has both a tag and a digest: containers/image refuses that form, so CRI-O drops the tag (:%s) and pulls by digest", image, dropped))
	}
	if res.ShortName {
		sys, err := c.system()
		if err != nil {
			return nil, fmt.Errorf("registries.conf: %w", err)
		}
		res.SearchRegistries, _ = sysregistriesv2.UnqualifiedSearchRegistries(sys)
		res.Notes = append(res.Notes, fmt.Sprintf("%q is a short name: CRI-O tries it under each unqualified-search registry in order (%s); shown here as %s, the docker.io normalisation, which is what a fully qualified pull spec should use", image, strings.Join(res.SearchRegistries, ", "), named.Name()))
	}

	reg, err := c.findRegistry(named.Name())
	if err != nil {
		return nil, fmt.Errorf("registries.conf: %w", err)
	}
	if reg == nil {
		// containers/image pulls as named, with default settings: the one
		// source is the reference itself, which no entry blocks (none
		// matches it). Most images of a cluster take this way, so it is
		// answered here rather than by rewriting and parsing the
		// reference again; a test holds it to the library's answer.
		res.Notes = append(res.Notes, "no registries.conf entry matches: the image is pulled from where it is named, with default settings")
		res.Sources = []Source{{Order: 1, Kind: "primary", Location: named.Name(), Reference: named.String()}}
		res.Notes = append(res.Notes, notes(res)...)
		return res, nil
	}
	res.Entry = &Entry{Prefix: reg.Prefix, Location: reg.Location, Blocked: reg.Blocked, Insecure: reg.Insecure, MirrorByDigestOnly: reg.MirrorByDigestOnly}

	tried, err := reg.PullSourcesFromReference(named)
	if err != nil {
		return nil, fmt.Errorf("rewriting %s: %w", named, err)
	}
	if res.Sources, err = explain(c, reg, named, digested, tried); err != nil {
		return nil, err
	}
	res.Fails = true
	for _, s := range res.Sources {
		if !s.Skipped && !s.Blocked {
			res.Fails = false
		}
	}
	res.Notes = append(res.Notes, notes(res)...)
	return res, nil
}

// Parse reads an image reference the way the node's pull does: normalised
// (docker.io/library/ for short names), ":latest" when it names neither a
// tag nor a digest. A reference with both a tag and a digest loses its tag:
// containers/image's docker transport refuses that form, and CRI-O (like
// podman) strips the tag before handing the reference over, so the pull is
// by digest; dropped is the tag that was removed ("" when none was).
// Commands call it before reading any tree, so a bad argument fails fast.
func Parse(image string) (named reference.Named, dropped string, err error) {
	named, err = reference.ParseNormalizedNamed(image)
	if err != nil {
		return nil, "", fmt.Errorf("invalid image reference %q: %w", image, err)
	}
	tagged, isTagged := named.(reference.NamedTagged)
	canonical, isDigested := named.(reference.Canonical)
	if isTagged && isDigested {
		named, err = reference.WithDigest(reference.TrimNamed(named), canonical.Digest())
		if err != nil {
			return nil, "", fmt.Errorf("invalid image reference %q: %w", image, err)
		}
		return named, tagged.Tag(), nil
	}
	return reference.TagNameOnly(named), "", nil
}

// explain lines the library's pull sources up with the entry's mirrors so
// the skipped ones can be shown where they sit, and asks the library again
// for each source whether its own entry blocks it, which is how
// containers/image decides when it opens the connection.
func explain(c *Config, reg *sysregistriesv2.Registry, named reference.Named, digested bool, tried []sysregistriesv2.PullSource) ([]Source, error) {
	var out []Source
	next := 0
	for _, m := range reg.Mirrors {
		if why := skipReason(reg, m, digested); why != "" {
			ref, err := rewrite(reg, m, named)
			if err != nil {
				return nil, err
			}
			out = append(out, Source{Kind: "mirror", Location: m.Location, Reference: ref, PullFromMirror: m.PullFromMirror, Insecure: m.Insecure, Skipped: true, SkipReason: why})
			continue
		}
		if next >= len(tried) || tried[next].Endpoint.Location != m.Location {
			return nil, fmt.Errorf("internal error: pull sources for %s do not follow the mirror list", named)
		}
		out = append(out, Source{Kind: "mirror", Location: m.Location, Reference: tried[next].Reference.String(), PullFromMirror: m.PullFromMirror, Insecure: m.Insecure})
		next++
	}
	if next != len(tried)-1 {
		return nil, fmt.Errorf("internal error: unexpected pull sources for %s", named)
	}
	p := tried[next]
	out = append(out, Source{Kind: "primary", Location: p.Endpoint.Location, Reference: p.Reference.String(), Insecure: p.Endpoint.Insecure})

	order := 0
	for i := range out {
		if out[i].Skipped {
			continue
		}
		order++
		out[i].Order = order
		r, err := c.findRegistry(referenceName(out[i].Reference))
		if err != nil {
			return nil, err
		}
		if r != nil && r.Blocked {
			out[i].Blocked, out[i].BlockedBy = true, r.Prefix
		}
	}
	return out, nil
}

// skipReason mirrors PullSourcesFromReference's filter, in words.
func skipReason(reg *sysregistriesv2.Registry, m sysregistriesv2.Endpoint, digested bool) string {
	switch {
	case reg.MirrorByDigestOnly && !digested:
		return "the entry sets mirror-by-digest-only and the reference is by tag"
	case reg.MirrorByDigestOnly:
		return ""
	case m.PullFromMirror == sysregistriesv2.MirrorByDigestOnly && !digested:
		return "digest-only mirror (ImageDigestMirrorSet/ICSP): pulls by tag skip it"
	case m.PullFromMirror == sysregistriesv2.MirrorByTagOnly && digested:
		return "tag-only mirror (ImageTagMirrorSet): pulls by digest skip it"
	}
	return ""
}

// rewrite asks the library what a mirror would be asked for, even when the
// reference's kind makes it skip that mirror.
func rewrite(reg *sysregistriesv2.Registry, m sysregistriesv2.Endpoint, named reference.Named) (string, error) {
	one := sysregistriesv2.Registry{Prefix: reg.Prefix, Endpoint: reg.Endpoint, Mirrors: []sysregistriesv2.Endpoint{{Location: m.Location}}}
	ps, err := one.PullSourcesFromReference(named)
	if err != nil {
		return "", err
	}
	return ps[0].Reference.String(), nil
}

func referenceName(ref string) string {
	if n, err := reference.ParseNamed(ref); err == nil {
		return n.Name()
	}
	return ref
}

func notes(r *Result) []string {
	var out []string
	var primary Source
	for _, s := range r.Sources {
		if s.Kind == "primary" {
			primary = s
		}
	}
	switch {
	case r.Fails:
		out = append(out, "every source that would be tried is blocked: the pull fails")
	case primary.Blocked:
		out = append(out, fmt.Sprintf("the primary location %s is blocked (never contacted): the pull fails unless a mirror has the image", primary.Location))
	}
	skipped := 0
	for _, s := range r.Sources {
		if s.Skipped {
			skipped++
		}
	}
	if skipped > 0 && !r.ByDigest {
		out = append(out, "pulls by tag do not use digest-only mirrors: to use them by tag add an ImageTagMirrorSet, or pull by digest")
	}
	return out
}

// IsShortName reports whether image names no registry: its first path
// component has no '.' or ':' and is not "localhost" (the docker rule).
// CRI-O resolves such a name through the unqualified-search registries.
func IsShortName(image string) bool {
	first, _, found := strings.Cut(image, "/")
	if !found {
		return true
	}
	return !strings.ContainsAny(first, ".:") && first != "localhost"
}

// loadConfig writes the rendered files where containers/image reads them:
// a private registries.conf and a private drop-in directory, so nothing of
// the host's own configuration leaks in.
func loadConfig(conf, dropIn []byte) (*types.SystemContext, func(), error) {
	dir, err := os.MkdirTemp("", "mirrorlint-resolve-")
	if err != nil {
		return nil, nil, err
	}
	// containers/image caches every config path it loads, process-wide;
	// the path is gone after cleanup, so drop the cache entry too.
	cleanup := func() { os.RemoveAll(dir); sysregistriesv2.InvalidateCache() }
	d := filepath.Join(dir, "registries.conf.d")
	if err := os.Mkdir(d, 0o700); err != nil {
		cleanup()
		return nil, nil, err
	}
	path := filepath.Join(dir, "registries.conf")
	if err := os.WriteFile(path, conf, 0o600); err != nil {
		cleanup()
		return nil, nil, err
	}
	if dropIn != nil {
		if err := os.WriteFile(filepath.Join(d, "01-image-searchRegistries.conf"), dropIn, 0o600); err != nil {
			cleanup()
			return nil, nil, err
		}
	}
	sys := &types.SystemContext{SystemRegistriesConfPath: path, SystemRegistriesConfDirPath: d}
	// The cache is keyed by these (fresh) paths; refreshing makes a parse
	// error surface here rather than as a nil entry.
	if _, err := sysregistriesv2.TryUpdatingCache(sys); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("registries.conf: %w", err)
	}
	return sys, cleanup, nil
}
