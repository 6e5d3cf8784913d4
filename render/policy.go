package render

import (
	"encoding/json"
	"strings"
)

// policy is the part of containers/image's signature.Policy that MCO
// fills from the Image lists. signature itself is not imported: it drags in
// gpgme (cgo) and libtrust. Its requirements marshal as {"type": ...}, its
// maps with sorted keys, exactly like these.
type policy struct {
	Default    []policyRequirement                       `json:"default"`
	Transports map[string]map[string][]policyRequirement `json:"transports"`
}

type policyRequirement struct {
	Type string `json:"type"`
}

var (
	acceptAnything = []policyRequirement{{Type: "insecureAcceptAnything"}}
	reject         = []policyRequirement{{Type: "reject"}}
)

// encodePolicyJSON is MCO's policy.json for the (payload-filtered) blocked
// and allowed lists, when at least one is non-nil, starting from the
// template: with allowed entries the default becomes reject and each
// allowed scope accepts anything; with blocked entries (MCO only lets both
// through when the single allowed entry is the payload repository it
// added) the default is accept-anything again and each blocked scope
// rejects, winning over an equal allowed scope. The scopes go under the
// "docker" transport and under "atomic". How depends on the release v:
//   - 4.14+: "atomic" leaves out scopes with three or more slashes, which
//     that transport does not support; 4.13 puts every scope there;
//   - 4.17+: the result is two-space indented (json.MarshalIndent); up to
//     4.16 it is compact (json.Marshal). Neither has a final newline.
func encodePolicyJSON(blocked, allowed []string, v Version) ([]byte, error) {
	p := policy{
		Default: acceptAnything,
		Transports: map[string]map[string][]policyRequirement{
			"docker-daemon": {"": acceptAnything},
		},
	}
	scopes := map[string][]policyRequirement{}
	if len(allowed) > 0 {
		p.Default = reject
		for _, s := range allowed {
			scopes[s] = acceptAnything
		}
	}
	if len(blocked) > 0 {
		p.Default = acceptAnything
		for _, s := range blocked {
			scopes[s] = reject
		}
	}
	if len(scopes) > 0 {
		atomic := map[string][]policyRequirement{}
		for s, r := range scopes {
			if !v.AtLeast(14) || strings.Count(s, "/") < 3 {
				atomic[s] = r
			}
		}
		p.Transports["docker"] = scopes
		p.Transports["atomic"] = atomic
	}
	if !v.AtLeast(17) {
		return json.Marshal(&p)
	}
	return json.MarshalIndent(&p, "", "  ")
}
