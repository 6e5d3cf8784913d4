package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/shard"
)

// Flag names. The flags themselves are built anew for every app (see
// commands): urfave/cli writes an environment value and the parsed value
// into the flag it is given, so a flag shared between runs in one process
// would carry one run's $MIRRORLINT_* value into the next.
const (
	allowNetName        = "allow-net"
	clusterName         = "cluster"
	configName          = "config"
	contextName         = "context"
	dataName            = "data"
	featureSetName      = "feature-set"
	maxFileSizeName     = "max-file-size"
	noCacheName         = "no-cache"
	noDefaultPolicyName = "no-default-cluster-image-policy"
	policyName          = "policy"
	policyMemoryName    = "policy-memory"
	policyTimeoutName   = "policy-timeout"
	releaseImageName    = "release-image"
	shardName           = "shard"
	strictName          = "strict"
	summaryName         = "summary"
	versionName         = "openshift-version"
)

// hasFlag reports whether the running command defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}

// The flags shared by the commands that load a tree.

func releaseImageFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:    releaseImageName,
		Usage:   "the cluster's release payload `REF` (ClusterVersion status.desired.image); enables the payload rules MCO applies to blocked registries",
		EnvVars: []string{"MIRRORLINT_RELEASE_IMAGE"},
	}
}

func versionFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:    versionName,
		Usage:   "target OpenShift release `4.MINOR[.PATCH]`: picks the registries.conf encoding and the version-dependent rules (default: the newest supported)",
		EnvVars: []string{"MIRRORLINT_OPENSHIFT_VERSION"},
	}
}

func configFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  configName,
		Usage: "config `FILE` (default: .mirrorlint.yaml, looked up from the working directory upward; \"none\" to ignore it)",
	}
}

func clusterFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  clusterName,
		Usage: "only the cluster `NAME`, when the tree holds several (see mirrorlint clusters): its full name, or the end of only one cluster's (sno1 for ztp-spoke/sno1); . for the unnamed one",
	}
}

func featureSetFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:    featureSetName,
		Usage:   "the cluster's feature set `NAME` (Default, TechPreviewNoUpgrade, DevPreviewNoUpgrade, CustomNoUpgrade); default: FeatureGate/cluster in the tree, else Default",
		EnvVars: []string{"MIRRORLINT_FEATURE_SET"},
	}
}

func noDefaultPolicyFlag() *cli.BoolFlag {
	return &cli.BoolFlag{
		Name:  noDefaultPolicyName,
		Usage: "the cluster has no default \"openshift\" ClusterImagePolicy although its release installs one (HyperShift hosted clusters)",
	}
}

func maxFileSizeFlag() *cli.Int64Flag {
	return &cli.Int64Flag{
		Name:  maxFileSizeName,
		Usage: "skip (and report) manifest files larger than `BYTES`",
		Value: safefs.DefaultMaxFileSize,
	}
}

// shardFlag splits the clusters between the jobs of a CI matrix.
func shardFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  shardName,
		Usage: "only the clusters of shard `K/N` (1 ≤ K ≤ N): a stable part chosen by a hash of each cluster's name, so that N CI jobs together check every cluster once",
	}
}

// checkShardFlag refuses a malformed --shard before anything is read.
func checkShardFlag(c *cli.Context) error {
	if !hasFlag(c, shardName) {
		return nil
	}
	if _, err := shard.Parse(c.String(shardName)); err != nil {
		return &project.UsageError{Err: err}
	}
	return nil
}

// shardOf is the --shard value, checked by checkShardFlag.
func shardOf(c *cli.Context) shard.Shard {
	s, _ := shard.Parse(c.String(shardName))
	return s
}

func treeFlags() []cli.Flag {
	return []cli.Flag{releaseImageFlag(), versionFlag(), featureSetFlag(), noDefaultPolicyFlag(), configFlag(), clusterFlag(), maxFileSizeFlag()}
}

// projectOptions is the run the command line describes in the repository
// whose top level is top (gitTopLevel, asked once by each command: ""
// outside a repository).
func projectOptions(c *cli.Context, top string) project.Options {
	return projectOptionsFor(c, c.Args().Slice(), top)
}

