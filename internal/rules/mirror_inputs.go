package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
	"github.com/mirrorlint/mirrorlint/render"
)

// The mirror inputs that are not mirror objects (install-config, the hub's
// mirror registries.conf, ZTP overrides, HostedCluster/NodePool) are read
// and checked once per cluster by package inputs; each rule here reports
// the findings of its id, at most at the severity the component gives
// them (a check that only warns on an older release stays a warning).
// A release the settings only assume is not given to the read: each input
// then is checked as the release it names, as the cluster it creates is.
var inputsMemo = check.NewMemo("rules.inputs", func(c *check.Context) *inputs.Result {
	v := c.Settings.Version
	if c.Settings.VersionAssumed {
		v = render.Version{}
	}
	return inputs.ReadRelease(c.Cluster.Objects, v, c.Settings.ReleaseImage)
})

func inputRule(id string, sev check.Severity, origin check.Origin, summary string) *check.Rule {
	return &check.Rule{
		ID:       id,
		Severity: sev,
		Origin:   origin,
		Summary:  summary,
		Doc:      doc(id),
		Reads:    inputs.Kinds,
		Check: func(p *check.Pass) {
			for _, f := range inputsMemo.Get(p.Context).Findings {
				if f.OfSpoke && p.Context.Settings.SpokesApart {
					continue
				}
				if f.Rule == id {
					r := p.ReportAt(f.Pos, "%s", f.Message).AtMost(f.Severity)
					if f.At.Line > 0 {
						r.Related = append(r.Related, check.Location{Position: f.At})
					}
				}
			}
		},
	}
}

// covering makes r's findings replace those of the rules named, at the
// same place: the same value seen through the object the input creates.
func covering(r *check.Rule, ids ...string) *check.Rule {
	r.Covers = ids
	return r
}

// inputRules are the rules of the mirror inputs, in All's order.
func inputRules() []*check.Rule {
	return []*check.Rule{
		installConfigMirrorFormat, installConfigBothLists, installConfigSourcePolicy, installConfigUnknownField, installConfigTrustBundlePolicy,
		hubMirrorConfigMap, installConfigOverridesJSON, installConfigOverridesUnknownField, installConfigOverridesValueType, siteLabels,
		nodePoolConfigType, nodePoolConfigConfigMap,
		installConfigDuplicateMirror, hostedClusterDuplicateMirror, hostedClusterGuestMirrorObject,
		installConfigConflictingPolicy,
		installConfigImageContentSources, agentInstallerReleaseSource, hubMirrorPrefixIgnored, hubMirrorNotForSpokes, hubMirrorV1Format,
		installConfigOverridesReplacesHub, installConfigOverridesInherits, releaseUnmodelled,
		agentClusterInstallDuplicatesSite,
	}
}
