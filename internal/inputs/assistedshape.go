package inputs

import (
	"strings"
)

// shape is what a JSON value decodes into: fields for an object, elem for
// a list's items, and the Go type, so that a value of the wrong kind is
// refused as encoding/json refuses it. A nil *shape is a value whose
// content is not checked.
type shape struct {
	fields map[string]*shape
	elem   *shape
	// kind is the JSON a value of the type takes; kindUnchecked (a type
	// not modelled here) takes any, its content still walked when it has
	// fields or elem.
	kind valueKind
	// typ is the Go type as reflect writes it in encoding/json's errors:
	// "bool", "[]string", "installcfg.Proxy" (for a *Proxy too), the
	// literal of an anonymous struct.
	typ string
	// name is the name of an object's struct type, which encoding/json's
	// errors name the innermost struct by ("" for an anonymous one).
	name string
}

type valueKind int

const (
	kindUnchecked valueKind = iota
	kindString
	kindBool
	kindInt   // Go int: 64 bits
	kindInt32 // Go int32
	kindObject
	kindList
)

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

// typed gives s its Go type: an object of struct type typ named name (""
// for an anonymous struct), or a list of type typ.
func (s *shape) typed(typ, name string) *shape {
	s.typ, s.name = typ, name
	s.kind = kindObject
	if s.fields == nil {
		s.kind = kindList
	}
	return s
}

func str(typ string) *shape { return &shape{kind: kindString, typ: typ} }

var (
	aString    = str("string")
	aBool      = &shape{kind: kindBool, typ: "bool"}
	anInt      = &shape{kind: kindInt, typ: "int"}
	stringList = list(aString).typed("[]string", "")
)

// field finds name as encoding/json does: the exact name, else one equal
// under case folding; canon is the field's own name, which encoding/json's
// errors use.
func (s *shape) field(name string) (sub *shape, canon string, ok bool) {
	if sub, ok := s.fields[name]; ok {
		return sub, name, true
	}
	for k, sub := range s.fields {
		if strings.EqualFold(k, name) {
			return sub, k, true
		}
	}
	return nil, "", false
}

// assistedInstallConfig is the JSON shape of assisted-service's
// installcfg.InstallerConfigBaremetal (master 063b257950f7), into which
// the whole installConfigOverrides document is decoded with
// DisallowUnknownFields: any key outside it, at any depth, is refused,
// and so is a value of the wrong type. The Go types are those of
// installcfg as read in the version that has imageDigestSources and
// featureSet; the fields it does not have (arbiter, fencing, featureGates,
// osImageStream, additionalTrustBundlePolicy, loadBalancer…), and the
// platforms but bare metal, are known by name only, their values not
// checked.
var assistedInstallConfig = func() *shape {
	vips := []any{"apiVIPs", "apiVIP", "ingressVIPs", "ingressVIP"}
	typedVIPs := []any{"apiVIPs", stringList, "apiVIP", aString, "ingressVIPs", stringList, "ingressVIP", aString}
	machine := func() *shape { return obj("hyperthreading", aString, "name", aString, "replicas", anInt) }
	endpoint := obj("address", "port")
	bmc := obj("username", aString, "password", aString, "address", aString, "disableCertificateVerification", aBool).typed("installcfg.BMC", "BMC")
	host := obj("name", aString, "role", aString, "bootMACAddress", aString, "bootMode", aString, "hardwareProfile", aString,
		"bmc", bmc).typed("installcfg.Host", "Host")
	baremetal := obj(append(typedVIPs, "provisioningNetwork", aString,
		"hosts", list(host).typed("[]installcfg.Host", ""),
		"clusterOSImage", aString, "clusterProvisioningIP", aString, "provisioningNetworkInterface", aString,
		"provisioningNetworkCIDR", aString, "provisioningDHCPRange", aString,
		"additionalNTPServers", "loadBalancer", obj("type"))...).typed("installcfg.BareMetalInstallConfigPlatform", "BareMetalInstallConfigPlatform")
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
	clusterNetwork := obj("cidr", aString, "hostPrefix", anInt).typed("installcfg.ClusterNetwork", "ClusterNetwork")
	machineNetwork := obj("cidr", aString).typed("installcfg.MachineNetwork", "MachineNetwork")
	networking := obj("networkType", aString,
		"clusterNetwork", list(clusterNetwork).typed("[]installcfg.ClusterNetwork", ""),
		"machineNetwork", list(machineNetwork).typed("[]installcfg.MachineNetwork", ""),
		"serviceNetwork", stringList).typed(`struct { NetworkType string "json:\"networkType\""; ClusterNetwork []installcfg.ClusterNetwork "json:\"clusterNetwork\""; MachineNetwork []installcfg.MachineNetwork "json:\"machineNetwork,omitempty\""; ServiceNetwork []string "json:\"serviceNetwork\"" }`, "")
	compute := machine().typed(`struct { Hyperthreading string "json:\"hyperthreading,omitempty\""; Name string "json:\"name\""; Replicas int "json:\"replicas\"" }`, "")
	// controlPlane has fencing beside the version read: its own type's
	// literal is not known, its fields' types are.
	controlPlane := machine()
	controlPlane.fields["fencing"] = obj("credentials", list(obj("hostname", "macAddress", "address", "username", "password", "certificateVerification")))
	contentSource := obj("mirrors", stringList, "source", aString).typed("installcfg.ImageContentSource", "ImageContentSource")
	digestSource := obj("source", aString, "mirrors", stringList).typed("installcfg.ImageDigestSource", "ImageDigestSource")
	return obj("apiVersion", aString, "baseDomain", aString,
		"proxy", obj("httpProxy", aString, "httpsProxy", aString, "noProxy", aString).typed("installcfg.Proxy", "Proxy"),
		"networking", networking,
		"metadata", obj("name", aString).typed(`struct { Name string "json:\"name\"" }`, ""),
		"compute", list(compute).typed(`[]struct { Hyperthreading string "json:\"hyperthreading,omitempty\""; Name string "json:\"name\""; Replicas int "json:\"replicas\"" }`, ""),
		"controlPlane", controlPlane,
		"arbiter", obj("hyperthreading", "name", "replicas"),
		"platform", obj("baremetal", baremetal, "none", obj().typed("installcfg.PlatformNone", "PlatformNone"), "vsphere", vsphere, "nutanix", nutanix,
			"external", obj("platformName", "cloudControllerManager")).typed("installcfg.Platform", "Platform"),
		"bootstrapInPlace", obj("installationDisk", aString).typed("installcfg.BootstrapInPlace", "BootstrapInPlace"),
		"fips", aBool, "cpuPartitioningMode", str("installcfg.CPUPartitioningMode"), "pullSecret", aString, "sshKey", aString,
		"additionalTrustBundle", aString, "additionalTrustBundlePolicy",
		"imageContentSources", list(contentSource).typed("[]installcfg.ImageContentSource", ""),
		"imageDigestSources", list(digestSource).typed("[]installcfg.ImageDigestSource", ""),
		"capabilities", obj("baselineCapabilitySet", str("installcfg.ClusterVersionCapabilitySet"),
			"additionalEnabledCapabilities", list(str("installcfg.ClusterVersionCapability")).typed("[]installcfg.ClusterVersionCapability", "")).typed("installcfg.Capabilities", "Capabilities"),
		"featureSet", str("v1.FeatureSet"), "featureGates", "osImageStream").typed("installcfg.InstallerConfigBaremetal", "InstallerConfigBaremetal")
}()
