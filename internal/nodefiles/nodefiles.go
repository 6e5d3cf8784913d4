// Package nodefiles holds the container-runtime files a node starts from
// (the worker and master templates MCO ships) and where MCO writes its own
// versions of them, plus the decoding MCO's daemon applies before it compares
// two registries.conf files.
package nodefiles

import (
	"github.com/BurntSushi/toml"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
)

// Node paths MCO writes.
const (
	RegistriesConfPath = "/etc/containers/registries.conf"
	PolicyJSONPath     = "/etc/containers/policy.json"
	SearchDropInPath   = "/etc/containers/registries.conf.d/01-image-searchRegistries.conf"
	// SigstoreRegistriesPath is where MCO lists the scopes whose sigstore
	// signatures are looked up as attachments (signature policies).
	SigstoreRegistriesPath = "/etc/containers/registries.d/sigstore-registries.yaml"
	// CRIOPoliciesDir holds one <namespace>.json per namespace with
	// ImagePolicies.
	CRIOPoliciesDir = "/etc/crio/policies"
)

// CRIOPolicyPath is the per-namespace policy file of namespace.
func CRIOPolicyPath(namespace string) string { return CRIOPoliciesDir + "/" + namespace + ".json" }

// templateRegistries is what the worker/master templates put in
// /etc/containers/registries.conf. Nodes keep these bytes verbatim (single
// quotes included) whenever MCO has nothing to add.
const templateRegistries = "unqualified-search-registries = ['registry.access.redhat.com', 'docker.io']\n"

// templatePolicy is what the worker/master templates
// (01-*-container-runtime/_base/files/policy.yaml) put in
// /etc/containers/policy.json: accept anything. The YAML block scalar ends
// the template file without a line break, so there is no final newline.
const templatePolicy = `{
    "default": [
        {
            "type": "insecureAcceptAnything"
        }
    ],
    "transports":
        {
            "docker-daemon":
                {
                    "": [{"type":"insecureAcceptAnything"}]
                }
        }
}`

// RegistriesConf returns the template registries.conf bytes.
func RegistriesConf() []byte { return []byte(templateRegistries) }

// PolicyJSON returns the template policy.json bytes, which nodes keep
// whenever MCO writes no policy.json of its own.
func PolicyJSON() []byte { return []byte(templatePolicy) }

// Registries is the template registries.conf decoded: the starting point of
// every render.
func Registries() sysregistriesv2.V2RegistriesConf {
	return sysregistriesv2.V2RegistriesConf{
		UnqualifiedSearchRegistries: []string{"registry.access.redhat.com", "docker.io"},
	}
}

// Decode decodes registries.conf bytes the way MCO's daemon does before
// comparing two versions (a plain toml decode, no post-processing).
func Decode(data []byte) (sysregistriesv2.V2RegistriesConf, error) {
	var conf sysregistriesv2.V2RegistriesConf
	_, err := toml.Decode(string(data), &conf)
	return conf, err
}
