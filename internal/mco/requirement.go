package mco

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/containers/image/v5/docker/reference"
	configv1 "github.com/openshift/api/config/v1"
)

// The policy.json requirement types MCO writes, shaped like containers/image's
// signature package so that encoding/json produces the same bytes: field
// order, names, omitempty and the base64 encoding of []byte all follow the
// structs MCO vendors (signature/policy_types.go). signature itself is not
// imported (see policy.go).

// prSimple is a requirement without parameters: insecureAcceptAnything or
// reject.
type prSimple struct {
	Type string `json:"type"`
}

// prSigstoreSigned is the sigstoreSigned requirement. The key sources MCO
// never sets (keyPath, keyPaths, keyDatas, the rekor paths) are left out:
// they are omitempty in the original and always empty here.
type prSigstoreSigned struct {
	Type               string    `json:"type"`
	KeyData            []byte    `json:"keyData,omitempty"`
	Fulcio             *prFulcio `json:"fulcio,omitempty"`
	RekorPublicKeyData []byte    `json:"rekorPublicKeyData,omitempty"`
	// PKI is a *prPKI (4.20+) or a *prPKI419 (4.19), nil when unset.
	PKI            any `json:"pki,omitempty"`
	SignedIdentity any `json:"signedIdentity"`
}

type prFulcio struct {
	CAData       []byte `json:"caData,omitempty"`
	OIDCIssuer   string `json:"oidcIssuer,omitempty"`
	SubjectEmail string `json:"subjectEmail,omitempty"`
}

// prPKI is the pki block as containers/image v5.35 (MCO 4.20+) encodes it.
type prPKI struct {
	CARootsPath         string `json:"caRootsPath,omitempty"`
	CARootsData         []byte `json:"caRootsData,omitempty"`
	CAIntermediatesPath string `json:"caIntermediatesPath,omitempty"`
	CAIntermediatesData []byte `json:"caIntermediatesData,omitempty"`
	SubjectEmail        string `json:"subjectEmail,omitempty"`
	SubjectHostname     string `json:"subjectHostname,omitempty"`
}

// prPKI419 is the same block in containers/image v5.34 (MCO 4.19), whose
// fields had no omitempty: empty paths and subjects are written as "", a
// missing intermediates bundle as null.
type prPKI419 struct {
	CARootsPath         string `json:"caRootsPath"`
	CARootsData         []byte `json:"caRootsData"`
	CAIntermediatesPath string `json:"caIntermediatesPath"`
	CAIntermediatesData []byte `json:"caIntermediatesData"`
	SubjectEmail        string `json:"subjectEmail"`
	SubjectHostname     string `json:"subjectHostname"`
}

type prmSimple struct {
	Type string `json:"type"`
}

type prmExactRepository struct {
	Type             string `json:"type"`
	DockerRepository string `json:"dockerRepository"`
}

type prmRemapIdentity struct {
	Type         string `json:"type"`
	Prefix       string `json:"prefix"`
	SignedPrefix string `json:"signedPrefix"`
}

var (
	reqAcceptAnything any = &prSimple{Type: "insecureAcceptAnything"}
	reqReject         any = &prSimple{Type: "reject"}
)

// policyError is a requirement MCO cannot build (getValidScopePolicies
// returns it bare, before any file is rendered).
type policyError struct {
	msg  string
	path string // field path inside the policy object, for the subject
}

