package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/inputs"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/textdiff"
)

func renderCommand() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "print the /etc/containers/registries.conf the nodes would get",
		ArgsUsage: "[PATH...]",
		Description: `Renders the registries.conf that the Machine Config Operator writes to every node,
byte for byte, from the mirror objects and Image/cluster found under PATH (default .;
"-" reads a stream from stdin).

When the tree holds no Image object, the cluster's Image/cluster is taken to exist with
an empty spec (every cluster has one). When MCO would write nothing, the node keeps the
template file, and that is what is printed.

With -o DIR, writes DIR/registries.conf and, when MCO writes them, DIR/policy.json,
DIR/registries.conf.d/01-image-searchRegistries.conf,
DIR/registries.d/sigstore-registries.yaml and DIR/crio/policies/<namespace>.json (for
/etc/crio/policies); such a file left from an earlier run is removed, so DIR always
mirrors what MCO writes to the node (the signature files come from the
ClusterImagePolicy and ImagePolicy objects). A tree with several clusters is written
to DIR/<cluster>/ (the unnamed cluster of the leftover files to DIR itself).

On OpenShift 4.21 (and 4.18–4.20 with the TechPreviewNoUpgrade feature set, from
FeatureGate/cluster in the tree or --feature-set) every self-managed cluster holds the
ClusterImagePolicy "openshift" that the cluster-version operator installs: the render
assumes it (and says so on stderr) unless ClusterVersion/version marks it unmanaged or
--no-default-cluster-image-policy is given.

A hosted cluster whose NodePool config HyperShift refuses (an ImageTagMirrorSet in it) is
not rendered: the NodePool stops and its nodes never get the config; stderr says why, at
the refused document.

Exit codes: 0 rendered; 1 MCO would refuse this input (its reason, and the file:line
of the offending value, on stderr; the cluster would keep its previous config), or
HyperShift stops the NodePool;
2 usage error or unreadable input.

Example:
  mirrorlint render -o out --release-image quay.io/openshift-release-dev/ocp-release@sha256:… clusters/prod`,
		Flags: append(treeFlags(), &cli.StringFlag{
			Name: "output", Aliases: []string{"o"}, Usage: "write the node files under `DIR` instead of printing registries.conf",
		}, shardFlag()),
		Action: func(c *cli.Context) error {
			p, err := openProject(c)
			if err != nil {
				return err
			}
			out := c.String("output")
			if out == "" && len(p.Clusters) > 1 {
				return fail(exitUsage, "the tree holds %d clusters: name one with --cluster (. for the unnamed one; mirrorlint clusters lists them), or write them all with -o DIR", len(p.Clusters))
			}
			warnIfEmpty(c, p)
			refused, unreadable := 0, 0
			for _, cl := range p.Clusters {
				// MCO's verdict on what did load is still worth printing,
				// but a cluster whose inputs do not all load would be
				// written incompletely: nothing is written for it.
				for _, pr := range cl.Problems {
					level := "error"
					if pr.Warning {
						level = "warning"
					}
					fmt.Fprintf(c.App.ErrWriter, "%s%s: %s: %s\n", clusterPrefix(cl.Name), pr.Pos, level, pr.Message)
				}
				r := project.Render(cl)
				reportRender(c.App.ErrWriter, r)
				if r.Output != nil {
					noteBootstrap(c.App.ErrWriter, p.Created(cl), cl.Name, r.Output.RegistriesConf)
				}
				switch {
				case len(manifest.Errors(cl.Problems)) > 0:
					unreadable++
					continue
				case r.Output == nil:
					refused++ // by MCO, or stopped before it
					continue
				}
				if out == "" {
					if _, err := c.App.Writer.Write(r.Output.RegistriesConf); err != nil {
						return err
					}
					continue
				}
				// With several clusters each gets a directory under -o
				// (safefs.ClusterDir; the unnamed one is -o itself).
				dir := out
				if len(p.Clusters) > 1 && cl.Name != "" {
					rel, err := safefs.ClusterDir(cl.Name, out)
					if err != nil {
						return fail(exitUsage, "-o: %v", err)
					}
					// Its directory is checked component by component, so
					// that a link planted under -o is refused, not followed.
					o, err := safefs.NewOutDir(out)
					if err == nil {
						err = o.MkdirAll(rel)
					}
					if err != nil {
						return fail(exitUsage, "-o: %v", err)
					}
					dir = o.Path(rel)
				}
				if err := project.WriteNodeFiles(dir, r.Output); err != nil {
					return fail(exitUsage, "%v", err)
				}
			}
			if unreadable > 0 {
				return fail(exitUsage, "cannot render %d cluster(s): unreadable input (see above)", unreadable)
			}
			if refused > 0 {
				return fail(exitFindings, "")
			}
			return nil
		},
	}
}

