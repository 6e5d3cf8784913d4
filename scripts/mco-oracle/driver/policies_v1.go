//go:build ignore

// The signature policy half of the driver for MCO 4.20 and later, whose
// controller reads config.openshift.io/v1 objects.

package containerruntimeconfig

import (
	"context"
	"encoding/json"

	"github.com/containers/image/v5/signature"
	apicfgv1 "github.com/openshift/api/config/v1"
	fakeconfigclient "github.com/openshift/client-go/config/clientset/versioned/fake"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func oracleScopePolicies(c *OracleCase) (map[string]signature.PolicyRequirements, map[string]map[string]signature.PolicyRequirements, []string, error) {
	var cips []*apicfgv1.ClusterImagePolicy
	for _, raw := range c.ClusterImagePolicies {
		p := &apicfgv1.ClusterImagePolicy{}
		if err := json.Unmarshal(raw, p); err != nil {
			return nil, nil, nil, err
		}
		cips = append(cips, p)
	}
	var ips []*apicfgv1.ImagePolicy
	var objs []runtime.Object
	for _, raw := range c.ImagePolicies {
		p := &apicfgv1.ImagePolicy{}
		if err := json.Unmarshal(raw, p); err != nil {
			return nil, nil, nil, err
		}
		ips = append(ips, p)
		objs = append(objs, p.DeepCopy())
	}
	client := fakeconfigclient.NewSimpleClientset(objs...)
	clusterScope, namespaced, err := getValidScopePolicies(cips, ips, &Controller{configClient: client})
	var statuses []string
	for _, p := range ips {
		got, gerr := client.ConfigV1().ImagePolicies(p.Namespace).Get(context.TODO(), p.Name, metav1.GetOptions{})
		if gerr != nil {
			continue
		}
		for _, cond := range got.Status.Conditions {
			statuses = append(statuses, oracleStatus(p.Namespace, p.Name, cond))
		}
	}
	return clusterScope, namespaced, statuses, err
}
