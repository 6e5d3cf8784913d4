package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

func clustersCommand() *cli.Command {
	return &cli.Command{
		Name:      "clusters",
		Usage:     "list the clusters found under PATH and why each one is a cluster",
		ArgsUsage: "[PATH]",
		Description: `Every other command lints and renders each cluster on its own. Clusters are, in
order of precedence: those declared in .mirrorlint.yaml (clusters: [{name, paths}]);
otherwise every top-level kustomization (one no other kustomization references),
plus the files no kustomization reaches, grouped by where they are: each directory
under clusters/, overlays/, sites/, environments/ or envs/ is one cluster with its
subdirectories, every other top-level directory is one cluster named after it
(.tekton, telco-ran), and the files at the top of the tree are one more (.); loose
files of different top-level directories are never compared. A tree with no
kustomization and no layout directory is one cluster. A file lying in a
kustomization's directory that the kustomization does not list is in no cluster
(kustomize does not apply it) and is reported; a ClusterInstance, SiteConfig or
HostedCluster in it creates no cluster either, while an install-config.yaml
there, which openshift-install reads from its directory, still does. Files given
one by one are one cluster. Names are paths relative to the repository's top
level (or the config file's directory).

For each cluster this prints why it exists, the paths it is made of, its mirror
objects, how many files it reads, its settings and any problem found without
building (a kustomization that does not parse, an entry that is missing or remote).
Kustomizations are not built here, so the objects are counted as written in the files
each cluster reads; --build builds them and reports build failures too.

When one top-level directory's loose files are one cluster although its directories
disagree (an object written differently, a source with different mirrorSourcePolicy
values), a note on stderr says so, shows the clusters: entry that would split it and,
since declared clusters replace the ones found, how many other clusters to declare too.

Exit codes: 0 listed (even with problems); 2 usage error.

Examples:
  mirrorlint clusters
  mirrorlint clusters --format json gitops/`,
		Flags: append(treeFlags(), &cli.StringFlag{
			Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json",
		}, shardFlag(), &cli.BoolFlag{
			Name: "build", Usage: "also build every kustomization and report the ones that fail",
		}),
		Action: runClusters,
	}
}

// clusterInfo is one cluster as `clusters --format json` prints it.
type clusterInfo struct {
	Name             string         `json:"name"`
	Source           string         `json:"source"`
	Reason           string         `json:"reason"`
	Paths            []string       `json:"paths"`
	Inputs           []string       `json:"inputs"`
	Objects          int            `json:"objects"`
	Kinds            map[string]int `json:"kinds"`
	OpenShiftVersion string         `json:"openshiftVersion"`
	ReleaseImage     string         `json:"releaseImage,omitempty"`
	FeatureSet       string         `json:"featureSet"`
	// DefaultPolicy says whether the default "openshift"
	// ClusterImagePolicy is assumed, and why (omitted when the release
	// installs none).
	DefaultPolicy *defaultPolicyInfo `json:"defaultClusterImagePolicy,omitempty"`
	// Labels and Policies are a ZTP site's ManagedCluster labels and the
	// policies they bind it to (omitted for other clusters); HubLabels the
	// labels whose values only the hub knows (ACM sets them at import) and
	// Undecided the policies whose bindings select on them, which cannot
	// be evaluated offline.
	Labels    map[string]string  `json:"labels,omitempty"`
	HubLabels []string           `json:"hubLabels,omitempty"`
	Policies  []grantInfo        `json:"policies,omitempty"`
	Undecided []undecidedInfo    `json:"undecided,omitempty"`
	Problems  []manifest.Problem `json:"problems"`
	// Stopped says why the nodes get nothing from the cluster's input (a
	// component refuses it before MCO runs), "file:line:col: why".
	Stopped string `json:"stopped,omitempty"`
}

// undecidedInfo is a policy whose binding selects a site or not by labels
// only the hub knows: the binding, where it is written, and the
// requirements the hub decides.
type undecidedInfo struct {
	Policy   string   `json:"policy"`
	Selector string   `json:"selector"`
	At       string   `json:"at"`
	Open     []string `json:"open"`
}

