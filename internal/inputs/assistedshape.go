package inputs

import (
	"encoding/json"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// shape is the set of fields a JSON object decodes into: fields for an
// object (a nil value: a field whose content is not checked), elem for a
// list's items.
type shape struct {
	fields map[string]*shape
	elem   *shape
}

func obj(kv ...any) *shape {
	s := &shape{fields: map[string]*shape{}}
	for i := 0; i < len(kv); i++ {
		name := kv[i].(string)
		var sub *shape
		if i+1 < len(kv) {
			if x, ok := kv[i+1].(*shape); ok {
				sub, i = x, i+1
			}
		}
		s.fields[name] = sub
	}
	return s
}

func list(elem *shape) *shape { return &shape{elem: elem} }

// field finds name as encoding/json does: the exact name, else one equal
// under case folding.
func (s *shape) field(name string) (*shape, bool) {
	if sub, ok := s.fields[name]; ok {
		return sub, true
	}
	for k, sub := range s.fields {
		if strings.EqualFold(k, name) {
			return sub, true
		}
	}
	return nil, false
}

// assistedInstallConfig is the JSON shape of assisted-service's
// installcfg.InstallerConfigBaremetal (master 063b257950f7), into which
// the whole installConfigOverrides document is decoded with
// DisallowUnknownFields: any key outside it, at any depth, is refused.
var assistedInstallConfig = func() *shape {
	vips := []any{"apiVIPs", "apiVIP", "ingressVIPs", "ingressVIP"}
	machines := obj("hyperthreading", "name", "replicas")
	endpoint := obj("address", "port")
	baremetal := obj(append(vips, "provisioningNetwork",
		"hosts", list(obj("name", "role", "bootMACAddress", "bootMode", "hardwareProfile",
			"bmc", obj("username", "password", "address", "disableCertificateVerification"))),
		"clusterOSImage", "clusterProvisioningIP", "provisioningNetworkInterface", "provisioningNetworkCIDR",
		"provisioningDHCPRange", "additionalNTPServers", "loadBalancer", obj("type"))...)
	vsphere := obj(append(vips, "vCenter", "username", "password", "datacenter", "defaultDatastore", "folder",
		"network", "cluster",
		"failureDomains", list(obj("name", "region", "server", "zone",
			"topology", obj("computeCluster", "datacenter", "datastore", "folder", "networks", "resourcePool"))),
		"vcenters", list(obj("datacenters", "password", "port", "server", "user")),
		"loadBalancer", obj("type"))...)
	nutanix := obj(append(vips,
		"prismCentral", obj("endpoint", endpoint, "username", "password"),
		"prismElements", list(obj("endpoint", endpoint, "uuid", "name")),
		"subnetUUIDs")...)
	return obj("apiVersion", "baseDomain",
		"proxy", obj("httpProxy", "httpsProxy", "noProxy"),
		"networking", obj("networkType",
			"clusterNetwork", list(obj("cidr", "hostPrefix")),
			"machineNetwork", list(obj("cidr")),
			"serviceNetwork"),
		"metadata", obj("name"),
		"compute", list(machines),
		"controlPlane", obj("hyperthreading", "name", "replicas",
			"fencing", obj("credentials", list(obj("hostname", "macAddress", "address", "username", "password", "certificateVerification")))),
		"arbiter", machines,
		"platform", obj("baremetal", baremetal, "none", obj(), "vsphere", vsphere, "nutanix", nutanix,
			"external", obj("platformName", "cloudControllerManager")),
		"bootstrapInPlace", obj("installationDisk"),
		"fips", "cpuPartitioningMode", "pullSecret", "sshKey",
		"additionalTrustBundle", "additionalTrustBundlePolicy",
		"imageContentSources", list(obj("mirrors", "source")),
		"imageDigestSources", list(obj("source", "mirrors")),
		"capabilities", obj("baselineCapabilitySet", "additionalEnabledCapabilities"),
		"featureSet", "featureGates", "osImageStream")
}()

// firstUnknownField walks doc in order, as the decoder does, and returns
// the first key the shape does not hold: the path of the object holding
// it and the key. encoding/json stops there, so later ones are never
// reported. ok is false when every key is known (or doc is no JSON).
func firstUnknownField(doc string, s *shape) (in manifest.Path, key string, ok bool) {
	dec := json.NewDecoder(strings.NewReader(doc))
	var walk func(s *shape, at manifest.Path) bool
	// skip reads one value whose content is not checked.
	skip := func() bool {
		var v json.RawMessage
		return dec.Decode(&v) == nil
	}
	walk = func(s *shape, at manifest.Path) bool {
		if s == nil {
			return skip()
		}
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return false
				}
				name, _ := kt.(string)
				if s.fields == nil {
					// An object where a list or scalar belongs is a type
					// error, not an unknown field.
					if !skip() {
						return false
					}
					continue
				}
				sub, known := s.field(name)
				if !known {
					in, key, ok = at, name, true
					return false
				}
				if !walk(sub, at.Child(name)) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if !walk(s.elem, at.Child(i)) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		}
		return true
	}
	walk(s, nil)
	return in, key, ok
}
