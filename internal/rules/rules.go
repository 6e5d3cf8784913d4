// Package rules holds mirrorlint's built-in rules, one file per rule, each
// with its fixtures under testdata/<rule-id>/. The list in All is explicit:
// adding a rule means adding its file, its fixtures and one line here.
package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

// All returns the built-in rules, grouped by who acts on the finding.
func All() []*check.Rule {
	return append([]*check.Rule{
		// API server: the object is refused on apply.
		apiVersionKind,
		requiredFields,
		unknownField,
		sourcePolicyEnum,
		sourceFormat,
		mirrorFormat,
		placeholder,
		repositoryLowercase,
		mirrorDuplicate,
		imageAllowedAndBlocked,
		searchRegistriesSchema,
		manifestServerFields,
		objectName,
		hostedCluster,
		signaturePolicySchema,
		machineConfigurationInvalid,
		registryCAKey,
		// MCO: rendering is refused, the old configuration stays.
		icspFormat,
		conflictingSourcePolicy,
		neverContactSelfMirror,
		registryScopeFormat,
		wildcardSourceNested,
		releaseImageInvalid,
		policyScopeBlocked,
		policyScopeNotAllowed,
		signaturePolicyInvalid,
		// Nodes: containers/image rejects the rendered files.
		schemeInScope,
		duplicateLocation,
		searchRegistryFormat,
		imagePullFails,
		policyScopeAtomic,
		// Accepted, but not what the author meant.
		mirrorOrderConflict,
		noRealMirror,
		sourceAmongMirrors,
		nestedSourceShadows,
		nestedCopyWrongAncestor,
		neverContactBlocksTags,
		mirrorInBlockedScope,
		payloadBlocked,
		allowedIncomplete,
		tagMirrorTrust,
		imageConfigName,
		duplicateObject,
		duplicateKey,
		icspDeprecated,
		handWrittenRegistriesConf,
		scopeNeverMatches,
		imagePolicyScopeConflict,
		duplicatePolicyScope,
		reservedPolicyName,
		handWrittenSignatureFiles,
		releaseSignaturesMirrored,
		machineConfigurationName,
		nodeDisruptionPathNeverMatches,
		registryCAKeyNotHost,
		registryCANamespace,
		registryCAMissing,
		// This project's stance.
	}, inputRules()...)
}

// Registry returns the built-in rules plus the engine's own: loading
// problems, suppression bookkeeping and diff's refusal findings.
func Registry() *check.Registry {
	all := append(All(), check.ProblemRules()...)
	all = append(all, check.UnusedSuppressionRule, check.InvalidSuppressionRule, check.RefusedRule)
	reg, err := check.NewRegistry(all...)
	if err != nil {
		panic(err) // duplicate ids are a programming error, caught by tests
	}
	return reg
}
