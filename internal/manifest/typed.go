package manifest

import (
	"encoding/json"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

// decodeTyped fills the typed pointer for a known kind. Going through JSON
// is what the API server does, so a type mismatch gives the same message a
// user would see from `oc apply`.
func (o *Object) decodeTyped() error {
	raw, err := json.Marshal(o.Content)
	if err != nil {
		return err
	}
	switch o.Kind {
	case KindICSP:
		var v operatorv1alpha1.ImageContentSourcePolicy
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		o.ICSP = &v
	case KindIDMS:
		var v configv1.ImageDigestMirrorSet
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		o.IDMS = &v
	case KindITMS:
		var v configv1.ImageTagMirrorSet
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		o.ITMS = &v
	case KindImage:
		var v configv1.Image
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		o.Image = &v
	case KindMachineConfig:
		var v mcfgv1.MachineConfig
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		o.MachineConfig = &v
	}
	return nil
}