// grantInfo is one policy a site gets: its binding, where it is written,
// and the site's labels that satisfy it.
type grantInfo struct {
	Policy   string   `json:"policy"`
	Selector string   `json:"selector"`
	At       string   `json:"at"`
	Because  []string `json:"because"`
}

type defaultPolicyInfo struct {
	Assumed bool   `json:"assumed"`
	Note    string `json:"note"`
}

func runClusters(c *cli.Context) error {
	format := c.String("format")
	if format != "text" && format != "json" {
		return &project.UsageError{Err: fmt.Errorf("--format %q: want text or json", format)}
	}
	if c.NArg() > 1 {
		return &project.UsageError{Err: fmt.Errorf("clusters takes at most one PATH")}
	}
	top := gitTopLevel()
	opts := projectOptions(c, top)
	opts.Static = !c.Bool("build")
	opts.Root = top
	opts.Files = gitFiles(c, opts.Root, false, nil)
	p, err := project.Open(opts)
	if err != nil {
		return err
	}
	warnRefusedConfig(c, p.Config)
	warnIfEmpty(c, p)
	var infos []clusterInfo
	for i := range p.Clusters {
		infos = append(infos, describe(p, i))
	}
	if format == "json" {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		notices := p.Notices()
		if notices == nil {
			notices = []string{}
		}
		return enc.Encode(struct {
			Clusters []clusterInfo `json:"clusters"`
			Notices  []string      `json:"notices"`
		}{infos, notices})
	}
	writeClusters(c.App.Writer, infos)
	return nil
}

// describe is the listing of the project's i-th cluster.
func describe(p *project.Project, i int) clusterInfo {
	cl := p.Clusters[i]
	ci := clusterInfo{Name: cl.Name, Objects: len(cl.Objects), Kinds: map[string]int{},
		OpenShiftVersion: cl.Settings.Version.String(), ReleaseImage: cl.Settings.ReleaseImage,
		Problems: cl.Problems, Inputs: []string{}, Paths: []string{}}
	if ci.Problems == nil {
		ci.Problems = []manifest.Problem{}
	}
	in := check.BuildInput(cl.Objects, cl.Settings)
	ci.FeatureSet = in.FeatureSet
	if in.DefaultPolicyNote != "" {
		ci.DefaultPolicy = &defaultPolicyInfo{Assumed: in.DefaultPolicy, Note: in.DefaultPolicyNote}
	}
	for _, o := range cl.Objects {
		ci.Kinds[string(o.Kind)]++
	}
	ci.Source, ci.Reason = string(cl.Source), cl.Reason
	if cl.Stopped != nil {
		ci.Stopped = where(cl.Stopped.Pos) + ": " + cl.Stopped.Reason
	}
	ci.Paths = append(ci.Paths, cl.Paths...)
	ci.Inputs = append(ci.Inputs, cl.Inputs...)
	if note := p.Unplaced(cl); note != "" {
		ci.Reason += "; " + note
	}
	if c := p.Created(cl); c != nil {
		reason := c.Reason()
		extra := p.ExtraManifests(cl)
		if extra != nil && len(extra.From) > 0 {
			reason += "; and its extra manifests: " + strings.Join(extra.From, ", ")
		}
		ci.Source, ci.Reason = "input", reason
		ci.Paths = append([]string{c.From.File}, ci.Paths...)
		if f := p.Fleet(cl); f != nil {
			ci.Labels, ci.HubLabels = f.Site.Labels, f.Site.HubLabels
			for _, u := range f.Undecided {
				ci.Undecided = append(ci.Undecided, undecidedInfo{Policy: u.Policy, Selector: u.Selector, At: u.At.String(), Open: u.Open})
			}
			ci.Reason += "; and the objects of the policies its labels bind it to"
			if len(f.Grants) == 0 {
				ci.Reason = reason + "; no policy of the tree is bound to its labels"
			}
			ci.Policies = []grantInfo{}
			for _, g := range f.Grants {
				because := g.Because
				if because == nil {
					because = []string{}
				}
				ci.Policies = append(ci.Policies, grantInfo{Policy: g.Policy, Selector: g.Selector, At: g.At.String(), Because: because})
			}
		}
		seen := map[string]bool{}
		for _, o := range c.Inputs {
			if !seen[o.File] {
				seen[o.File] = true
				ci.Inputs = append(ci.Inputs, o.File)
			}
		}
		if extra != nil {
			for _, f := range extra.Files {
				if !seen[f] {
					seen[f] = true
					ci.Inputs = append(ci.Inputs, f)
				}
			}
		}
	}
	return ci
}

