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