// requirementFor builds the sigstoreSigned requirement MCO derives from a
// policy (policyItemFromSpec), with the checks containers/image's
// constructors make, worded as the release v vendors them. A root of trust
// whose block is missing (the CRD forbids it) is reported instead of the
// nil dereference that crashes MCO.
func requirementFor(p configv1.Policy, v Version) (any, *policyError) {
	const root = "spec.policy.rootOfTrust"
	pr := &prSigstoreSigned{Type: "sigstoreSigned"}
	sources := 0
	rekor := 0
	switch p.RootOfTrust.PolicyType {
	case configv1.PublicKeyRootOfTrust:
		k := p.RootOfTrust.PublicKey
		if k == nil {
			return nil, &policyError{"publicKey is required when policyType is PublicKey; MCO would crash on this object", root}
		}
		pr.KeyData = k.KeyData
		if k.KeyData != nil {
			sources++
		}
		if len(k.RekorKeyData) > 0 {
			pr.RekorPublicKeyData = k.RekorKeyData
			rekor++
		}
	case configv1.FulcioCAWithRekorRootOfTrust:
		f := p.RootOfTrust.FulcioCAWithRekor
		if f == nil {
			return nil, &policyError{"fulcioCAWithRekor is required when policyType is FulcioCAWithRekor; MCO would crash on this object", root}
		}
		switch {
		case f.FulcioCAData == nil:
			return nil, &policyError{"At least one of caPath and caData must be specified", root + ".fulcioCAWithRekor.fulcioCAData"}
		case f.FulcioSubject.OIDCIssuer == "":
			return nil, &policyError{"oidcIssuer not specified", root + ".fulcioCAWithRekor.fulcioSubject.oidcIssuer"}
		case f.FulcioSubject.SignedEmail == "":
			return nil, &policyError{"subjectEmail not specified", root + ".fulcioCAWithRekor.fulcioSubject.signedEmail"}
		}
		pr.Fulcio = &prFulcio{CAData: f.FulcioCAData, OIDCIssuer: f.FulcioSubject.OIDCIssuer, SubjectEmail: f.FulcioSubject.SignedEmail}
		sources++
		pr.RekorPublicKeyData = f.RekorKeyData
		if f.RekorKeyData != nil {
			rekor++
		}
	case configv1.PKIRootOfTrust:
		// MCO 4.18 has no PKI case: the requirement ends up without a key.
		if !v.AtLeast(19) {
			break
		}
		k := p.RootOfTrust.PKI
		if k == nil {
			return nil, &policyError{"pki is required when policyType is PKI; MCO would crash on this object", root}
		}
		switch {
		case k.CertificateAuthorityRootsData == nil:
			return nil, &policyError{"At least one of caRootsPath and caRootsData must be specified", root + ".pki.caRootsData"}
		case k.PKICertificateSubject.Email == "" && k.PKICertificateSubject.Hostname == "":
			return nil, &policyError{"At least one of subjectEmail, subjectHostname must be specified", root + ".pki.pkiCertificateSubject"}
		}
		var inter []byte
		if len(k.CertificateAuthorityIntermediatesData) > 0 {
			inter = k.CertificateAuthorityIntermediatesData
		}
		if v.AtLeast(20) {
			pr.PKI = &prPKI{CARootsData: k.CertificateAuthorityRootsData, CAIntermediatesData: inter,
				SubjectEmail: k.PKICertificateSubject.Email, SubjectHostname: k.PKICertificateSubject.Hostname}
		} else {
			pr.PKI = &prPKI419{CARootsData: k.CertificateAuthorityRootsData, CAIntermediatesData: inter,
				SubjectEmail: k.PKICertificateSubject.Email, SubjectHostname: k.PKICertificateSubject.Hostname}
		}
		sources++
	}

	id, err := signedIdentity(p.SignedIdentity)
	if err != nil {
		return nil, err
	}
	pr.SignedIdentity = id

	if sources != 1 {
		msg := "exactly one of keyPath, keyPaths, keyData, keyDatas, fulcio, and pki must be specified"
		if !v.AtLeast(19) {
			msg = "exactly one of keyPath, keyData and fulcio must be specified"
		}
		return nil, &policyError{msg, root}
	}
	if pr.Fulcio != nil && rekor == 0 {
		msg := "At least one of rekorPublickeyPath, rekorPublicKeyPaths, rekorPublickeyData and rekorPublicKeyDatas must be specified if fulcio is used"
		if !v.AtLeast(19) {
			msg = "At least one of RekorPublickeyPath and RekorPublickeyData must be specified if fulcio is used"
		}
		return nil, &policyError{msg, root + ".fulcioCAWithRekor.rekorKeyData"}
	}
	return pr, nil
}

