package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// hostedClusterGuestMirrorObject: see docs/hosted-cluster-guest-mirror-object.md; the check itself is in package inputs.
var hostedClusterGuestMirrorObject = inputRule(inputs.RuleGuestMirrorObject, check.Error, check.OriginAPI,
	"Mirror objects committed for a hosted cluster's guest: they never reach its nodes, and are denied from 4.18.")
