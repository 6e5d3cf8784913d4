package manifest

import (
	configv1 "github.com/openshift/api/config/v1"
	configv1alpha1 "github.com/openshift/api/config/v1alpha1"
)

// The v1alpha1 signature policy types (4.18–4.19 TechPreviewNoUpgrade)
// differ from config/v1 only in signedIdentity, a value there and a pointer
// here. MCO 4.18–4.19 read a v1alpha1 signedIdentity whose matchPolicy is
// empty as MatchRepoDigestOrExact, whatever else it held, which is what a
// nil v1 signedIdentity means to MCO 4.20+: the conversion maps it so.

func scopesV1(in []configv1alpha1.ImageScope) []configv1.ImageScope {
	if in == nil {
		return nil
	}
	out := make([]configv1.ImageScope, len(in))
	for i, s := range in {
		out[i] = configv1.ImageScope(s)
	}
	return out
}

func policyV1(p configv1alpha1.Policy) configv1.Policy {
	out := configv1.Policy{RootOfTrust: configv1.PolicyRootOfTrust{PolicyType: configv1.PolicyType(p.RootOfTrust.PolicyType)}}
	if k := p.RootOfTrust.PublicKey; k != nil {
		out.RootOfTrust.PublicKey = &configv1.PublicKey{KeyData: k.KeyData, RekorKeyData: k.RekorKeyData}
	}
	if f := p.RootOfTrust.FulcioCAWithRekor; f != nil {
		out.RootOfTrust.FulcioCAWithRekor = &configv1.FulcioCAWithRekor{
			FulcioCAData: f.FulcioCAData, RekorKeyData: f.RekorKeyData,
			FulcioSubject: configv1.PolicyFulcioSubject{OIDCIssuer: f.FulcioSubject.OIDCIssuer, SignedEmail: f.FulcioSubject.SignedEmail},
		}
	}
	if k := p.RootOfTrust.PKI; k != nil {
		out.RootOfTrust.PKI = &configv1.PKI{
			CertificateAuthorityRootsData:         k.CertificateAuthorityRootsData,
			CertificateAuthorityIntermediatesData: k.CertificateAuthorityIntermediatesData,
			PKICertificateSubject:                 configv1.PKICertificateSubject{Email: k.PKICertificateSubject.Email, Hostname: k.PKICertificateSubject.Hostname},
		}
	}
	if id := p.SignedIdentity; id.MatchPolicy != "" {
		out.SignedIdentity = &configv1.PolicyIdentity{MatchPolicy: configv1.IdentityMatchPolicy(id.MatchPolicy)}
		if e := id.PolicyMatchExactRepository; e != nil {
			out.SignedIdentity.PolicyMatchExactRepository = &configv1.PolicyMatchExactRepository{Repository: configv1.IdentityRepositoryPrefix(e.Repository)}
		}
		if r := id.PolicyMatchRemapIdentity; r != nil {
			out.SignedIdentity.PolicyMatchRemapIdentity = &configv1.PolicyMatchRemapIdentity{
				Prefix: configv1.IdentityRepositoryPrefix(r.Prefix), SignedPrefix: configv1.IdentityRepositoryPrefix(r.SignedPrefix)}
		}
	}
	return out
}
