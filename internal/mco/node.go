package mco

import "github.com/mirrorlint/mirrorlint/internal/nodefiles"

// NodeRegistriesConf is the /etc/containers/registries.conf a node holds
// after o: the rendered file, or the template when o is nil (MCO writes
// nothing). Render always sets RegistriesConf (to the template bytes when
// nothing is generated).
func (o *Output) NodeRegistriesConf() []byte {
	if o == nil {
		return nodefiles.RegistriesConf()
	}
	return o.RegistriesConf
}

// NodePolicyJSON is the /etc/containers/policy.json a node holds after o:
// the generated file, else the template (MCO writes none, or o is nil).
func (o *Output) NodePolicyJSON() []byte {
	if o == nil || o.PolicyJSON == nil {
		return nodefiles.PolicyJSON()
	}
	return o.PolicyJSON
}

// NodeSearchRegistriesConf is the search-registries drop-in a node holds
// after o, nil when it has none.
func (o *Output) NodeSearchRegistriesConf() []byte {
	if o == nil {
		return nil
	}
	return o.SearchRegistriesConf
}
