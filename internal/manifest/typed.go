package manifest

import (
	"encoding/json"

	configv1 "github.com/openshift/api/config/v1"
	configv1alpha1 "github.com/openshift/api/config/v1alpha1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// newTyped returns a pointer to a zero value of the API type of k (under
// apiVersion, for the kinds served under two), nil for a kind without one.
func newTyped(k Kind, apiVersion string) any {
	switch k {
	case KindICSP:
		return new(operatorv1alpha1.ImageContentSourcePolicy)
	case KindIDMS:
		return new(configv1.ImageDigestMirrorSet)
	case KindITMS:
		return new(configv1.ImageTagMirrorSet)
	case KindImage:
		return new(configv1.Image)
	case KindMachineConfig:
		return new(mcfgv1.MachineConfig)
	case KindFeatureGate:
		return new(configv1.FeatureGate)
	case KindClusterVersion:
		return new(configv1.ClusterVersion)
	case KindMachineConfiguration:
		return new(operatorv1.MachineConfiguration)
	case KindClusterImagePolicy:
		if apiVersion == APIVersionV1Alpha1 {
			return new(configv1alpha1.ClusterImagePolicy)
		}
		return new(configv1.ClusterImagePolicy)
	case KindImagePolicy:
		if apiVersion == APIVersionV1Alpha1 {
			return new(configv1alpha1.ImagePolicy)
		}
		return new(configv1.ImagePolicy)
	}
	return nil
}

// decodeAs decodes content into a new value of the API type of k. Going
// through JSON is what the API server does, so a type mismatch gives the
// same verdict a user would get from `oc apply`.
func decodeAs(k Kind, apiVersion string, content map[string]any) (any, error) {
	v := newTyped(k, apiVersion)
	if v == nil {
		return nil, nil
	}
	raw, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeTyped fills the typed pointer for a known kind.
func (o *Object) decodeTyped() error {
	content := o.Content
	if o.Kind == KindClusterImagePolicy || o.Kind == KindImagePolicy {
		content = o.scopesAsWritten()
	}
	v, err := decodeAs(o.Kind, o.APIVersion, content)
	if err != nil {
		return err
	}
	switch v := v.(type) {
	case *operatorv1alpha1.ImageContentSourcePolicy:
		o.ICSP = v
	case *configv1.ImageDigestMirrorSet:
		o.IDMS = v
	case *configv1.ImageTagMirrorSet:
		o.ITMS = v
	case *configv1.Image:
		o.Image = v
	case *mcfgv1.MachineConfig:
		o.MachineConfig = v
	case *configv1.FeatureGate:
		o.FeatureGate = v
	case *configv1.ClusterVersion:
		o.ClusterVersion = v
	case *operatorv1.MachineConfiguration:
		o.MachineConfiguration = v
	case *configv1.ClusterImagePolicy:
		o.ClusterImagePolicy = v
	case *configv1.ImagePolicy:
		o.ImagePolicy = v
	case *configv1alpha1.ClusterImagePolicy:
		o.ClusterImagePolicy = &configv1.ClusterImagePolicy{TypeMeta: v.TypeMeta, ObjectMeta: v.ObjectMeta,
			Spec: configv1.ClusterImagePolicySpec{Scopes: scopesV1(v.Spec.Scopes), Policy: policyV1(v.Spec.Policy)}}
	case *configv1alpha1.ImagePolicy:
		o.ImagePolicy = &configv1.ImagePolicy{TypeMeta: v.TypeMeta, ObjectMeta: v.ObjectMeta,
			Spec: configv1.ImagePolicySpec{Scopes: scopesV1(v.Spec.Scopes), Policy: policyV1(v.Spec.Policy)}}
	}
	return nil
}

// scopesAsWritten returns Content with every spec.scopes item that YAML
// read as a number or boolean (an unquoted 123.45) replaced by its text,
// which is how a typed YAML decoder (sigs.k8s.io/yaml into the Go type, as
// MCO's own tooling reads manifests) takes it. The API server gets a number
// from `oc apply` and refuses the object; Content keeps the number so that
// the schema check reports exactly that, while the render shows what MCO
// would do with the scope.
func (o *Object) scopesAsWritten() map[string]any {
	spec, _ := o.Content["spec"].(map[string]any)
	list, _ := spec["scopes"].([]any)
	var fixed []any
	for i, item := range list {
		switch item.(type) {
		case float64, int, int64, bool:
		default:
			continue
		}
		n := o.nodeAt(Path{"spec", "scopes", i})
		if n == nil || n.Kind != yaml.ScalarNode {
			continue
		}
		if fixed == nil {
			fixed = append([]any(nil), list...)
		}
		fixed[i] = n.Value
	}
	if fixed == nil {
		return o.Content
	}
	c := make(map[string]any, len(o.Content))
	for k, v := range o.Content {
		c[k] = v
	}
	s := make(map[string]any, len(spec))
	for k, v := range spec {
		s[k] = v
	}
	s["scopes"] = fixed
	c["spec"] = s
	return c
}
