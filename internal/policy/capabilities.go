package policy

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Builtins removed from the capabilities, and why. A policy calling one of
// them does not compile, so a lint run never depends on the network, the
// environment or chance, and gives the same answer in CI as on a laptop.
//
// Kept on purpose: net.cidr_* (pure arithmetic on strings), time.now_ns and
// the other time builtins (policies about expiry dates are legitimate; the
// clock is the one input outside the repository), print (a no-op unless
// Verify captures it), io.jwt.encode_sign* (pure, apart from key material
// the policy itself supplies).
var (
	networkBuiltins = []string{"http.send", "net.lookup_ip_addr"}
	// opa.runtime exposes the process environment and OPA's configuration;
	// rand.intn and uuid.rfc4122 make two runs over the same tree disagree.
	// --allow-net does not bring them back.
	alwaysRemoved = map[string]string{
		"opa.runtime":  "it reads the environment",
		"rand.intn":    "lint results must not depend on chance",
		"uuid.rfc4122": "lint results must not depend on chance",
	}
)

// capabilities is this OPA version's capabilities minus the removed
// builtins. With allowNet false, AllowNet is also set to an empty host list,
// which stops the builtins that can still fetch something indirectly (JSON
// schema $refs in json.match_schema) from reaching any host.
func capabilities(allowNet bool) *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	removed := map[string]bool{}
	for name := range alwaysRemoved {
		removed[name] = true
	}
	if !allowNet {
		for _, name := range networkBuiltins {
			removed[name] = true
		}
		caps.AllowNet = []string{}
	}
	kept := caps.Builtins[:0]
	for _, b := range caps.Builtins {
		if !removed[b.Name] {
			kept = append(kept, b)
		}
	}
	caps.Builtins = kept
	return caps
}

var undefinedFunction = regexp.MustCompile(`^undefined function (\S+)$`)

// explainRemoved rewrites OPA's "undefined function http.send" for a builtin
// mirrorlint removed into a message that says why and what to do; other
// messages are returned unchanged.
func explainRemoved(msg string, allowNet bool) string {
	m := undefinedFunction.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	name := m[1]
	for _, n := range networkBuiltins {
		if name == n && !allowNet {
			return fmt.Sprintf("builtin %s is disabled: policies cannot reach the network unless mirrorlint runs with --allow-net (which re-enables %s)",
				name, strings.Join(networkBuiltins, " and "))
		}
	}
	if why, ok := alwaysRemoved[name]; ok {
		return fmt.Sprintf("builtin %s is disabled in mirrorlint policies: %s (no flag re-enables it)", name, why)
	}
	return msg
}
