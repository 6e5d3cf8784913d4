package lint

import (
	"context"
	"fmt"
	"io"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/wire"
)

// Linter lints trees and streams. It is safe for concurrent use.
type Linter struct {
	opts   options
	config *config.Config
	checks *pipeline.Checks
}

// New reads the config file, checks the settings and compiles every policy.
// An error means the options themselves are wrong (a config file that does
// not parse, a policy that does not compile, an unknown version).
func New(opts ...Option) (*Linter, error) {
	l := &Linter{opts: options{maxFileSize: safefs.DefaultMaxFileSize}}
	for _, o := range opts {
		o(&l.opts)
	}
	cfg := &config.Config{}
	if l.opts.configFile != "" {
		var err error
		if cfg, err = config.Load(l.opts.configFile); err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
	}
	l.config = cfg
	if _, err := project.ResolveSettings(l.projectOptions(call{}), cfg); err != nil {
		return nil, err
	}
	po, err := policy.Settle(cfg, l.opts.policyGiven())
	if err != nil {
		return nil, err
	}
	if l.checks, err = loadChecks(po); err != nil {
		return nil, err
	}
	return l, nil
}

// loadChecks compiles the policies: once per Linter, in New (a test counts
// the calls).
var loadChecks = pipeline.LoadChecks

// projectOptions are the settings every run of l reads the tree with; Lint
// and LintReader add what they read and the call's options.
func (l *Linter) projectOptions(c call) project.Options {
	return project.Options{
		Config:           l.config,
		ReleaseImage:     l.opts.releaseImage,
		OpenShiftVersion: l.opts.openShiftVersion,
		FeatureSet:       l.opts.featureSet,
		NoDefaultPolicy:  l.opts.noDefaultPolicy,
		MaxFileSize:      l.opts.maxFileSize,
		Cluster:          c.cluster,
		Root:             c.root,
	}
}

// Lint lints the files and directories at paths (none means "."), with
// the call's options. Problems in the tree (a file that does not parse, a
// kustomization that does not build) are findings, not errors; an error
// means the run itself could not happen (a path that does not exist, a
// config that names a rule that does not exist, ctx canceled).
func (l *Linter) Lint(ctx context.Context, paths []string, opts ...CallOption) (*Result, error) {
	c := callOf(opts)
	req := pipeline.Request{Options: l.projectOptions(c), Context: c.context}
	req.Paths = paths
	return l.run(ctx, req, "")
}

// LintReader lints a stream of manifests, such as the output of kustomize
// build, as one cluster; name is what findings and positions call the
// stream (a file name, "kustomize build overlays/prod"). Objects carrying
// kustomize's origin annotations (buildMetadata: [originAnnotations]) are
// reported at their source files when those can be read (from the context
// directory, when the call sets one, else the working directory).
func (l *Linter) LintReader(ctx context.Context, name string, r io.Reader, opts ...CallOption) (*Result, error) {
	c := callOf(opts)
	req := pipeline.Request{Options: l.projectOptions(c), Context: c.context}
	req.Stream = r
	return l.run(ctx, req, name)
}

func callOf(opts []CallOption) call {
	var c call
	for _, o := range opts {
		o(&c)
	}
	return c
}

// run runs req and converts the pipeline's result into the public types;
// stream, when set, names the stream in positions.
func (l *Linter) run(ctx context.Context, req pipeline.Request, stream string) (*Result, error) {
	res, err := pipeline.Run(ctx, l.checks, req)
	if err != nil {
		return nil, err
	}
	name := func(p Position) Position {
		if stream != "" && manifest.IsStream(p.File) {
			p.File = stream
		}
		return p
	}
	out := &Result{Findings: make([]Finding, 0, len(res.Findings))}
	for _, f := range res.Findings {
		out.Findings = append(out.Findings, wire.FromCheck(f, name))
	}
	for _, o := range res.Outcomes() {
		c := Cluster{Name: o.Name, Output: o.Output, Refusal: o.Refusal}
		if o.Unreadable != nil {
			c.Unreadable = &Problem{Position: name(Position(o.Unreadable.Pos)), Message: o.Unreadable.Message}
		}
		if o.Stopped != nil {
			c.Stopped = &Problem{Position: name(Position(o.Stopped.Pos)), Message: o.Stopped.Reason}
		}
		out.Clusters = append(out.Clusters, c)
	}
	return out, nil
}

// Rules lists every rule this Linter can report, sorted by id: the
// built-in rules and those the policies define.
func (l *Linter) Rules() []Rule {
	all := l.checks.Rules.All()
	out := make([]Rule, 0, len(all))
	for _, r := range all {
		out = append(out, Rule{ID: r.ID, Severity: wire.FromCheckSeverity(r.Severity), Summary: r.Summary, Doc: r.Doc})
	}
	return out
}

// policyGiven is what the options set about policies: WithNetwork and
// WithStrict turn a setting on, WithPolicyTimeout and WithPolicyMemory a
// positive bound; what
// no option sets is left to the config file.
func (o options) policyGiven() policy.Given {
	g := policy.Given{Dirs: o.policies, DataFiles: o.data}
	if o.allowNet {
		g.AllowNet = &o.allowNet
	}
	if o.strict {
		g.Strict = &o.strict
	}
	if o.policyTimeout > 0 {
		g.Timeout = &o.policyTimeout
	}
	if o.policyMemory > 0 {
		g.Memory = &o.policyMemory
	}
	return g
}