// projectOptionsFor is projectOptions reading the path arguments args.
func projectOptionsFor(c *cli.Context, args []string, top string) project.Options {
	paths, stream := input(c, args)
	repo := repositoryAt(top)
	return project.Options{
		Access:           accessRootAt(c, repo),
		Repository:       repo,
		Paths:            paths,
		Stream:           stream,
		ConfigPath:       c.String(configName),
		ReleaseImage:     c.String(releaseImageName),
		OpenShiftVersion: c.String(versionName),
		MaxFileSize:      c.Int64(maxFileSizeName),
		Cluster:          c.String(clusterName),
		Shard:            shardOf(c),
		FeatureSet:       c.String(featureSetName),
		NoDefaultPolicy:  c.Bool(noDefaultPolicyName),
	}
}

// repositoryAt is the repository's top directory, top (the git top
// level), else the working directory: what a config found in the tree may
// not reach out of, and what a run may read (accessRootAt).
func repositoryAt(top string) string {
	if top != "" {
		return top
	}
	wd, _ := os.Getwd()
	return wd
}

// objectBudget is the objects a run keeps, safefs.DefaultObjectBudget. It
// is a variable only so that the command's tests can reach it with a tree
// of a few files: no flag, config key or environment variable sets it, so
// nothing a repository holds can raise it.
var objectBudget = safefs.DefaultObjectBudget

// accessRootAt is what a run may read: the repository at top, the paths
// the command line names, a config file named with --config and what it
// names, under --max-file-size per file and the run's byte budget.
// Nothing a tree contains can widen it.
func accessRootAt(c *cli.Context, top string) *safefs.Root {
	r := safefs.New(c.Int64(maxFileSizeName), top)
	r.Budget = &safefs.Budget{Max: safefs.DefaultBudget, MaxObjects: objectBudget, Memory: safefs.DefaultMemory}
	r.Allow(c.Args().Slice()...)
	if p := c.String(configName); p != "" && p != "none" {
		r.Allow(p)
	}
	// Directories and files named by flags: the --context a pre-commit
	// check reads, policy directories and data files.
	for _, f := range c.Command.Flags {
		switch name := f.Names()[0]; name {
		case "context":
			if v := c.String(name); v != "none" {
				r.Allow(v)
			}
		case "policy", "data":
			r.Allow(c.StringSlice(name)...)
		}
	}
	return r
}

// stdinArg is the path argument that names the stream on standard input.
const stdinArg = "-"

// input is what path arguments name: the files and directories, or for a
// lone "-" the stream on standard input. It is the one place "-" means
// standard input; everything below reads Paths or a Stream.
func input(c *cli.Context, args []string) (paths []string, stream io.Reader) {
	if len(args) == 1 && args[0] == stdinArg {
		return nil, c.App.Reader
	}
	return args, nil
}

// errBaseStream refuses --base for a stream: there is no tree to check out.
var errBaseStream = errors.New("--base cannot be combined with standard input")

// stdinAlone refuses "-" (a stream on standard input) next to other paths:
// a run reads either a stream or trees, and silently dropping one of them
// would pass a check that looked at nothing.
func stdinAlone(c *cli.Context) error {
	paths := c.Args().Slice()
	if c.Command.Name == "resolve" && len(paths) > 0 {
		paths = paths[1:] // IMAGE [PATH...]
	}
	if len(paths) > 1 && slices.Contains(paths, stdinArg) {
		return &project.UsageError{Err: fmt.Errorf(`"-" (standard input) cannot be combined with other paths (%s): lint the stream and the trees in separate runs`,
			strings.Join(slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == stdinArg }), " "))}
	}
	return nil
}

// checkReleaseImageFlag refuses a --release-image (or
// $MIRRORLINT_RELEASE_IMAGE) that cannot be an image reference at all: a
// space, a quote or a scheme is a mistake on the command line, not a value a
// cluster's ClusterVersion could hold. A reference-shaped value that MCO's
// parser still rejects (upper case in the repository, a truncated digest)
// is left to the rules, which report MCO's refusal as the cluster would
// meet it.
func checkReleaseImageFlag(c *cli.Context) error {
	if !hasFlag(c, releaseImageName) {
		return nil
	}
	if ref := c.String(releaseImageName); ref != "" && !referenceShaped(ref) {
		return &project.UsageError{Err: fmt.Errorf("--release-image %q is not an image reference (want e.g. quay.io/openshift-release-dev/ocp-release@sha256:<64 hex digits>)", ref)}
	}
	return nil
}

// referenceShaped reports whether s holds only characters an image
// reference can (letters of either case, digits, ".", "_", "-", ":", "/",
// "@", "+" for a digest algorithm) and no scheme.
func referenceShaped(s string) bool {
	if strings.Contains(s, "://") {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("._-:/@+", r):
		default:
			return false
		}
	}
	return true
}
