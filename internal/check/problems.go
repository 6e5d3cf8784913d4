package check

import "github.com/mirrorlint/mirrorlint/internal/manifest"

// Loading problems are findings of rules of their own when their cause is
// not an unreadable file: a config severity or an ignore entry can then
// name them (rules: {not-in-kustomization: off}), and `mirrorlint rules`
// documents them. Everything else stays unreadable-manifest (ProblemRule).
var (
	NotInKustomizationRule = &Rule{
		ID:       "not-in-kustomization",
		Severity: Warning,
		Origin:   OriginTool,
		Summary:  "A manifest lies in a kustomization directory that does not list it, so kustomize does not apply it.",
		Doc: `kustomize builds only what a kustomization lists under resources (or patches, generators...).
A mirror object in a file next to the kustomization.yaml that it does not list is never
applied: a GitOps tool that builds the directory leaves it out without a word, and a
reviewer reading the directory takes it for part of the cluster. mirrorlint reports it to
every cluster that builds that kustomization and lints it with none of them.

**Fix:** list the file under ` + "`resources:`" + `, or move it out of the directory (or delete it)
if it is not meant to be applied.`,
	}
	NotAppliedRule = &Rule{
		ID:       "not-applied",
		Severity: Info,
		Origin:   OriginTool,
		Summary:  "A directory of templates that is never applied as written (a Helm chart, ZTP source CRs) was not linted.",
		Doc: `Some directories hold manifests that no tool applies as they are written:

- a **Helm chart** (` + "`Chart.yaml`" + ` beside ` + "`templates/`" + `): Helm renders the templates with the
  chart's values; the files themselves are Go templates, often not even YAML;
- **ZTP source CRs** (a ` + "`source-crs/`" + ` directory): PolicyGenTemplate / PolicyGenerator
  patches these templates into ACM policies; their placeholders (` + "`$mirrors`" + `, empty specs)
  are filled in at generation.

Their files are not read, so they give no parse errors and no findings on placeholder
values; the directory is reported once, so that it is not skipped silently.

**Fix:** nothing to fix in the templates. To lint what the cluster gets, lint the rendered
output: ` + "`helm template CHART | mirrorlint lint -`" + `, or the generated policies. To silence the
notice, add an ignore entry for this rule with the directory's path glob.`,
	}
	PolicyTemplateRule = &Rule{
		ID:       "policy-template",
		Severity: Info,
		Origin:   OriginTool,
		Summary:  "A mirror object an ACM policy delivers holds a template only the hub or the managed cluster resolves; it was not linted.",
		Doc: `An ACM ConfigurationPolicy may write values as templates: ` + "`{{hub … hub}}`" + ` is resolved
on the hub when the policy is propagated, ` + "`{{ … }}`" + ` on each managed cluster when the policy
is applied (and its raw object templates are often a template as a whole). What the cluster gets
is known only there, so the object holding the template is not linted, and the template
is reported once, at its line, with where it is resolved: neither an error on text that
is not the value, nor silence.

**Fix:** nothing to fix. To have the object checked, write its values out (a
PolicyGenerator or a PolicyGenTemplate per site does), or lint what the template gives.`,
	}
	// RefusedRule is what diff's CI formats report when MCO would refuse to
	// render one side of a change. lint reports a refusal under the rule
	// that explains it instead, so the rule has no Check; it is registered
	// so that every report format, config severities and `mirrorlint rules`
	// know it.
	RefusedRule = &Rule{
		ID:       "render-refused",
		Severity: Error,
		Origin:   OriginMCO,
		Summary:  "MCO would refuse to render one side of the change (only in diff reports).",
		Doc: `MCO refuses to render the registry files for this tree: it logs the reason and keeps
the previous MachineConfig, so the change would not reach the nodes and every later
registry change stops applying until it is fixed. No drain verdict can be given.

` + "`mirrorlint diff --format sarif|github|junit`" + ` reports it once per side MCO would refuse;
` + "`mirrorlint lint`" + ` reports the offending value under the rule that explains the refusal.

**Fix:** run ` + "`mirrorlint lint`" + ` on the refused side and fix what it reports.`,
	}
)

// Problem codes with a rule of their own (manifest.Problem.Code).
const (
	CodeNotInKustomization = "not-in-kustomization"
	CodeNotApplied         = manifest.CodeNotApplied
	CodePolicyTemplate     = manifest.CodePolicyTemplate
)

// ProblemRules are the rules loading problems are reported under.
func ProblemRules() []*Rule {
	return []*Rule{ProblemRule, NotInKustomizationRule, NotAppliedRule, PolicyTemplateRule}
}

// problemRule picks the rule and default severity of a loading problem: a
// rule of its own for the known deliberate skips, else unreadable-manifest,
// an error unless the input was skipped on purpose.
func problemRule(p manifest.Problem) (*Rule, Severity) {
	switch p.Code {
	case CodeNotInKustomization:
		return NotInKustomizationRule, NotInKustomizationRule.Severity
	case CodeNotApplied:
		return NotAppliedRule, NotAppliedRule.Severity
	case CodePolicyTemplate:
		return PolicyTemplateRule, PolicyTemplateRule.Severity
	}
	if p.Warning {
		return ProblemRule, Warning // a deliberate skip (a symlink leaving the tree...), nothing unreadable
	}
	return ProblemRule, ProblemRule.Severity
}
