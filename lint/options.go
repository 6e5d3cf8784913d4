package lint

import "time"

// Option configures a Linter when New compiles it: what every call lints
// with (the cluster's release and settings, the config file, the
// policies). What varies per call (the tree's root, a context directory,
// one cluster) is a CallOption.
type Option func(*options)

type options struct {
	releaseImage     string
	openShiftVersion string
	configFile       string
	policies         []string
	data             []string
	allowNet         bool
	policyTimeout    time.Duration
	policyMemory     int64
	maxFileSize      int64
	featureSet       string
	noDefaultPolicy  bool
	strict           bool
}

// WithReleaseImage sets the cluster's release payload (ClusterVersion
// status.desired.image). It enables the rules about what MCO does when a
// blocked registry holds the payload. It wins over the config file's
// releaseImage.
func WithReleaseImage(ref string) Option { return func(o *options) { o.releaseImage = ref } }

// WithOpenShiftVersion sets the target release, "4.16" or "4.16.30": the
// registries.conf encoding and the version-dependent rules. The default is
// the newest release mirrorlint models (render.Newest).
func WithOpenShiftVersion(v string) Option { return func(o *options) { o.openShiftVersion = v } }

// WithConfigFile reads a .mirrorlint.yaml file: rule severities, ignores,
// clusters, policies and data (relative to the file), release image and
// version. Without it no config file is read.
func WithConfigFile(path string) Option { return func(o *options) { o.configFile = path } }

// WithPolicies adds Rego policy directories (or .rego files) to those of
// the config file. The built-in policy library is always loaded.
func WithPolicies(dirs ...string) Option {
	return func(o *options) { o.policies = append(o.policies, dirs...) }
}

// WithData adds YAML or JSON data files for the policies.
func WithData(files ...string) Option {
	return func(o *options) { o.data = append(o.data, files...) }
}

// WithNetwork lets policies use the builtins that reach the network
// (http.send, net.lookup_ip_addr); runs are hermetic without it.
func WithNetwork() Option { return func(o *options) { o.allowNet = true } }

// WithPolicyTimeout bounds one policy evaluation (per cluster).
func WithPolicyTimeout(d time.Duration) Option { return func(o *options) { o.policyTimeout = d } }

// WithPolicyMemory stops a policy evaluation (per cluster) that grows the
// heap by more than n bytes; the default is 1 GiB. While policies
// evaluate, the process's GC memory limit (debug.SetMemoryLimit) is
// lowered to the budget and restored afterwards.
func WithPolicyMemory(n int64) Option { return func(o *options) { o.policyMemory = n } }

// WithMaxFileSize skips (and reports) manifest files larger than n bytes;
// the default is 8 MiB.
func WithMaxFileSize(n int64) Option { return func(o *options) { o.maxFileSize = n } }

// WithFeatureSet sets the cluster's feature set ("Default",
// "TechPreviewNoUpgrade", "DevPreviewNoUpgrade", "CustomNoUpgrade"), which
// decides which signature policy API a release serves and whether the
// default "openshift" ClusterImagePolicy exists before 4.21. Without it the
// tree's FeatureGate/cluster says, else Default.
func WithFeatureSet(name string) Option { return func(o *options) { o.featureSet = name } }

// WithoutDefaultClusterImagePolicy says the cluster has no default
// "openshift" ClusterImagePolicy although its release installs one
// (HyperShift hosted clusters).
func WithoutDefaultClusterImagePolicy() Option { return func(o *options) { o.noDefaultPolicy = true } }

// WithStrict turns an error inside a policy's builtin call (to_number("abc"))
// into an error of the run, at the call's position, instead of leaving the
// rule quietly undefined as Rego does.
func WithStrict() Option { return func(o *options) { o.strict = true } }

// CallOption configures one call of Lint or LintReader. A Linter compiled
// once lints any tree, root or cluster this way, without compiling its
// policies again.
type CallOption func(*call)

type call struct {
	cluster string
	context string
	root    string
}

// RootDir sets the repository's top level for this call: cluster names
// are paths from it ("overlays/prod-east" whatever the paths given to
// Lint), and the cluster layouts (clusters/<name>, sites/<name>...) are
// recognised from it. The command line passes the git top level (or the
// config file's directory, which wins when a config file is read). Without
// it, names are relative to the paths given.
func RootDir(dir string) CallOption { return func(c *call) { c.root = dir } }

// OnlyCluster lints only the cluster with this name (see Cluster.Name).
func OnlyCluster(name string) CallOption { return func(c *call) { c.cluster = name } }

// ContextDir loads the whole tree under dir, so that rules comparing
// objects see every object, but reports only findings touching the paths
// given to Lint, and lints only the clusters that read them: the way a
// commit hook checks the files of one commit. The paths must lie inside
// dir.
func ContextDir(dir string) CallOption { return func(c *call) { c.context = dir } }
