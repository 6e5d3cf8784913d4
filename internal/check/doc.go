// Package check runs rules over one cluster at a time: the Rule type and its
// registry, the per-cluster Context a rule reads the render from and reports
// through, severities and findings, suppressions, and the merge of several
// clusters' findings into one list.
package check
