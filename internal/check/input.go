package check

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// Input is a render.Input plus the way back from its slices to the objects.
type Input struct {
	render.Input
	// FeatureSet is the feature set the cluster runs with ("Default" when
	// neither the settings nor FeatureGate/cluster say otherwise).
	FeatureSet string
	// DefaultPolicyNote says why the default "openshift"
	// ClusterImagePolicy was assumed (Input.DefaultPolicy) or left out
	// although the release installs one; "" when the release has none.
	DefaultPolicyNote string
	// Unfilled are the objects left out because they still hold a
	// reference configuration's placeholders (manifest.Placeholder):
	// what they will say once filled in is unknown.
	Unfilled []*manifest.Object

	icsps, idmss, itmss []*manifest.Object
	cips, ips           []*manifest.Object
	image               *manifest.Object
	registryCA          *manifest.Object
}

// Feature sets that change which signature policy API a cluster serves.
const (
	FeatureSetDefault     = "Default"
	FeatureSetTechPreview = "TechPreviewNoUpgrade"
	FeatureSetDevPreview  = "DevPreviewNoUpgrade"
	FeatureSetCustom      = "CustomNoUpgrade"
)

// BuildInput collects what MCO would read: every known ICSP, IDMS and ITMS,
// the Image named "cluster" (MCO reads no other), and the ClusterImagePolicy
// and ImagePolicy objects the cluster serves under their apiVersion (see
// PolicyServed). Of several objects with one kind and name only the last one
// counts, as in the cluster, where each apply replaces the object the
// previous one created (see Applied). With no Image/cluster the spec is
// taken as empty, because every cluster has that object. The default
// "openshift" ClusterImagePolicy is added when the release installs it
// (render.DefaultPolicyInstalled) unless the settings turn it off or
// ClusterVersion/version marks it unmanaged. s is settled (see
// cluster.Settings): its version is the one the input carries.
func BuildInput(objs []*manifest.Object, s cluster.Settings) *Input {
	in := &Input{}
	in.Version = s.Version
	in.ReleaseImage = s.ReleaseImage
	in.FeatureSet = EffectiveFeatureSet(objs, s)
	for _, o := range Applied(objs) {
		if len(o.Placeholders) > 0 {
			in.Unfilled = append(in.Unfilled, o)
			continue
		}
		switch o.Kind {
		case manifest.KindICSP:
			in.ICSPs = append(in.ICSPs, o.ICSP)
			in.icsps = append(in.icsps, o)
		case manifest.KindIDMS:
			in.IDMSs = append(in.IDMSs, o.IDMS)
			in.idmss = append(in.idmss, o)
		case manifest.KindITMS:
			in.ITMSs = append(in.ITMSs, o.ITMS)
			in.itmss = append(in.itmss, o)
		case manifest.KindImage:
			if o.Name == "cluster" {
				in.image = o
				in.Image = &o.Image.Spec
			}
		case manifest.KindClusterImagePolicy:
			if PolicyServed(in.Version, in.FeatureSet, o.APIVersion) {
				in.ClusterImagePolicies = append(in.ClusterImagePolicies, o.ClusterImagePolicy)
				in.cips = append(in.cips, o)
			}
		case manifest.KindImagePolicy:
			if PolicyServed(in.Version, in.FeatureSet, o.APIVersion) {
				in.ImagePolicies = append(in.ImagePolicies, o.ImagePolicy)
				in.ips = append(in.ips, o)
			}
		}
	}
	in.DefaultPolicy, in.DefaultPolicyNote = defaultPolicy(objs, s, in.Version, in.FeatureSet)
	if in.Image != nil && in.Image.AdditionalTrustedCA.Name != "" {
		if cm := RegistryCAConfigMap(objs, in.Image.AdditionalTrustedCA.Name); cm != nil {
			in.registryCA = cm
			in.RegistryCAs = ConfigMapData(cm)
		}
	}
	return in
}

// RegistryCA is the ConfigMap the registry CAs come from (see
// RegistryCAConfigMap), nil when the tree does not hold it.
func (in *Input) RegistryCA() *manifest.Object { return in.registryCA }

// RegistryCAConfigMap is the ConfigMap name in openshift-config, where
// Image/cluster spec.additionalTrustedCA is looked up (the last one, as
// each apply replaces the one before); nil when the tree does not hold it.
func RegistryCAConfigMap(objs []*manifest.Object, name string) *manifest.Object {
	var last *manifest.Object
	for _, o := range objs {
		if o.Kind == manifest.KindConfigMap && o.APIVersion == "v1" && o.Name == name && o.Namespace() == manifest.NamespaceOpenShiftConfig && o.Content != nil {
			last = o
		}
	}
	return last
}

