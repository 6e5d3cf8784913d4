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
		Doc:      doc("not-in-kustomization"),
	}
	NotAppliedRule = &Rule{
		ID:       "not-applied",
		Severity: Info,
		Origin:   OriginTool,
		Summary:  "A directory of templates that is never applied as written (a Helm chart, ZTP source CRs), or a Hive SyncSet patch of a kind mirrorlint reads, was not linted.",
		Doc:      doc("not-applied"),
	}
	PolicyTemplateRule = &Rule{
		ID:       "policy-template",
		Severity: Info,
		Origin:   OriginTool,
		Summary:  "A mirror object an ACM policy delivers holds a template only the hub or the managed cluster resolves; it was not linted.",
		Doc:      doc("policy-template"),
	}
	SourceCRMissingRule = &Rule{
		ID:       "source-cr-missing",
		Severity: Info,
		Origin:   OriginTool,
		Summary:  "A source CR a ZTP PolicyGenTemplate or PolicyGenerator names is not in the repository (or is a kustomization mirrorlint does not build), so what it delivers was not linted.",
		Doc:      doc("source-cr-missing"),
	}
	GeneratorInvalidRule = &Rule{
		ID:       "generator-invalid",
		Severity: Error,
		Origin:   OriginTool,
		Summary:  "A PolicyGenTemplate or PolicyGenerator holds something its generator refuses, so none of its policies is delivered.",
		Doc:      doc("generator-invalid"),
	}
	PluginNotRunRule = &Rule{
		ID:       "plugin-not-run",
		Severity: Info,
		Origin:   OriginTool,
		Summary:  "A kustomization names an external plugin (KSOPS, an exec or container function) that mirrorlint does not run; what it produces was not linted.",
		Doc:      doc("plugin-not-run"),
	}
	NotBuiltRule = &Rule{
		ID:       "entry-not-built",
		Severity: Warning,
		Origin:   OriginTool,
		Summary:  "A kustomization entry mirrorlint leaves out of its builds (a remote resource, base or component, a generator item reading a URL, a Helm chart): the rest is built and linted, what the entry adds is not.",
		Doc:      doc("entry-not-built"),
	}
	ExtraManifestNotLintedRule = &Rule{
		ID:       "extra-manifest-not-linted",
		Severity: Info,
		Origin:   OriginTool,
		Summary:  "An extra manifest a ZTP site's spoke is installed with is not in the repository (its directory, its ConfigMap) or is a template or patch mirrorlint does not apply, so it was not linted.",
		Doc:      doc("extra-manifest-not-linted"),
	}
	ExtraManifestRefusedRule = &Rule{
		ID:       "extra-manifest-refused",
		Severity: Error,
		Origin:   OriginTool,
		Summary:  "The siteconfig-generator, the SiteConfig operator or assisted-service refuses a ZTP site's extra manifests (a missing directory, a filter, a file that is no YAML mapping, a name that is no manifest file's, a key two ConfigMaps hold), so the spoke is not installed.",
		Doc:      doc("extra-manifest-refused"),
	}
	ExtraManifestDroppedRule = &Rule{
		ID:       "extra-manifest-documents-dropped",
		Severity: Warning,
		Origin:   OriginSurprise,
		Summary:  "An extra-manifest file of a SiteConfig holds several YAML documents: the siteconfig-generator keeps only the first, the others never reach the spoke.",
		Doc:      doc("extra-manifest-documents-dropped"),
	}
	// LimitRule is a run that stopped building or reading something at
	// one of its fixed limits, so part of what it was asked to check was
	// not checked: the run fails rather than pass on less than it was
	// given.
	LimitRule = &Rule{
		ID:       "limit-exceeded",
		Severity: Error,
		Origin:   OriginTool,
		Summary:  "The run stopped at one of its limits (objects kept, the heap a load may grow by, what one policy builtin call may build, a policy evaluation's time or memory), so part of the tree or of a policy was not checked.",
		Doc:      doc("limit-exceeded"),
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
		Summary:  "MCO would refuse to render one side of the change, or the side is refused before MCO renders it (only in diff reports).",
		Doc:      doc("render-refused"),
	}
)

// Problem codes with a rule of their own (manifest.Problem.Code).
const (
	CodeNotInKustomization = manifest.CodeNotInKustomization
	CodeNotApplied         = manifest.CodeNotApplied
	CodePolicyTemplate     = manifest.CodePolicyTemplate
	CodeSourceCRMissing    = manifest.CodeSourceCRMissing
	CodeGeneratorInvalid   = manifest.CodeGeneratorInvalid
	CodePluginNotRun       = manifest.CodePluginNotRun
	CodeNotBuilt           = manifest.CodeNotBuilt
	CodeExtraNotLinted     = "extra-manifest-not-linted"
	CodeExtraRefused       = "extra-manifest-refused"
	CodeExtraDropped       = "extra-manifest-documents-dropped"
)

// ProblemRules are the rules loading problems are reported under.
func ProblemRules() []*Rule {
	return []*Rule{ProblemRule, NotInKustomizationRule, NotAppliedRule, PolicyTemplateRule, SourceCRMissingRule, GeneratorInvalidRule, PluginNotRunRule, NotBuiltRule,
		ExtraManifestNotLintedRule, ExtraManifestRefusedRule, ExtraManifestDroppedRule, LimitRule}
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
	case CodeSourceCRMissing:
		return SourceCRMissingRule, SourceCRMissingRule.Severity
	case CodeGeneratorInvalid:
		return GeneratorInvalidRule, GeneratorInvalidRule.Severity
	case CodePluginNotRun:
		return PluginNotRunRule, PluginNotRunRule.Severity
	case CodeNotBuilt:
		return NotBuiltRule, NotBuiltRule.Severity
	case CodeExtraNotLinted:
		return ExtraManifestNotLintedRule, ExtraManifestNotLintedRule.Severity
	case CodeExtraRefused:
		return ExtraManifestRefusedRule, ExtraManifestRefusedRule.Severity
	case CodeExtraDropped:
		return ExtraManifestDroppedRule, ExtraManifestDroppedRule.Severity
	case LimitRule.ID:
		return LimitRule, Error // a loading limit: part of the tree was not checked
	}
	if p.Warning {
		return ProblemRule, Warning // a deliberate skip (a symlink leaving the tree...), nothing unreadable
	}
	return ProblemRule, ProblemRule.Severity
}
