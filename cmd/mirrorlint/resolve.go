package main

import (
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/resolve"
)

func resolveCommand() *cli.Command {
	return &cli.Command{
		Name:      "resolve",
		Usage:     "list the pull sources a node would try for an image, in order",
		ArgsUsage: "IMAGE [PATH...]",
		Description: `Renders the registries.conf the nodes would get from the tree under PATH (default .)
and asks containers/image, the library CRI-O pulls with, where IMAGE would be pulled
from: the registry entry that matches (longest prefix), each mirror in order, and the
primary location last. Mirrors the reference skips are shown in place: digest-only
mirrors (ImageDigestMirrorSet, ICSP) for pulls by tag, tag-only mirrors
(ImageTagMirrorSet) for pulls by digest. A source inside a blocked scope (Image
blockedRegistries, or NeverContactSource) is never contacted; when no usable source is
left the pull fails. Short names are shown with docker.io normalisation.

It also says which signature policy requirement applies to IMAGE (policy.json, or the
namespace's /etc/crio/policies file with --namespace), whether the node will verify a
sigstore signature, and in which sources it looks for the signature as an attachment
(registries.d/sigstore-registries.yaml).

Exit codes: 0 resolved; 1 MCO would refuse the tree (the nodes keep their previous
registries.conf, so there is nothing to resolve against); 2 usage error, invalid
reference or unreadable input.

Examples:
  mirrorlint resolve quay.io/openshift-release-dev/ocp-release:4.16.0-x86_64 clusters/prod
  mirrorlint resolve --format json registry.redhat.io/ubi9/ubi@sha256:… .`,
		Flags: append(treeFlags(),
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text or json"},
			&cli.StringFlag{Name: "namespace", Aliases: []string{"n"}, Usage: "the pod's `NAMESPACE`, for its ImagePolicy file (/etc/crio/policies/NAMESPACE.json)"},
		),
		Action: runResolve,
	}
}

func runResolve(c *cli.Context) error {
	format := c.String("format")
	if format != "text" && format != "json" {
		return fail(exitUsage, "resolve --format %q: want text or json", format)
	}
	if c.NArg() < 1 {
		return fail(exitUsage, "resolve needs an IMAGE reference (see mirrorlint resolve --help)")
	}
	image := c.Args().First()
	if _, _, err := resolve.Parse(image); err != nil {
		return fail(exitUsage, "%v", err)
	}
	top := gitTopLevel()
	opts := projectOptionsFor(c, c.Args().Tail(), top) // IMAGE [PATH...]
	opts.Root = top
	opts.Files = gitFiles(c, opts.Root, false, nil)
	p, err := project.Open(opts)
	if err != nil {
		return err
	}
	warnRefusedConfig(c, p.Config)
	warnNothingRead(c.App.ErrWriter, p, opts.Paths, opts.Stream != nil)
	if errs := manifest.Errors(p.Problems()); len(errs) > 0 {
		n := len(errs)
		for _, pr := range errs {
			c.App.ErrWriter.Write([]byte(pr.String() + "\n"))
		}
		return fail(exitUsage, "cannot resolve: %d unreadable input(s) (see above)", n)
	}
	if len(p.Clusters) > 1 {
		return fail(exitUsage, "the tree holds %d clusters: name one with --cluster (. for the unnamed one; mirrorlint clusters lists them)", len(p.Clusters))
	}
	r := project.Render(p.Clusters[0])
	reportRender(c.App.ErrWriter, r)
	if r.Output == nil { // refused by MCO, or stopped before it
		return fail(exitFindings, "")
	}
	res, err := resolve.Resolve(r.Output.NodeRegistriesConf(), r.Output.NodeSearchRegistriesConf(), image)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	policy, policyPath := project.PolicyFor(r.Output, c.String("namespace"))
	if err := res.AddSignature(policy, policyPath, r.Output.SigstoreRegistriesYAML); err != nil {
		return fail(exitUsage, "%v", err)
	}
	if format == "json" {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return res.WriteText(c.App.Writer)
}