func writeClusters(w io.Writer, infos []clusterInfo) {
	fmt.Fprintf(w, "%d cluster%s\n", len(infos), plural(len(infos)))
	for _, ci := range infos {
		name := ci.Name
		if name == "" {
			name = "(unnamed: the whole input)"
		}
		fmt.Fprintf(w, "\n%s\n", name)
		fmt.Fprintf(w, "  source:   %s: %s\n", ci.Source, ci.Reason)
		fmt.Fprintf(w, "  paths:    %s\n", strings.Join(ci.Paths, ", "))
		fmt.Fprintf(w, "  objects:  %d%s\n", ci.Objects, kindList(ci.Kinds))
		fmt.Fprintf(w, "  inputs:   %d file%s\n", len(ci.Inputs), plural(len(ci.Inputs)))
		settings := "openshift " + ci.OpenShiftVersion
		if ci.ReleaseImage != "" {
			settings += ", release image " + ci.ReleaseImage
		}
		if ci.FeatureSet != check.FeatureSetDefault {
			settings += ", feature set " + ci.FeatureSet
		}
		fmt.Fprintf(w, "  settings: %s\n", settings)
		if ci.DefaultPolicy != nil {
			fmt.Fprintf(w, "  policy:   %s\n", ci.DefaultPolicy.Note)
		}
		if ci.Stopped != "" {
			fmt.Fprintf(w, "  stopped:  %s\n", ci.Stopped)
		}
		if ci.Policies != nil {
			writeGrants(w, ci)
		}
		if len(ci.Problems) == 0 {
			continue
		}
		fmt.Fprintf(w, "  problems: %d\n", len(ci.Problems))
		for _, pr := range ci.Problems {
			fmt.Fprintf(w, "    %s\n", pr)
		}
	}
}

func kindList(kinds map[string]int) string {
	if len(kinds) == 0 {
		return ""
	}
	names := slices.Sorted(maps.Keys(kinds))
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%d %s", kinds[k], k)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// writeGrants lists a site's labels and the policies they bind it to.
func writeGrants(w io.Writer, ci clusterInfo) {
	var labels []string
	for _, k := range slices.Sorted(maps.Keys(ci.Labels)) {
		if v := ci.Labels[k]; v == "" {
			labels = append(labels, k+`=""`)
		} else {
			labels = append(labels, k+"="+v)
		}
	}
	if len(labels) == 0 {
		labels = []string{"none"}
	}
	hub := ""
	if len(ci.HubLabels) > 0 {
		hub = "; set at import from the cluster, values known to the hub only: " + strings.Join(ci.HubLabels, ", ")
	}
	fmt.Fprintf(w, "  labels:   %s%s\n", strings.Join(labels, ", "), hub)
	fmt.Fprintf(w, "  policies: %d\n", len(ci.Policies))
	for _, g := range ci.Policies {
		why := "every cluster gets it"
		if len(g.Because) > 0 {
			why = "the site has " + strings.Join(g.Because, ", ")
		}
		fmt.Fprintf(w, "    %s: bound to %s (%s): %s\n", g.Policy, g.Selector, g.At, why)
	}
	if len(ci.Undecided) == 0 {
		return
	}
	fmt.Fprintf(w, "  undecided: %d (not linted with the site)\n", len(ci.Undecided))
	for _, u := range ci.Undecided {
		fmt.Fprintf(w, "    %s: bound to %s (%s): cannot be evaluated offline: %s selects on a label whose value ACM sets at import from the cluster; only the hub knows whether the site gets it\n",
			u.Policy, u.Selector, u.At, strings.Join(u.Open, ", "))
	}
}
