package inputs

import (
	"encoding/json"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

// The types below stand in for assisted-service's installcfg types the
// shape table models, with the same names, field names and tags, so
// that encoding/json itself says what it refuses: the walk must give its
// messages word for word (the package name aside).
type (
	ClusterNetwork struct {
		Cidr       string `json:"cidr"`
		HostPrefix int    `json:"hostPrefix"`
	}
	MachineNetwork struct {
		Cidr string `json:"cidr"`
	}
	Proxy struct {
		HTTPProxy  string `json:"httpProxy,omitempty"`
		HTTPSProxy string `json:"httpsProxy,omitempty"`
		NoProxy    string `json:"noProxy,omitempty"`
	}
	BMC struct {
		Username                       string `json:"username"`
		Password                       string `json:"password"`
		Address                        string `json:"address"`
		DisableCertificateVerification bool   `json:"disableCertificateVerification"`
	}
	Host struct {
		Name            string `json:"name"`
		Role            string `json:"role"`
		BootMACAddress  string `json:"bootMACAddress"`
		BootMode        string `json:"bootMode"`
		BMC             BMC    `json:"bmc"`
		HardwareProfile string `json:"hardwareProfile"`
	}
	BareMetalInstallConfigPlatform struct {
		APIVIPs []string `json:"apiVIPs,omitempty"`
		Hosts   []Host   `json:"hosts"`
	}
	Platform struct {
		Baremetal *BareMetalInstallConfigPlatform `json:"baremetal,omitempty"`
	}
	ImageDigestSource struct {
		Source  string   `json:"source"`
		Mirrors []string `json:"mirrors,omitempty"`
	}
	CPUPartitioningMode      string
	InstallerConfigBaremetal struct {
		Proxy      *Proxy `json:"proxy,omitempty"`
		Networking struct {
			NetworkType    string           `json:"networkType"`
			ClusterNetwork []ClusterNetwork `json:"clusterNetwork"`
			MachineNetwork []MachineNetwork `json:"machineNetwork,omitempty"`
			ServiceNetwork []string         `json:"serviceNetwork"`
		} `json:"networking"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Compute []struct {
			Hyperthreading string `json:"hyperthreading,omitempty"`
			Name           string `json:"name"`
			Replicas       int    `json:"replicas"`
		} `json:"compute"`
		Platform            Platform            `json:"platform"`
		FIPS                bool                `json:"fips"`
		CPUPartitioningMode CPUPartitioningMode `json:"cpuPartitioningMode,omitempty"`
		ImageDigestSources  []ImageDigestSource `json:"imageDigestSources,omitempty"`
		FeatureSet          configv1.FeatureSet `json:"featureSet,omitempty"`
	}
)

func TestDecodeErrorsAsEncodingJSON(t *testing.T) {
	for _, doc := range []string{
		`{"fips": "yes"}`,
		`{"FIPS": 1}`,
		`{"networking": []}`,
		`{"networking": {"networkType": 3}}`,
		`{"networking": {"clusterNetwork": [{"cidr": "10.128.0.0/14", "hostPrefix": "23"}]}}`,
		`{"networking": {"clusterNetwork": [{"hostPrefix": 23.5}]}}`,
		`{"networking": {"clusterNetwork": [{"hostPrefix": 1e30}]}}`,
		`{"networking": {"clusterNetwork": {}}}`,
		`{"networking": {"clusterNetwork": [3]}}`,
		`{"networking": {"serviceNetwork": "172.30.0.0/16"}}`,
		`{"networking": {"serviceNetwork": [16]}}`,
		`{"metadata": "sno1"}`,
		`{"compute": {}}`,
		`{"compute": [{"replicas": "0"}]}`,
		`{"proxy": "http://proxy"}`,
		`{"proxy": {"httpProxy": true}}`,
		`{"platform": {"baremetal": {"hosts": [{"bmc": {"disableCertificateVerification": "true"}}]}}}`,
		`{"platform": {"baremetal": {"apiVIPs": "192.0.2.1"}}}`,
		`{"platform": []}`,
		`{"cpuPartitioningMode": true}`,
		`{"featureSet": 1}`,
		`{"imageDigestSources": [{"source": "quay.io/a", "mirrors": "m.example.com/a"}]}`,
		`{"imageDigestSources": {"source": "quay.io/a"}}`,
		// The first error in the document's order, whichever it is.
		`{"fips": "yes", "nope": 1}`,
		`{"networking": {"nope": 1}, "fips": "yes"}`,
		// null leaves any field as it is.
		`{"fips": null, "networking": {"clusterNetwork": null}, "compute": [null]}`,
		`{"fips": true, "networking": {"clusterNetwork": [{"cidr": "10.128.0.0/14", "hostPrefix": 23}]}, "compute": [{"replicas": 0}]}`,
	} {
		var v InstallerConfigBaremetal
		dec := json.NewDecoder(strings.NewReader(doc))
		dec.DisallowUnknownFields()
		want := ""
		if err := dec.Decode(&v); err != nil {
			want = strings.ReplaceAll(err.Error(), "inputs.", "installcfg.")
		}
		got := ""
		if e, ok := firstDecodeError(doc, assistedInstallConfig); ok {
			got = e.Message
		}
		if got != want {
			t.Errorf("%s:\n got  %s\n want %s", doc, got, want)
		}
	}
}