// signedIdentity is the signedIdentity MCO 4.20+ writes for p (a nil one
// means matchRepoDigestOrExact; v1alpha1 objects arrive converted so that
// 4.18–4.19 behave the same).
func signedIdentity(id *configv1.PolicyIdentity) (any, *policyError) {
	const at = "spec.policy.signedIdentity"
	if id == nil {
		return &prmSimple{Type: "matchRepoDigestOrExact"}, nil
	}
	switch id.MatchPolicy {
	case configv1.IdentityMatchPolicyRemapIdentity:
		r := id.PolicyMatchRemapIdentity
		if r == nil {
			return nil, &policyError{"remapIdentity is required when matchPolicy is RemapIdentity; MCO would crash on this object", at}
		}
		for _, p := range []struct {
			v    string
			path string
		}{{string(r.Prefix), ".remapIdentity.prefix"}, {string(r.SignedPrefix), ".remapIdentity.signedPrefix"}} {
			if !validRemapPrefix(p.v) {
				return nil, &policyError{fmt.Sprintf("error getting signedIdentity for %s: prefix %q is not valid", configv1.IdentityMatchPolicyRemapIdentity, p.v), at + p.path}
			}
		}
		return &prmRemapIdentity{Type: "remapIdentity", Prefix: string(r.Prefix), SignedPrefix: string(r.SignedPrefix)}, nil
	case configv1.IdentityMatchPolicyExactRepository:
		e := id.PolicyMatchExactRepository
		if e == nil {
			return nil, &policyError{"exactRepository is required when matchPolicy is ExactRepository; MCO would crash on this object", at}
		}
		repo := string(e.Repository)
		if _, err := reference.ParseNormalizedNamed(repo); err != nil {
			return nil, &policyError{fmt.Sprintf("error getting signedIdentity for %s: Invalid format of dockerRepository %q: %s", configv1.IdentityMatchPolicyExactRepository, repo, err.Error()), at + ".exactRepository.repository"}
		}
		return &prmExactRepository{Type: "exactRepository", DockerRepository: repo}, nil
	case configv1.IdentityMatchPolicyMatchRepository:
		return &prmSimple{Type: "matchRepository"}, nil
	case configv1.IdentityMatchPolicyMatchRepoDigestOrExact:
		return &prmSimple{Type: "matchRepoDigestOrExact"}, nil
	}
	return nil, &policyError{fmt.Sprintf("unknown signedIdentity match policy: %s", id.MatchPolicy), at + ".matchPolicy"}
}

// validRemapPrefix is containers/image's check of a remapIdentity prefix: a
// host[:port] alone, or a repository name that starts with one.
func validRemapPrefix(s string) bool {
	re := remapRegexps()
	return re.domain.MatchString(s) || (re.name.MatchString(s) && re.domainPrefix.MatchString(s))
}

var remapRegexps = sync.OnceValue(func() struct{ domain, name, domainPrefix *regexp.Regexp } {
	d, n := reference.DomainRegexp.String(), reference.NameRegexp.String()
	return struct{ domain, name, domainPrefix *regexp.Regexp }{
		regexp.MustCompile("^" + d + "$"), regexp.MustCompile("^" + n + "$"), regexp.MustCompile("^" + d + "/"),
	}
})

// PolicyProblems lists, for every ClusterImagePolicy and ImagePolicy the
// plan renders (in Input order; the default policy is MCO's own and has
// none), the reason MCO cannot turn its policy into a signature
// requirement, with the offending field as the subject. MCO refuses the
// render at the first one, before writing anything.
func (p *Plan) PolicyProblems() []Finding {
	if !p.v.AtLeast(18) {
		return nil
	}
	var out []Finding
	add := func(kind string, i int, pol configv1.Policy) {
		if _, err := requirementFor(pol, p.v); err != nil {
			out = append(out, Finding{Message: err.msg, Subject: Subject{Kind: kind, Index: i, Path: err.path}})
		}
	}
	for i, c := range p.in.ClusterImagePolicies {
		if c != nil && !(p.in.DefaultPolicy && c.Name == DefaultPolicyName) {
			add(KindClusterImagePolicy, i, c.Spec.Policy)
		}
	}
	for i, ip := range p.in.ImagePolicies {
		if ip != nil {
			add(KindImagePolicy, i, ip.Spec.Policy)
		}
	}
	return out
}
