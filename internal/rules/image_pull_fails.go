package rules

import (
	"fmt"
	"strings"

	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/resolve"
)

// ImagePullFailsID is the id of the rule about workload images; loading
// keeps the image fields of workloads only while it is enabled.
const ImagePullFailsID = "image-pull-fails"

var imagePullFails = &check.Rule{
	ID:       ImagePullFailsID,
	Severity: check.Error,
	Origin:   check.OriginNode,
	Summary:  "An image a workload, CatalogSource or ClusterCatalog pulls cannot be served by the rendered registries.conf and policy.json.",
	Doc:      doc("image-pull-fails"),
	Reads:    withWorkloads,
	// Each workload's images are judged against the render alone; the
	// finding sits on the image and names the mirror entry or Image list
	// that blocks it.
	Judges: manifest.ImageKinds(),
	Check: func(c *check.Pass) {
		if c.Rendered == nil {
			return // MCO refuses: the nodes keep an older configuration, nothing to judge against
		}
		var refs []workloadImage
		for _, o := range c.Unmodelled() {
			for _, r := range o.Images() {
				refs = append(refs, workloadImage{o, r})
			}
		}
		if len(refs) == 0 {
			return
		}
		cfg, err := resolve.LoadDecoded(c.Rendered.NodeRegistriesConf(), c.Registries(), c.Rendered.NodeSearchRegistriesConf(), c.Rendered.NodePolicyJSON())
		if err != nil {
			return // the renderer's own output always loads; nothing sensible to say otherwise
		}
		defer cfg.Close()
		verdicts := map[string]*pullVerdict{}
		for _, w := range refs {
			v, ok := verdicts[w.ref.Image]
			if !ok {
				v = judgePull(cfg, w.ref.Image)
				verdicts[w.ref.Image] = v
			}
			if v == nil {
				continue
			}
			f := c.Report(w.obj, w.ref.Path, "%s cannot be pulled on this cluster's nodes: %s", w.ref.Image, v.why)
			v.relate(c, f)
		}
	},
}

type workloadImage struct {
	obj *manifest.Object
	ref manifest.ImageRef
}

// pullVerdict is why a reference cannot be pulled, and what causes it.
type pullVerdict struct {
	why string
	// blockedScope is the registries.conf entry or policy scope that
	// blocks; allowed is set when allowedRegistries leaves it out.
	blockedScope string
	allowed      bool
}

// judgePull resolves one reference; nil when it can be pulled (or is not
// judged: a short name, a placeholder, an unparsable reference).
func judgePull(cfg *resolve.Config, image string) *pullVerdict {
	// A tag beside a digest is dropped: the digest is what is pulled.
	named, _, err := resolve.Parse(image)
	if err != nil || resolve.IsShortName(image) {
		return nil
	}
	if scope, rejects := cfg.PolicyRejectsNamed(named); rejects {
		if scope == "" {
			return &pullVerdict{allowed: true, why: fmt.Sprintf("policy.json rejects every image outside allowedRegistries, and none of them covers %s", reference.Domain(named))}
		}
		return &pullVerdict{blockedScope: scope, why: fmt.Sprintf("policy.json rejects %q (blockedRegistries), and the policy is checked against the reference the pod names, so no mirror can serve it either", scope)}
	}
	res, err := cfg.ResolveNamed(named)
	if err != nil || !res.Fails {
		return nil
	}
	v := &pullVerdict{}
	var skipped []string
	for _, s := range res.Sources {
		if s.Skipped {
			skipped = append(skipped, s.Location)
		}
	}
	kind := "by-tag"
	other := "an ImageTagMirrorSet entry"
	if res.ByDigest {
		kind, other = "by-digest", "an ImageDigestMirrorSet entry"
	}
	prefix := ""
	if res.Entry != nil {
		prefix = res.Entry.Prefix
		if prefix == "" {
			prefix = res.Entry.Location
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "it is a %s pull", kind)
	if len(skipped) > 0 {
		mirrorKind := "digest-only"
		if res.ByDigest {
			mirrorKind = "tag-only"
		}
		fmt.Fprintf(&b, ", which skips the %s mirrors of %q (%s)", mirrorKind, prefix, quoteList(skipped, 3))
	}
	for _, s := range res.Sources {
		if s.Kind == "primary" && s.Blocked {
			v.blockedScope = s.BlockedBy
			fmt.Fprintf(&b, ", and the source %s is blocked (never contacted)", s.Location)
		}
	}
	fmt.Fprintf(&b, "; pull it by %s, add %s for the source, or allow contacting it", map[bool]string{true: "tag", false: "digest"}[res.ByDigest], other)
	v.why = b.String()
	return v
}

// relate adds the objects that cause the verdict: the NeverContactSource
// entries of the blocked source, the Image blocked or allowed list.
func (v *pullVerdict) relate(c *check.Pass, f *check.Finding) {
	if v.blockedScope != "" {
		for _, e := range mirrorEntries(c.Context) {
			if e.source == v.blockedScope && e.never() {
				f.Also(e.obj, e.policyPath())
				return
			}
		}
	}
	img, spec := imageCluster(c.Context)
	if img == nil {
		return
	}
	rs := spec.RegistrySources
	if v.allowed {
		f.Also(img, manifest.Path{"spec", "registrySources", "allowedRegistries"})
		return
	}
	for i, b := range rs.BlockedRegistries {
		if b == v.blockedScope {
			f.Also(img, scopeList{"blockedRegistries", rs.BlockedRegistries}.path(i))
			return
		}
	}
}