// reportRender prints MCO's refusal or warnings on stderr with positions,
// or why nothing is rendered for a cluster whose input a component before
// MCO refuses (printing MCO's file would claim the nodes got it).
func reportRender(w io.Writer, r *project.Rendered) {
	prefix := clusterPrefix(r.Cluster.Name)
	if s := r.Stopped; s != nil {
		fmt.Fprintf(w, "%s%s: error: not rendered: %s\n", prefix, where(s.Pos), s.Reason)
		return
	}
	if note := r.Input.DefaultPolicyNote; note != "" {
		fmt.Fprintf(w, "%smirrorlint: note: %s\n", prefix, note)
	}
	if r.Refusal != nil {
		at := where(r.Where(r.Refusal.Subject))
		if r.Refusal.Subject.Kind == "" {
			at = "--release-image " + r.Cluster.Settings.ReleaseImage
		}
		fmt.Fprintf(w, "%s%s: error: MCO would refuse to render: %s\n", prefix, at, r.Refusal.Error())
		fmt.Fprintf(w, "%s  MCO only logs this and keeps the previous registries.conf: every later registry change stops applying until it is fixed\n", prefix)
		return
	}
	for _, wn := range r.Output.Warnings {
		fmt.Fprintf(w, "%s%s: warning: MCO logs: %s\n", prefix, where(r.Where(wn.Subject)), wn.Message)
	}
	if n := len(r.Output.RegistryCAFiles); n > 0 {
		fmt.Fprintf(w, "%smirrorlint: note: the machine-config-daemon writes %d registry CA file(s) under /etc/docker/certs.d from %s (no MachineConfig: changing them drains and reboots nothing)\n",
			prefix, n, r.Input.RegistryCA().Ref())
	}
}

func where(pos interface{ String() string }) string {
	if s := pos.String(); s != "" {
		return s
	}
	return "mirrorlint"
}

// openProject opens the tree the command's paths name; in a git
// repository, the files .gitignore leaves out are not part of it, and
// cluster names are relative to its top level.
func openProject(c *cli.Context) (*project.Project, error) {
	top := gitTopLevel()
	opts := projectOptions(c, top)
	opts.Root = top
	opts.Files = gitFiles(c, opts.Root, false, nil)
	p, err := project.Open(opts)
	if err == nil {
		warnRefusedConfig(c, p.Config)
	}
	return p, err
}

func clusterPrefix(name string) string {
	if name == "" {
		return ""
	}
	return "[cluster " + name + "] "
}

// warnIfEmpty says so when nothing was read under the command's paths: a
// mistyped path or an empty stream would otherwise pass as "a cluster
// without mirrors".
func warnIfEmpty(c *cli.Context, p *project.Project) {
	paths, stream := input(c, c.Args().Slice())
	warnNothingRead(c.App.ErrWriter, p, paths, stream != nil)
}

func warnNothingRead(w io.Writer, p *project.Project, paths []string, stream bool) {
	warnRead(w, pipeline.Summarize(p), paths, stream)
}

// warnRead is warnNothingRead from what a run read (pipeline.Result.Read,
// which a run taken whole from the cache holds without a project).
func warnRead(w io.Writer, read pipeline.ReadSummary, paths []string, stream bool) {
	for _, n := range read.Notices {
		fmt.Fprintf(w, "mirrorlint: note: %s\n", n)
	}
	if read.Held {
		return
	}
	where := strings.Join(paths, " ")
	if where == "" {
		where = "."
	}
	if !read.AnyFile {
		fmt.Fprintf(w, "mirrorlint: warning: no YAML or JSON files found under %s\n", where)
	} else if stream {
		fmt.Fprintf(w, "mirrorlint: warning: the stream on stdin held no mirror objects\n")
	}
}

// noteBootstrap says where an installer cluster's bootstrap node gets
// another registries.conf than the one rendered: openshift-install writes
// it from its own template (one table per source and policy, no search
// registries, mirror-by-digest-only on the registry), not through MCO.
func noteBootstrap(w io.Writer, c *inputs.Cluster, name string, nodes []byte) {
	if c == nil || c.Bootstrap == nil || bytes.Equal(c.Bootstrap, nodes) {
		return
	}
	prefix := clusterPrefix(name)
	fmt.Fprintf(w, "%smirrorlint: note: the bootstrap node's /etc/containers/registries.conf differs from this file: openshift-install writes it from its own template, not through MCO; the masters and workers get this one once MCO runs:\n", prefix)
	for _, l := range strings.Split(strings.TrimRight(textdiff.Unified("nodes", "bootstrap", nodes, c.Bootstrap, 1), "\n"), "\n") {
		fmt.Fprintf(w, "%s  %s\n", prefix, l)
	}
}
