package inputs

import (
	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// RuleAgentReleaseSource reports an agent-based install whose mirror list
// has no source for the release image's repository.
const RuleAgentReleaseSource = "agent-installer-release-source"

// defaultReleaseRepository is where an installer built by Red Hat takes
// its release from when no override names another.
const defaultReleaseRepository = "quay.io/openshift-release-dev/ocp-release"

// checkReleaseSource warns as `openshift-install agent create image` does
// (pkg/asset/agent/mirror RegistriesConf): once the directory has mirrors,
// one entry's source must be the release image's repository, compared as
// a string, or the ISO's registries.conf does not mirror the release.
// release is the cluster's release image ("" for the installer's own).
// The installer refuses both lists before it gets there.
func (ic *InstallConfig) checkReleaseSource(fs *findings, release string) {
	if !ic.Agent || (len(ic.Digest) > 0 && len(ic.Content) > 0) {
		return
	}
	list, key := ic.Digest, "imageDigestSources"
	if len(list) == 0 {
		list, key = ic.Content, "imageContentSources"
	}
	if len(list) == 0 {
		return
	}
	repo, pullSpec := defaultReleaseRepository, defaultReleaseRepository+":<version>"
	if release != "" {
		ref, err := reference.ParseNormalizedNamed(release)
		if err != nil {
			return
		}
		repo, pullSpec = ref.Name(), release
	}
	for _, ds := range list {
		if ds.Source == repo {
			return
		}
	}
	which := "the installer's own release"
	if release != "" {
		which = "the release image"
	}
	fs.add(ic.Object.LocateKey(manifest.Path{key}), check.Warning, RuleAgentReleaseSource, installer,
		"no %s source is %s, the repository of %s (openshift-install agent create image warns: The imageDigestSources configuration in install-config.yaml should have at least one source field matching the releaseImage value %s): the ISO's registries.conf has no entry for it, so the hosts pull the release straight from %s; add an entry with source %s and its mirrors (--release-image names another release)",
		key, repo, which, pullSpec, repo, repo)
}
