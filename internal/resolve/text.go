package resolve

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints r for people: the matched entry, then one line per
// source in pull order, skipped mirrors in place and marked.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	kind := "by tag"
	if r.ByDigest {
		kind = "by digest"
	}
	fmt.Fprintf(&b, "%s (%s)\n", r.Reference, kind)
	if r.Entry == nil {
		b.WriteString("registry entry: none matches\n")
	} else {
		fmt.Fprintf(&b, "registry entry: prefix %q location %q%s\n", r.Entry.Prefix, r.Entry.Location, flags(r.Entry))
	}
	for _, s := range r.Sources {
		num := "  -"
		if !s.Skipped {
			num = fmt.Sprintf("%3d", s.Order)
		}
		fmt.Fprintf(&b, "%s. %-7s %s", num, s.Kind, s.Reference)
		var tags []string
		if s.PullFromMirror != "" {
			tags = append(tags, s.PullFromMirror)
		}
		if s.Insecure {
			tags = append(tags, "insecure")
		}
		if s.Blocked {
			tags = append(tags, fmt.Sprintf("BLOCKED by %q: never contacted", s.BlockedBy))
		}
		if s.Skipped {
			tags = append(tags, "skipped: "+s.SkipReason)
		}
		if len(tags) > 0 {
			fmt.Fprintf(&b, "  [%s]", strings.Join(tags, "; "))
		}
		b.WriteByte('\n')
	}
	if sg := r.Signature; sg != nil {
		scope := "scope " + sg.Scope
		if sg.Default {
			scope = "default"
		}
		var reqs []string
		for _, q := range sg.Requirements {
			d := q.Type
			var extra []string
			if q.Trust != "" {
				extra = append(extra, q.Trust)
			}
			if q.SignedIdentity != "" {
				extra = append(extra, "identity "+q.SignedIdentity)
			}
			if len(extra) > 0 {
				d += " (" + strings.Join(extra, ", ") + ")"
			}
			reqs = append(reqs, d)
		}
		fmt.Fprintf(&b, "signature policy: %s, %s: %s\n", sg.PolicyFile, scope, strings.Join(reqs, " AND "))
		for _, l := range sg.Lookups {
			switch {
			case l.Attachments && l.Tag != "":
				fmt.Fprintf(&b, "  sigstore attachment looked up in %s as tag %s (registries.d %s)\n", l.Reference, l.Tag, l.Namespace)
			case l.Attachments:
				fmt.Fprintf(&b, "  sigstore attachments looked up in %s (registries.d %s)\n", l.Reference, l.Namespace)
			default:
				fmt.Fprintf(&b, "  no sigstore attachments read from %s\n", l.Reference)
			}
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func flags(e *Entry) string {
	var f []string
	if e.Blocked {
		f = append(f, "blocked")
	}
	if e.Insecure {
		f = append(f, "insecure")
	}
	if e.MirrorByDigestOnly {
		f = append(f, "mirror-by-digest-only")
	}
	if len(f) == 0 {
		return ""
	}
	return " (" + strings.Join(f, ", ") + ")"
}