// ConfigMapData is a ConfigMap's data as the API server stores it: string
// values only (a YAML number or boolean is refused there, and left out
// here).
func ConfigMapData(o *manifest.Object) map[string]string {
	data, _ := o.Content["data"].(map[string]any)
	out := make(map[string]string, len(data))
	for k, v := range data {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// EffectiveFeatureSet is the settings' feature set, else the one
// FeatureGate/cluster declares, else Default.
func EffectiveFeatureSet(objs []*manifest.Object, s cluster.Settings) string {
	if s.FeatureSet != "" {
		return s.FeatureSet
	}
	if fg := FeatureGateObject(objs); fg != nil && fg.FeatureGate.Spec.FeatureSet != "" {
		return string(fg.FeatureGate.Spec.FeatureSet)
	}
	return FeatureSetDefault
}

// FeatureGateObject is FeatureGate/cluster, nil when the tree has none.
func FeatureGateObject(objs []*manifest.Object) *manifest.Object {
	for _, o := range objs {
		if o.Known && o.Kind == manifest.KindFeatureGate && o.Name == "cluster" {
			return o
		}
	}
	return nil
}

// PolicyServed reports whether a cluster of release v with featureSet
// serves ClusterImagePolicy/ImagePolicy under apiVersion and MCO acts on
// them: config.openshift.io/v1 from 4.20 (GA); v1alpha1 on 4.18–4.19 only
// behind the SigstoreImageVerification feature gate, which
// TechPreviewNoUpgrade and DevPreviewNoUpgrade enable (a CustomNoUpgrade
// cluster is taken to enable it too).
func PolicyServed(v render.Version, featureSet, apiVersion string) bool {
	switch apiVersion {
	case manifest.KindClusterImagePolicy.APIVersion():
		return v.AtLeast(20)
	case manifest.APIVersionV1Alpha1:
		return v.AtLeast(18) && !v.AtLeast(20) && PreviewFeatureSet(featureSet)
	}
	return false
}

// PreviewFeatureSet reports whether featureSet enables the feature gates
// of a technology preview.
func PreviewFeatureSet(featureSet string) bool {
	return featureSet == FeatureSetTechPreview || featureSet == FeatureSetDevPreview || featureSet == FeatureSetCustom
}

// defaultPolicy decides whether the default ClusterImagePolicy exists, and
// says why in a sentence for the render header and `clusters`.
func defaultPolicy(objs []*manifest.Object, s cluster.Settings, v render.Version, featureSet string) (bool, string) {
	if !render.DefaultPolicyInstalled(v, featureSet) {
		return false, ""
	}
	where := "every self-managed cluster"
	if !v.AtLeast(21) {
		where = featureSet + " clusters"
	}
	name := fmt.Sprintf("default ClusterImagePolicy %q", render.DefaultPolicyName)
	if s.NoDefaultPolicy {
		return false, name + " left out: the settings say this cluster has none (defaultClusterImagePolicy: false or --no-default-cluster-image-policy)"
	}
	if o := DefaultPolicyOverride(objs); o != nil {
		return false, fmt.Sprintf("%s left out: %s marks it unmanaged (spec.overrides)", name, o.Ref())
	}
	return true, fmt.Sprintf("%s assumed: OpenShift %s installs it on %s (scope %s, Red Hat's release key); it is not in the tree", name, v, where, render.DefaultPolicyScope)
}

// DefaultPolicyOverride returns ClusterVersion/version when its
// spec.overrides marks the default ClusterImagePolicy unmanaged (the
// administrator took it over or deleted it), else nil.
func DefaultPolicyOverride(objs []*manifest.Object) *manifest.Object {
	for _, o := range objs {
		if !o.Known || o.Kind != manifest.KindClusterVersion || o.Name != "version" {
			continue
		}
		for _, ov := range o.ClusterVersion.Spec.Overrides {
			if ov.Kind == string(manifest.KindClusterImagePolicy) && ov.Group == "config.openshift.io" &&
				ov.Name == render.DefaultPolicyName && ov.Namespace == "" && ov.Unmanaged {
				return o
			}
		}
	}
	return nil
}

// Object returns the object a render subject names, or nil.
func (in *Input) Object(s render.Subject) *manifest.Object {
	pick := func(list []*manifest.Object) *manifest.Object {
		if s.Index >= 0 && s.Index < len(list) {
			return list[s.Index]
		}
		return nil
	}
	switch manifest.Kind(s.Kind) {
	case manifest.KindICSP:
		return pick(in.icsps)
	case manifest.KindIDMS:
		return pick(in.idmss)
	case manifest.KindITMS:
		return pick(in.itmss)
	case manifest.KindImage:
		return in.image
	case manifest.KindClusterImagePolicy:
		return pick(in.cips)
	case manifest.KindImagePolicy:
		return pick(in.ips)
	}
	return nil
}

// ImageObject is the Image/cluster object, nil when the tree has none.
func (in *Input) ImageObject() *manifest.Object { return in.image }

// PKIServed reports whether a cluster of release v with featureSet accepts
// the PKI root of trust in signature policies (the
// SigstoreImageVerificationPKI feature gate): Default from 4.21,
// TechPreviewNoUpgrade from 4.20, DevPreviewNoUpgrade from 4.19
// (CustomNoUpgrade counted as able to enable it). The CRD of a cluster
// without it has no pki field and no PKI value.
func PKIServed(v render.Version, featureSet string) bool {
	switch {
	case v.AtLeast(21):
		return true
	case v.AtLeast(20):
		return PreviewFeatureSet(featureSet)
	case v.AtLeast(19):
		return featureSet == FeatureSetDevPreview || featureSet == FeatureSetCustom
	}
	return false
}

// PolicyObjects returns the ClusterImagePolicy and ImagePolicy objects the
// render used (those the cluster serves), in Input order.
func (in *Input) PolicyObjects() (cips, ips []*manifest.Object) { return in.cips, in.ips }
