package main

import (
	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/project"
)

// Flags shared by the commands that load a tree.
var (
	releaseImageFlag = &cli.StringFlag{
		Name:    "release-image",
		Usage:   "the cluster's release payload `REF` (ClusterVersion status.desired.image); enables the payload rules MCO applies to blocked registries",
		EnvVars: []string{"MIRRORLINT_RELEASE_IMAGE"},
	}
	versionFlag = &cli.StringFlag{
		Name:    "openshift-version",
		Usage:   "target OpenShift release `4.MINOR[.PATCH]`: picks the registries.conf encoding and the version-dependent rules (default: the newest supported)",
		EnvVars: []string{"MIRRORLINT_OPENSHIFT_VERSION"},
	}
	configFlag = &cli.StringFlag{
		Name:  "config",
		Usage: "config `FILE` (default: .mirrorlint.yaml, looked up from the working directory upward; \"none\" to ignore it)",
	}
	clusterFlag = &cli.StringFlag{
		Name:  "cluster",
		Usage: "only the cluster `NAME`, when the tree holds several (see mirrorlint clusters)",
	}
	featureSetFlag = &cli.StringFlag{
		Name:    "feature-set",
		Usage:   "the cluster's feature set `NAME` (Default, TechPreviewNoUpgrade, DevPreviewNoUpgrade, CustomNoUpgrade); default: FeatureGate/cluster in the tree, else Default",
		EnvVars: []string{"MIRRORLINT_FEATURE_SET"},
	}
	noDefaultPolicyFlag = &cli.BoolFlag{
		Name:  "no-default-cluster-image-policy",
		Usage: "the cluster has no default \"openshift\" ClusterImagePolicy although its release installs one (HyperShift hosted clusters)",
	}
	maxFileSizeFlag = &cli.Int64Flag{
		Name:  "max-file-size",
		Usage: "skip (and report) manifest files larger than `BYTES`",
		Value: 8 << 20,
	}
)

func treeFlags() []cli.Flag {
	return []cli.Flag{releaseImageFlag, versionFlag, featureSetFlag, noDefaultPolicyFlag, configFlag, clusterFlag, maxFileSizeFlag}
}

func projectOptions(c *cli.Context) project.Options {
	return project.Options{
		Paths:            c.Args().Slice(),
		ConfigPath:       c.String(configFlag.Name),
		ReleaseImage:     c.String(releaseImageFlag.Name),
		OpenShiftVersion: c.String(versionFlag.Name),
		MaxFileSize:      c.Int64(maxFileSizeFlag.Name),
		Cluster:          c.String(clusterFlag.Name),
		Stdin:            c.App.Reader,
		FeatureSet:       c.String(featureSetFlag.Name),
		NoDefaultPolicy:  c.Bool(noDefaultPolicyFlag.Name),
	}
}
