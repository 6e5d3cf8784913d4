package mco

import (
	"fmt"
	"os"
	"strings"

	"github.com/containers/image/v5/docker/reference"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
	"github.com/containers/image/v5/types"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// payloadResult is the Image blocked/allowed lists after MCO's payload rule.
type payloadResult struct {
	registriesBlocked []indexedScope // for registries.conf
	policyBlocked     []indexedScope // for policy.json
	allowed           []string       // for policy.json
	allowedIndex      []int          // index into allowedRegistries, -1 for the payload repo MCO adds
	payloadEntry      int            // first blocked entry that made MCO add the payload repo, -1 if none
	warnings          []Finding
	// dropped are the blocked entries (indexes) MCO drops because they
	// block the payload, which has no mirror outside them; discarded is
	// set when MCO's own check failed and it dropped every blocked and
	// allowed entry.
	dropped   []int
	discarded bool
}

// applyPayloadRule reproduces how MCO keeps the release payload pullable:
// a blocked entry containing the payload repository is kept only if the
// payload has a digest mirror outside every blocked scope; otherwise it is
// dropped from both files with a logged message. A kept entry is not put in
// policy.json when it is exactly the payload repository, and the payload
// repository is then added to the allowed list so that its mirrors resolve.
//
// digest are the IDMS+ICSP sets, merged; MCO evaluates them through a
// scratch registries.conf built from the raw Image lists (unvalidated) and
// containers/image itself. If that machinery fails, MCO logs the error and
// continues with no blocked and no allowed registries at all.
func applyPayloadRule(payload reference.Named, blocked, insecure, allowedRegs []string, digest []mergedSet, v Version) payloadResult {
	res := payloadResult{payloadEntry: -1}
	repo := payload.Name()
	var (
		checked   bool
		hasMirror bool
		blockErr  []string
		firstErr  = -1
	)
	for i, reg := range blocked {
		if !scopes.IsNested(repo, reg) {
			res.registriesBlocked = append(res.registriesBlocked, indexedScope{reg, i})
			res.policyBlocked = append(res.policyBlocked, indexedScope{reg, i})
			continue
		}
		if !checked {
			var err error
			hasMirror, err = payloadHasUnblockedMirror(payload, blocked, insecure, digest, v)
			if err != nil {
				return payloadResult{payloadEntry: -1, discarded: true, warnings: []Finding{{
					Message: err.Error(),
					Subject: imageSubject("blockedRegistries", i),
				}}}
			}
			checked = true
		}
		if !hasMirror {
			blockErr = append(blockErr, reg)
			res.dropped = append(res.dropped, i)
			if firstErr < 0 {
				firstErr = i
			}
			continue
		}
		res.warnings = append(res.warnings, Finding{
			Message: fmt.Sprintf("%q matches the payload repository, but will add it to the list of blocked registries as there are mirror rules configured for it", reg),
			Subject: imageSubject("blockedRegistries", i),
		})
		res.registriesBlocked = append(res.registriesBlocked, indexedScope{reg, i})
		if reg != repo {
			res.policyBlocked = append(res.policyBlocked, indexedScope{reg, i})
		}
		res.allowed = append(res.allowed, repo)
		res.allowedIndex = append(res.allowedIndex, -1)
		if res.payloadEntry < 0 {
			res.payloadEntry = i
		}
	}
	if len(blockErr) > 0 {
		res.warnings = append(res.warnings, Finding{
			Message: fmt.Sprintf("error adding %q to blocked registries, cannot block the repository being used by the payload", blockErr),
			Subject: imageSubject("blockedRegistries", firstErr),
		})
	}
	for i, a := range allowedRegs {
		res.allowed = append(res.allowed, a)
		res.allowedIndex = append(res.allowedIndex, i)
	}
	return res
}

// payloadHasUnblockedMirror asks containers/image which pull sources the
// payload reference has under the Image lists and digest mirrors, and
// whether any of them lies outside every blocked scope.
func payloadHasUnblockedMirror(payload reference.Named, blocked, insecure []string, digest []mergedSet, v Version) (bool, error) {
	regs, err := buildEntries(indexed(insecure), indexed(blocked), digest, nil)
	if err != nil {
		return false, err
	}
	conf := sysregistriesv2.V2RegistriesConf{Registries: regs}
	data, _, err := encodeConf(&conf, Newest)
	if err != nil {
		return false, err
	}

	// containers/image only reads registries.conf from a file. Each check
	// writes its own temporary file and removes it when done, so no
	// process leaves anything behind; one file (no directory) keeps that
	// as cheap as the old process-wide scratch directory. The file also
	// serves as the drop-in "directory": walking it visits only itself,
	// and its name does not end in ".conf", so no drop-in is read (an
	// unset path would read the host's /etc/containers/registries.conf.d).
	// The cache entry, keyed by the path, is dropped afterwards so the
	// cache does not grow with every render; invalidating the whole cache
	// is safe for other users, since a miss re-reads their file.
	f, err := os.CreateTemp("", "mirrorlint-payload-*.toml")
	if err != nil {
		return false, err
	}
	path := f.Name()
	defer func() {
		sysregistriesv2.InvalidateCache()
		os.Remove(path)
	}()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, err
	}
	ctx := &types.SystemContext{SystemRegistriesConfPath: path, SystemRegistriesConfDirPath: path}
	if _, err := sysregistriesv2.TryUpdatingCache(ctx); err != nil {
		return false, err
	}
	reg, err := sysregistriesv2.FindRegistry(ctx, payload.Name())
	if err != nil {
		return false, err
	}
	if reg == nil {
		// Cannot happen when a blocked scope contains the payload (the scope
		// has an entry); MCO would crash here. Count it as "no mirror".
		return false, nil
	}
	if !v.AtLeast(20) {
		reg = withVerbatimMirrors(reg, regs)
	}
	sources, err := reg.PullSourcesFromReference(payload)
	if err != nil {
		return false, err
	}
	for _, s := range sources {
		usable := true
		for _, b := range blocked {
			if scopes.IsNested(s.Reference.Name(), b) {
				usable = false
			}
		}
		if usable {
			return true, nil
		}
	}
	return false, nil
}

// indexed pairs each scope of an Image list with its index.
func indexed(l []string) []indexedScope {
	out := make([]indexedScope, len(l))
	for i, s := range l {
		out[i] = indexedScope{s, i}
	}
	return out
}

// withVerbatimMirrors returns a copy of reg whose mirror locations are the
// ones written to the scratch file, unnormalised. containers/image trims
// trailing slashes from mirror locations only since v5.35 (MCO 4.20+);
// the versions vendored by MCO 4.13–4.19 kept "m.io/x/" as written, so
// rewriting the payload reference through such a mirror failed ("rewriting
// reference: invalid reference format") and MCO fell back to no blocked and
// no allowed registries. Registry prefixes and locations were trimmed in
// every version. written are the entries of the scratch file; the one
// matching reg is found by its trimmed prefix (or location).
func withVerbatimMirrors(reg *sysregistriesv2.Registry, written []sysregistriesv2.Registry) *sysregistriesv2.Registry {
	for i := range written {
		w := &written[i]
		if strings.TrimRight(RegistryScope(w), "/") != reg.Prefix || len(w.Mirrors) != len(reg.Mirrors) {
			continue
		}
		c := *reg
		c.Mirrors = append([]sysregistriesv2.Endpoint(nil), reg.Mirrors...)
		for j := range c.Mirrors {
			c.Mirrors[j].Location = w.Mirrors[j].Location
		}
		return &c
	}
	return reg
}
