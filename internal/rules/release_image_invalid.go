package rules

import (
	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var releaseImageInvalid = &check.Rule{
	ID:       "release-image-invalid",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "The release image given with --release-image (or releaseImage) is not a valid image reference.",
	Doc: `MCO parses the cluster's release image (ClusterVersion ` + "`status.desired.image`" + `) to keep
the payload repository pullable when it applies ` + "`blockedRegistries`" + `. If the reference does
not parse, MCO gives up with ` + "`error parsing reference of release image`" + ` and renders
nothing. A real cluster always has a valid value, so this almost always means the
` + "`--release-image`" + ` flag or the ` + "`releaseImage`" + ` config key is mistyped: upper case in the
repository, a truncated digest, a scheme. The payload rules cannot run until it is fixed.

` + "```" + `
--release-image quay.io/openshift-release-dev/ocp-release@sha256:<64 hex digits>
` + "```",
	Check: func(c *check.Context) {
		ri := c.Settings.ReleaseImage
		if ri == "" {
			return
		}
		if _, err := reference.ParseNamed(ri); err != nil {
			// The value comes from a flag, the environment or the config,
			// not from a manifest: the finding has no file position.
			c.ReportAt(manifest.Position{},
				"error parsing reference of release image %q: %v; MCO would refuse to render (fix --release-image, $MIRRORLINT_RELEASE_IMAGE, or releaseImage in .mirrorlint.yaml or its clusters: entry)", ri, err)
		}
	},
}
