package schema

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The API server's refusals of MachineConfiguration node-disruption
// policies, worded as it words them (the two first are the ndp corpus's
// rejected.txt lines).
func TestMachineConfigurationRefusals(t *testing.T) {
	for _, tc := range []struct{ name, spec, want string }{{
		name: "None not standalone",
		spec: "files: [{path: /etc/x, actions: [{type: None}, {type: Drain}]}]",
		want: `spec.nodeDisruptionPolicy.files[0].actions: Invalid value: "array": None action can only be specified standalone, as it will override any other actions`,
	}, {
		name: "Special is status-only",
		spec: "files: [{path: /etc/containers/registries.conf, actions: [{type: Special}]}]",
		want: `spec.nodeDisruptionPolicy.files[0].actions[0].type: Unsupported value: "Special": supported values: "Reboot", "Drain", "Reload", "Restart", "DaemonReload", "None"`,
	}, {
		name: "Reload without a service",
		spec: "units: [{name: chronyd.service, actions: [{type: Reload}]}]",
		want: `spec.nodeDisruptionPolicy.units[0].actions[0]: Invalid value: "object": reload is required when type is Reload, and forbidden otherwise`,
	}, {
		name: "service without a unit suffix",
		spec: "sshkey: {actions: [{type: Restart, restart: {serviceName: crio.conf}}]}",
		want: `spec.nodeDisruptionPolicy.sshkey.actions[0].restart.serviceName: Invalid value: "string": Invalid ${SERVICETYPE} in service name. Expected format is ${NAME}${SERVICETYPE}, where ${SERVICETYPE} must be one of ".service", ".socket", ".device", ".mount", ".automount", ".swap", ".target", ".path", ".timer",".snapshot", ".slice" or ".scope".`,
	}, {
		name: "duplicate path",
		spec: "files: [{path: /etc/x, actions: [{type: None}]}, {path: /etc/x, actions: [{type: Drain}]}]",
		want: `spec.nodeDisruptionPolicy.files[1]: Duplicate value: map[string]interface {}{"path":"/etc/x"}`,
	}, {
		name: "valid",
		spec: "files: [{path: /etc/x, actions: [{type: Restart, restart: {serviceName: crio.service}}, {type: DaemonReload}]}]",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var ndp map[string]any
			if err := yaml.Unmarshal([]byte(tc.spec), &ndp); err != nil {
				t.Fatal(err)
			}
			obj := map[string]any{"apiVersion": "operator.openshift.io/v1", "kind": "MachineConfiguration",
				"metadata": map[string]any{"name": "cluster"}, "spec": map[string]any{"nodeDisruptionPolicy": ndp}}
			var got []string
			for _, e := range Validate("MachineConfiguration", obj) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}
