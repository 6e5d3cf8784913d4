//go:build ignore

// mirrorlint's fidelity driver, the part that lives in MCO's
// container-runtime-config package. scripts/mco-oracle/oracle.sh copies it
// into a temporary copy of an MCO source tree (dropping the build
// constraint above, which keeps it out of mirrorlint's own builds) next to
// one of the policies_*.go files; nothing of it is built into mirrorlint.
//
// OracleRun feeds one cluster through the steps of syncImageConfig, in its
// order, with MCO's own functions: the payload rule on the Image lists,
// the signature policies (with a fake config client, so that the
// ImagePolicy statuses MCO sets can be read back), then the worker pool's
// registries Ignition, whose files it decodes.

package containerruntimeconfig

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	apicfgv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	apioperatorsv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	ctrlcommon "github.com/openshift/machine-config-operator/pkg/controller/common"
)

// OracleCase is one cluster as mirrorlint hands it over: the typed objects
// its loader produced (signature policies in their config/v1 JSON form,
// converted by policies_*.go to the types the branch uses).
type OracleCase struct {
	ReleaseImage         string                                           `json:"releaseImage"`
	Image                apicfgv1.ImageSpec                               `json:"image"`
	ICSPs                []*apioperatorsv1alpha1.ImageContentSourcePolicy `json:"icsps"`
	IDMSs                []*apicfgv1.ImageDigestMirrorSet                 `json:"idmss"`
	ITMSs                []*apicfgv1.ImageTagMirrorSet                    `json:"itmss"`
	ClusterImagePolicies []json.RawMessage                                `json:"clusterImagePolicies"`
	ImagePolicies        []json.RawMessage                                `json:"imagePolicies"`
}

// OracleResult is what MCO did: the files of the registries MachineConfig
// by node path, or the error it logged, plus its warnings and the
// ImagePolicy statuses ("namespace/name: type=… status=… reason=…
// message=…").
type OracleResult struct {
	Error    string            `json:"error,omitempty"`
	Files    map[string][]byte `json:"files,omitempty"`
	Warnings []string          `json:"warnings,omitempty"`
	Statuses []string          `json:"statuses,omitempty"`
}

var oracleLog bytes.Buffer

// OracleInit sends klog's output to a buffer, from which each run takes
// the warnings MCO logs.
func OracleInit() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	// Write each line once, at its own severity (older klog versions also
	// copy a warning into the info stream of the same writer).
	_ = fs.Set("one_output", "true")
	klog.SetOutput(&oracleLog)
}

// OracleRun renders one case.
func OracleRun(templatesDir string, c *OracleCase) (res OracleResult) {
	var payloadErr string
	oracleLog.Reset()
	defer func() {
		// What MCO logs as warnings while still rendering, then the
		// payload rule's error, which the controller logs and skips.
		klog.Flush()
		for _, line := range strings.Split(oracleLog.String(), "\n") {
			if strings.HasPrefix(line, "W") {
				if _, msg, ok := strings.Cut(line, "] "); ok {
					res.Warnings = append(res.Warnings, msg)
				}
			}
		}
		if payloadErr != "" {
			res.Warnings = append(res.Warnings, payloadErr)
		}
	}()

	registriesBlocked, policyBlocked, allowed, err := getValidBlockedAndAllowedRegistries(c.ReleaseImage, &c.Image, c.ICSPs, c.IDMSs)
	if err == errParsingReference {
		res.Error = err.Error()
		return res
	}
	if err != nil {
		payloadErr = err.Error()
	}

	clusterScope, namespaced, statuses, err := oracleScopePolicies(c)
	res.Statuses = statuses
	if err != nil {
		res.Error = err.Error()
		return res
	}

	ign, err := registriesConfigIgnition(templatesDir, oracleControllerConfig(), "worker", c.ReleaseImage,
		c.Image.RegistrySources.InsecureRegistries, registriesBlocked, policyBlocked, allowed,
		c.Image.RegistrySources.ContainerRuntimeSearchRegistries, c.ICSPs, c.IDMSs, c.ITMSs, clusterScope, namespaced)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Files = map[string][]byte{}
	for _, f := range ign.Storage.Files {
		data, err := ctrlcommon.DecodeIgnitionFileContents(f.Contents.Source, f.Contents.Compression)
		if err != nil {
			res.Error = fmt.Sprintf("oracle: decoding %s: %v", f.Path, err)
			return res
		}
		res.Files[f.Path] = data
	}
	return res
}

// oracleControllerConfig is the least the worker templates need.
func oracleControllerConfig() *mcfgv1.ControllerConfig {
	return &mcfgv1.ControllerConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "machine-config-controller"},
		Spec: mcfgv1.ControllerConfigSpec{
			Infra: &apicfgv1.Infrastructure{Status: apicfgv1.InfrastructureStatus{
				PlatformStatus:       &apicfgv1.PlatformStatus{Type: apicfgv1.NonePlatformType},
				EtcdDiscoveryDomain:  "oracle.example",
				APIServerURL:         "https://api.oracle.example:6443",
				APIServerInternalURL: "https://api-int.oracle.example:6443",
			}},
			ReleaseImage: "quay.io/openshift-release-dev/ocp-release:oracle",
		},
	}
}

// oracleStatus formats one condition the way the corpus records it.
func oracleStatus(namespace, name string, c metav1.Condition) string {
	return fmt.Sprintf("%s/%s: type=%s status=%s reason=%s message=%s", namespace, name, c.Type, c.Status, c.Reason, c.Message)
}
