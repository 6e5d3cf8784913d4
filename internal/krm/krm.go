// Package krm is mirrorlint as a KRM function: a ResourceList comes in,
// every item goes out unchanged, and the findings go into results (for kpt
// and other runners that read them) and onto stderr (kustomize discards
// results and shows only stderr).
package krm

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/report"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// RenderedName names the ConfigMap item added with emitRendered.
const RenderedName = "mirrorlint-registries-conf"

// FindingsError is returned when findings reach the failOn threshold; the
// command turns it into exit code 1.
type FindingsError struct{ Counts check.Counts }

func (e *FindingsError) Error() string {
	return "mirrorlint: " + report.Summary(e.Counts)
}

// Processor lints a ResourceList. It implements
// framework.ResourceListProcessor.
type Processor struct {
	// Rules are the rules run when Checks is nil.
	Rules *check.Registry
	// Checks, when set, returns the rules and the compiled policies for
	// the functionConfig's settings (pipeline.ChecksFromConfig).
	Checks func(cfg *config.Config) (*pipeline.Checks, error)
	// Stderr receives the findings as text.
	Stderr io.Writer
	// Roots are where origin paths are looked up; nil means the working
	// directory (kustomize runs exec functions in the kustomization root).
	Roots []string
	// Access confines every file read, origin files included (the stream
	// names them, so it could name ../../dev/zero); nil confines origin
	// reads to Roots.
	Access *safefs.Root
}

// Run reads a ResourceList from r and writes the result to w: the items
// exactly as they came (the same nodes, every annotation kept, none added),
// then any item the function adds, and the results.
//
// framework.Execute is not used for this: it reconciles the runner's
// path/index/id annotations on the way out, adding config.kubernetes.io/path
// where only internal.config.kubernetes.io/path came in and dropping the
// runner's annotations-migration-resource-id, so a pass-through function
// would hand back resources that differ from its input.
func (p *Processor) Run(r io.Reader, w io.Writer) error {
	rw := &kio.ByteReadWriter{Reader: r, Writer: w, OmitReaderAnnotations: true, KeepReaderAnnotations: true}
	items, err := rw.Read()
	if err != nil {
		return fmt.Errorf("reading the ResourceList: %w", err)
	}
	// The rules see copies: nothing they do can reach the output.
	rl := &framework.ResourceList{FunctionConfig: rw.FunctionConfig}
	for _, it := range items {
		rl.Items = append(rl.Items, it.Copy())
	}
	procErr := p.Process(rl)
	out := append(items[:len(items):len(items)], rl.Items[len(items):]...)
	if len(rl.Results) > 0 {
		b, err := yaml.Marshal(rl.Results)
		if err != nil {
			return err
		}
		if rw.Results, err = yaml.Parse(string(b)); err != nil {
			return err
		}
	}
	if err := rw.Write(out); err != nil {
		return err
	}
	return procErr
}

// Process implements framework.ResourceListProcessor.
func (p *Processor) Process(rl *framework.ResourceList) error {
	fc, err := ParseFunctionConfig(rl.FunctionConfig)
	if err != nil {
		return err
	}
	cfg := fc.Config
	// The functionConfig is a file of the tree kustomize builds, written by
	// whoever can commit to it: like a .mirrorlint.yaml found there, it may
	// not widen what the run reads, reaches or spends.
	wd, _ := os.Getwd()
	refused := cfg.Distrust(wd, policy.DefaultTimeout, policy.DefaultMemory>>20)
	checks := &pipeline.Checks{Rules: p.Rules}
	if p.Checks != nil {
		if checks, err = p.Checks(cfg); err != nil {
			return err
		}
	}
	failOn, err := check.FailOn("", cfg)
	if err != nil {
		return fmt.Errorf("functionConfig: %w", err)
	}

	// The items are linted as one stream. Their text is regenerated from
	// the nodes, so stream lines are only a stop on the way to the source
	// file named by each item's path or origin annotation; the pipeline
	// moves the findings there before suppressions are matched, so a
	// "# mirrorlint:ignore" comment in that file applies.
	stream, err := itemsStream(rl.Items)
	if err != nil {
		return err
	}
	res, err := pipeline.Run(context.Background(), checks, pipeline.Request{
		Options:     project.Options{Stream: strings.NewReader(stream), Config: cfg, Access: p.Access},
		OriginRoots: p.Roots,
	})
	if err != nil {
		return err
	}
	set := res.Project.Set
	// Files are named as `lint` names them, with the kustomization root
	// kustomize runs the function in as the working directory: a file of
	// the overlay reads as in kustomize's own messages (idms.yaml), a base
	// by its absolute path rather than ../../base/idms.yaml, which means
	// nothing to a user who ran kustomize from elsewhere.
	findings := report.FunctionDisplayPaths(res.Findings)
	for _, r := range refused {
		findings = append(findings, check.Finding{Rule: check.ProblemRule.ID, Severity: check.Error,
			Message: refusedInFunction(r)})
	}

	if p.Stderr != nil && len(findings) > 0 {
		if err := printFindings(p.Stderr, findings); err != nil {
			return err
		}
	}
	for _, f := range findings {
		if f.Suppressed != nil {
			continue
		}
		rl.Results = append(rl.Results, result(f, set.Objects))
	}

	if fc.EmitRendered {
		item, err := renderedItem(res.Contexts[0])
		if err != nil {
			return err
		}
		if item != nil {
			rl.Items = append(rl.Items, item)
		}
	}
	if check.Fails(findings, failOn) {
		return &FindingsError{Counts: check.Count(findings)}
	}
	return nil
}

