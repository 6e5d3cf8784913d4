package pipeline

import (
	"fmt"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/impact"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// CheckoutBase extracts the repository the working directory is in at rev
// for a comparison (lint --base, diff --base): paths (as the user typed
// them; none means ".") at rev, the config as it was there (cfg read from
// its place in the copy), and root (the directory the new side's cluster
// names are relative to, the repository's top level) in the copy, so that
// both sides name their clusters alike. Close removes the copy.
func CheckoutBase(rev string, paths []string, root string, cfg *config.Config) (*Base, error) {
	snap, err := gitrev.Checkout(rev, paths)
	if err != nil {
		if strings.HasPrefix(err.Error(), "--base") {
			return nil, usage("%v", err)
		}
		return nil, usage("--base %s: %v", rev, err)
	}
	b := &Base{Rev: rev, Paths: snap.Paths, Roots: snap.Roots, Name: snap.Name, NewFile: snap.WorkTree, Dir: snap.Dir, snap: snap}
	if root != "" {
		if at, ok := snap.InCopy(root); ok {
			b.Root = at
		}
	}
	if b.Config, err = configAt(snap, cfg); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// Missing are the paths given to CheckoutBase that did not exist at the
// revision (a tree the change adds).
func (b *Base) Missing() []string {
	if b == nil || b.snap == nil {
		return nil
	}
	return b.snap.Missing
}

// Absent are the files of the base whose object the local repository
// lacks, each with the message for the cluster reading it: it is not
// compared, since the file was extracted empty and comparing against that
// would judge a change nobody made.
func (b *Base) Absent() map[string]string {
	if b == nil || b.snap == nil || len(b.snap.Absent) == 0 {
		return nil
	}
	msg := fmt.Sprintf("git has no content for this file at %s: its object is missing from the local clone (a --filter partial clone whose remote was not reached, or a damaged repository); "+
		"fetch it (git fetch --refetch origin, or git fetch --unshallow in a shallow clone) and run again. The cluster is not compared", b.Rev)
	out := map[string]string{}
	for _, f := range b.snap.Absent {
		out[f] = msg
	}
	return out
}

// InBase maps a path of the working tree to the same path in the base
// tree; false when there is none (a path outside the repository, or a
// Base that CheckoutBase did not make).
func (b *Base) InBase(p string) (string, bool) {
	if b == nil || b.snap == nil {
		return "", false
	}
	return b.snap.InCopy(p)
}

// Close removes the copy CheckoutBase made.
func (b *Base) Close() {
	if b != nil && b.snap != nil {
		b.snap.Close()
	}
}

// configAt is the config file as it was at the snapshot's revision (or the
// current one, read from its place in the snapshot), so that declared
// clusters are read from the base tree.
func configAt(snap *gitrev.Snapshot, cfg *config.Config) (*config.Config, error) {
	if cfg == nil || cfg.Path == "" {
		return cfg, nil
	}
	at, ok := snap.InCopy(cfg.Path)
	if !ok {
		return cfg, nil // a config outside the repository reads the same either way
	}
	old, err := impact.ConfigAt(cfg, at, snap.Dir)
	if err != nil {
		return nil, usage("--base %s: %v", snap.Rev, err)
	}
	return old, nil
}

// Refusals are the settings refused from the config as it was at the
// revision (impact.ConfigAt distrusts it as the working tree's), one error
// finding each: on cfg's file, the working tree's config, whose place the
// old file had, with its line at the revision in the message, never the
// temporary copy's path.
func (b *Base) Refusals(cfg *config.Config) []check.Finding {
	if b == nil || b.Config == nil || cfg == nil || b.Config == cfg {
		return nil
	}
	var out []check.Finding
	for _, r := range b.Config.Refused {
		out = append(out, check.Finding{
			Rule: check.ProblemRule.ID, Severity: check.Error,
			Message: fmt.Sprintf("as it was at %s, line %d: %s (use %s); refused from a config committed to the repository — a pull request could have set it. Pass the matching flag, or name the config with --config",
				b.Rev, r.Line, r.What, r.Remedy),
			Position: manifest.Position{File: cfg.Path},
		})
	}
	return out
}

// pairing is how the clusters of the base and of the tree pair: by name
// when both sides name them from corresponding roots, else by name
// relative to the arguments (newRoots the tree's, b.Roots the base's).
func pairing(b *Base, newRoots []string, old impact.Old) impact.Options {
	if b.Root != "" {
		return impact.Options{Old: old}
	}
	roots := b.Roots
	if roots == nil {
		roots = b.Paths
	}
	return impact.Options{OldRoots: roots, NewRoots: newRoots, Old: old}
}
