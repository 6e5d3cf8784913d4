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
	Doc:      doc("release-image-invalid"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
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