// printFindings writes one line per unsuppressed finding, like `lint`
// does, but names the object and field when no source file is known:
// without buildMetadata: [originAnnotations] kustomize passes no path, and a
// line number in the regenerated stream would only mislead.
func printFindings(w io.Writer, fs []check.Finding) error {
	var b strings.Builder
	for _, f := range fs {
		if f.Suppressed != nil {
			continue
		}
		where := "mirrorlint"
		switch {
		case f.File != "" && !manifest.IsStream(f.File) && f.Line > 0:
			where = fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
		case f.File != "" && !manifest.IsStream(f.File):
			where = f.File
		case f.Object.Kind != "":
			where = f.Object.Kind + "/" + f.Object.Name
			if f.Path != "" {
				where += " " + f.Path
			}
		}
		fmt.Fprintf(&b, "%s: %s %s: %s", where, f.Severity, f.Rule, f.Message)
		if cl := clusterNames(f.Clusters); cl != "" {
			fmt.Fprintf(&b, " [cluster %s]", cl)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "mirrorlint: %s\n", report.Summary(check.Count(fs)))
	_, err := io.WriteString(w, b.String())
	return err
}

// itemsStream prints the items as one multi-document YAML stream.
func itemsStream(items []*yaml.RNode) (string, error) {
	var b strings.Builder
	for i, it := range items {
		s, err := it.String()
		if err != nil {
			return "", fmt.Errorf("item %d: %w", i, err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// result turns a finding into a framework result: the resource it is about,
// the field, and the source file with the document index when known.
func result(f check.Finding, objs []*manifest.Object) *framework.Result {
	res := &framework.Result{
		Message:  f.Rule + ": " + f.Message,
		Severity: severity(f.Severity),
		Tags:     map[string]string{"rule": f.Rule},
	}
	if cl := clusterNames(f.Clusters); cl != "" {
		res.Tags["clusters"] = cl
	}
	if f.Object.Kind != "" {
		id := &yaml.ResourceIdentifier{}
		id.Kind, id.Name = f.Object.Kind, f.Object.Name
		for _, o := range objs {
			if string(o.Kind) == f.Object.Kind && o.Name == f.Object.Name {
				id.APIVersion = o.APIVersion
				break
			}
		}
		res.ResourceRef = id
	}
	if f.Path != "" {
		res.Field = &framework.Field{Path: f.Path}
	}
	if f.File != "" && !manifest.IsStream(f.File) {
		file := &framework.File{Path: f.File}
		for _, o := range objs {
			if string(o.Kind) == f.Object.Kind && o.Name == f.Object.Name {
				if idx, ok := docIndex(o); ok {
					file.Index = idx
				}
				break
			}
		}
		res.File = file
		if f.Line > 0 {
			res.Tags["position"] = fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
		}
	}
	return res
}

func docIndex(o *manifest.Object) (int, bool) {
	md, _ := o.Content["metadata"].(map[string]any)
	annos, _ := md["annotations"].(map[string]any)
	for _, k := range []string{"internal.config.kubernetes.io/index", "config.kubernetes.io/index"} {
		if s, ok := annos[k].(string); ok {
			var n int
			if _, err := fmt.Sscan(s, &n); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

func severity(s check.Severity) framework.Severity {
	switch s {
	case check.Error:
		return framework.Error
	case check.Warning:
		return framework.Warning
	}
	return framework.Info
}

func clusterNames(cs []string) string {
	var out []string
	for _, c := range cs {
		if c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, ",")
}

// renderedItem is the registries.conf as a ConfigMap, for pipelines that
// want to diff or publish it. When MCO would refuse there is nothing to add
// (nil), and the refusal is already a finding.
func renderedItem(ctx *check.Context) (*yaml.RNode, error) {
	if ctx == nil || ctx.Rendered == nil {
		return nil, nil
	}
	// Not marked local-config: runners drop such items from their output,
	// and the point of asking for it is to get it in the output.
	n, err := yaml.Parse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + RenderedName + "\n")
	if err != nil {
		return nil, err
	}
	n.SetDataMap(map[string]string{"registries.conf": string(ctx.Rendered.RegistriesConf)})
	return n, nil
}

// refusedInFunction words a refused functionConfig setting for the
// function's user: the function takes no flags and its functionConfig is
// always a file of the tree, so the setting is not available in it at
// all; only linting the built output with the command line can give it.
func refusedInFunction(r config.Refused) string {
	how := "with " + r.Remedy
	if strings.HasPrefix(r.Remedy, "--") {
		how = "with `kustomize build DIR | mirrorlint lint " + r.Remedy + " ... -`"
	}
	return fmt.Sprintf("functionConfig spec.%s; refused: the functionConfig is a file of the tree the function lints, so a pull request could set it, and the function takes no flags. The setting is not available in the KRM function: lint the built output %s instead", r.Setting, how)
}
