package manifest

import (
	"encoding/json"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

// newTyped returns a pointer to a zero value of the API type of k, nil for
// a kind without one.
func newTyped(k Kind) any {
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
	}
	return nil
}

// decodeAs decodes content into a new value of the API type of k. Going
// through JSON is what the API server does, so a type mismatch gives the
// same verdict a user would get from `oc apply`.
func decodeAs(k Kind, content map[string]any) (any, error) {
	v := newTyped(k)
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
	v, err := decodeAs(o.Kind, o.Content)
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
	}
	return nil
}
