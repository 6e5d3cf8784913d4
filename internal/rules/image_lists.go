package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// imageLists are the Image/cluster registry lists as written, with what the
// plan's payload rule kept of the blocked list (mco.Payload).
type imageLists struct {
	img      *manifest.Object
	insecure scopeList
	blocked  []int // indexes into the written blockedRegistries that MCO keeps
	// discarded is set when MCO ignores blocked and allowed entirely.
	discarded bool
	written   scopeList // blockedRegistries as written
	allowed   scopeList
}

func effectiveImageLists(c *check.Context) *imageLists {
	img, spec := imageCluster(c)
	if img == nil {
		return nil
	}
	rs := spec.RegistrySources
	return &imageLists{
		img:       img,
		insecure:  scopeList{"insecureRegistries", rs.InsecureRegistries},
		written:   scopeList{"blockedRegistries", rs.BlockedRegistries},
		allowed:   scopeList{"allowedRegistries", rs.AllowedRegistries},
		blocked:   c.Plan.Payload.Kept,
		discarded: c.Plan.Payload.Discarded,
	}
}

// hasScheme reports an http:// or https:// prefix, which containers/image
// refuses in any location.
func hasScheme(s string) bool {
	t := strings.TrimRight(s, "/")
	return strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://")
}
