// Package randcluster writes random clusters with image signature policies
// as GitOps manifests: ClusterImagePolicy and ImagePolicy objects next to
// mirror sets, an Image config, and the FeatureGate and ClusterVersion
// objects that decide which policies apply. The values are drawn from a
// small vocabulary chosen to hit MCO's corners (nesting, wildcards, tags
// and digests in scopes, the payload repository, blocked and allowed
// lists), so that a few thousand clusters exercise every branch of the
// renderer. The fidelity harness (scripts/mco-oracle) renders them with
// MCO's code and mirrorlint's; tests use them to check that rules and
// renderer agree.
package randcluster

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Options shape a cluster.
type Options struct {
	// Minor is the OpenShift minor release (18 to 21): 4.18–4.19 policies
	// are written as v1alpha1 next to a TechPreviewNoUpgrade FeatureGate;
	// 4.18 gets no PKI root of trust, which its API does not have.
	Minor int
}

// Cluster is one generated cluster.
type Cluster struct {
	Manifests    string // multi-document YAML
	ReleaseImage string
}

var (
	// Scopes of policies, and Image list entries.
	scopes = []string{
		"quay.io", "quay.io/acme", "quay.io/acme/app", "quay.io/acme/app/sub", "quay.io/acme/team/app/x",
		"quay.io/openshift-release-dev/ocp-release", "quay.io/openshift-release-dev", "quay.io/openshift-release-dev/ocp-v4.0-art-dev",
		"registry.example.com/team", "registry.example.com", "*.example.com", "*.corp.example", "a.corp.example/x",
		"docker.io", "docker.io/library/nginx", "ghcr.io/acme/api:v1", "ghcr.io/acme:v1",
		"quay.io/acme/app@sha256:" + strings.Repeat("ab", 32), "localhost:5000/x", "mirror.corp.example:8443/ocp4",
		"registry.redhat.io/ubi9", "123.45", "registry1.example.com/data", "registry10.example.com/data",
	}
	sources = []string{
		"quay.io/acme", "quay.io/acme/app", "quay.io/openshift-release-dev/ocp-release",
		"quay.io/openshift-release-dev/ocp-v4.0-art-dev", "registry.example.com/team", "*.example.com",
		"docker.io/library", "ghcr.io/acme", "a.corp.example", "registry.redhat.io",
	}
	mirrors = []string{
		"mirror.corp.example:8443/ocp4/release", "mirror.corp.example:8443/acme", "m2.example.net/x",
		"m3.example.net", "mirror.corp.example:8443/ocp4/art", "registry.example.com/team/mirror",
		"quay.io/acme",
	}
	imageScopes = []string{
		"quay.io", "docker.io", "quay.io/openshift-release-dev", "quay.io/openshift-release-dev/ocp-release",
		"quay.io/acme", "registry.example.com", "*.example.com", "ghcr.io", "mirror.corp.example:8443",
		"registry.redhat.io", "m2.example.net", "quay.io/acme/", "http://insecure.example.net",
	}
	releases = []string{
		"quay.io/openshift-release-dev/ocp-release@sha256:" + strings.Repeat("01", 32),
		"quay.io/openshift-release-dev/ocp-release@sha256:" + strings.Repeat("01", 32),
		"quay.io/openshift-release-dev/ocp-release:4.21.0-x86_64",
		"registry.example.com/ocp/release@sha256:" + strings.Repeat("cd", 32),
	}
	cipNames   = []string{"team-signing", "acme", "openshift", "zz-last", "a-first", "openshift-extra"}
	namespaces = []string{"team-a", "team-b", "payments"}
	issuers    = []string{"https://issuer.example/", "https://issuer.example/?a=b&c=<d>", "https://accounts.example.com"}
	identities = []string{"quay.io/acme", "quay.io/acme/app", "registry.example.com", "localhost:5000", "Quay.io/acme", "quay.io/acme:v1"}
)

func pick[T any](r *rand.Rand, l []T) T { return l[r.IntN(len(l))] }

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

// pem returns base64 data of a PEM block of the given type (the key itself
// is not a real one: MCO copies it without parsing).
func pem(r *rand.Rand, kind string) string {
	body := make([]byte, 24+r.IntN(24))
	for i := range body {
		body[i] = byte(r.IntN(256))
	}
	text := fmt.Sprintf("-----BEGIN %s-----\n%s\n-----END %s-----\n", kind, base64.StdEncoding.EncodeToString(body), kind)
	return base64.StdEncoding.EncodeToString([]byte(text))
}

// Generate draws one cluster.
func Generate(r *rand.Rand, o Options) Cluster {
	var b strings.Builder
	apiVersion := "config.openshift.io/v1"
	if o.Minor < 20 {
		apiVersion = "config.openshift.io/v1alpha1"
		b.WriteString("apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec:\n  featureSet: TechPreviewNoUpgrade\n")
	} else if r.IntN(8) == 0 {
		b.WriteString("apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec:\n  featureSet: TechPreviewNoUpgrade\n")
	}
	if r.IntN(4) == 0 {
		b.WriteString("---\napiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  clusterID: 5f1c2a3e-a2c4-4b2d-9c1e-71b35acc39f7\n  overrides:\n  - {kind: ClusterImagePolicy, group: config.openshift.io, name: openshift, namespace: \"\", unmanaged: true}\n")
	}
	mirrorSets(r, &b)
	imageConfig(r, &b)
	used := map[string]bool{}
	for n := r.IntN(4); n > 0; n-- {
		name := pick(r, cipNames)
		if used[name] {
			continue
		}
		used[name] = true
		fmt.Fprintf(&b, "---\napiVersion: %s\nkind: ClusterImagePolicy\nmetadata:\n  name: %s\n", apiVersion, name)
		policySpec(r, &b, o)
	}
	usedIP := map[string]bool{}
	for n := r.IntN(4); n > 0; n-- {
		ns, name := pick(r, namespaces), fmt.Sprintf("p%d", r.IntN(3))
		if usedIP[ns+"/"+name] {
			continue
		}
		usedIP[ns+"/"+name] = true
		fmt.Fprintf(&b, "---\napiVersion: %s\nkind: ImagePolicy\nmetadata:\n  name: %s\n  namespace: %s\n", apiVersion, name, ns)
		policySpec(r, &b, o)
	}
	return Cluster{Manifests: b.String(), ReleaseImage: pick(r, releases)}
}

func mirrorSets(r *rand.Rand, b *strings.Builder) {
	for _, kind := range []string{"ImageDigestMirrorSet", "ImageTagMirrorSet"} {
		if r.IntN(2) == 0 {
			continue
		}
		field := "imageDigestMirrors"
		if kind == "ImageTagMirrorSet" {
			field = "imageTagMirrors"
		}
		fmt.Fprintf(b, "---\napiVersion: config.openshift.io/v1\nkind: %s\nmetadata:\n  name: m%d\nspec:\n  %s:\n", kind, r.IntN(3), field)
		seenSrc := map[string]bool{}
		for n := 1 + r.IntN(3); n > 0; n-- {
			src := pick(r, sources)
			if seenSrc[src] {
				continue
			}
			seenSrc[src] = true
			fmt.Fprintf(b, "  - source: %s\n    mirrors:\n", q(src))
			seen := map[string]bool{}
			for m := 1 + r.IntN(2); m > 0; m-- {
				mir := pick(r, mirrors)
				if seen[mir] {
					continue
				}
				seen[mir] = true
				fmt.Fprintf(b, "    - %s\n", q(mir))
			}
			if r.IntN(6) == 0 {
				b.WriteString("    mirrorSourcePolicy: NeverContactSource\n")
			}
		}
	}
}

func imageConfig(r *rand.Rand, b *strings.Builder) {
	if r.IntN(3) == 0 {
		return
	}
	b.WriteString("---\napiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  registrySources:\n")
	lists := []string{"blockedRegistries", "allowedRegistries", "insecureRegistries"}
	wrote := false
	for i, field := range lists {
		if r.IntN(3) != 0 || (i == 1 && r.IntN(2) == 0) {
			continue
		}
		wrote = true
		fmt.Fprintf(b, "    %s:\n", field)
		seen := map[string]bool{}
		for n := 1 + r.IntN(3); n > 0; n-- {
			s := pick(r, imageScopes)
			if seen[s] {
				continue
			}
			seen[s] = true
			fmt.Fprintf(b, "    - %s\n", q(s))
		}
	}
	if r.IntN(6) == 0 {
		b.WriteString("    containerRuntimeSearchRegistries: [registry.example.com]\n")
	} else if !wrote {
		b.WriteString("    insecureRegistries: [m3.example.net]\n")
	}
}

func policySpec(r *rand.Rand, b *strings.Builder, o Options) {
	b.WriteString("spec:\n  scopes:\n")
	seen := map[string]bool{}
	for n := 1 + r.IntN(4); n > 0; n-- {
		s := pick(r, scopes)
		if seen[s] {
			continue
		}
		seen[s] = true
		fmt.Fprintf(b, "  - %s\n", q(s))
	}
	b.WriteString("  policy:\n    rootOfTrust:\n")
	k := r.IntN(6)
	if k == 5 && o.Minor < 19 {
		k = 0
	}
	switch {
	case k < 3:
		fmt.Fprintf(b, "      policyType: PublicKey\n      publicKey:\n        keyData: %s\n", pem(r, "PUBLIC KEY"))
		if r.IntN(3) == 0 {
			fmt.Fprintf(b, "        rekorKeyData: %s\n", pem(r, "PUBLIC KEY"))
		}
	case k < 5:
		fmt.Fprintf(b, "      policyType: FulcioCAWithRekor\n      fulcioCAWithRekor:\n        fulcioCAData: %s\n        rekorKeyData: %s\n        fulcioSubject:\n          oidcIssuer: %s\n          signedEmail: %s\n",
			pem(r, "CERTIFICATE"), pem(r, "PUBLIC KEY"), q(pick(r, issuers)), q("builds@acme.example"))
	default:
		fmt.Fprintf(b, "      policyType: PKI\n      pki:\n        caRootsData: %s\n", pem(r, "CERTIFICATE"))
		if r.IntN(2) == 0 {
			fmt.Fprintf(b, "        caIntermediatesData: %s\n", pem(r, "CERTIFICATE"))
		}
		b.WriteString("        pkiCertificateSubject:\n")
		switch r.IntN(3) {
		case 0:
			b.WriteString("          email: builds@acme.example\n")
		case 1:
			b.WriteString("          hostname: build.acme.example\n")
		default:
			b.WriteString("          email: builds@acme.example\n          hostname: '*.acme.example'\n")
		}
	}
	switch r.IntN(7) {
	case 0:
		b.WriteString("    signedIdentity:\n      matchPolicy: MatchRepoDigestOrExact\n")
	case 1:
		b.WriteString("    signedIdentity:\n      matchPolicy: MatchRepository\n")
	case 2:
		fmt.Fprintf(b, "    signedIdentity:\n      matchPolicy: ExactRepository\n      exactRepository:\n        repository: %s\n", q(pick(r, identities)))
	case 3:
		fmt.Fprintf(b, "    signedIdentity:\n      matchPolicy: RemapIdentity\n      remapIdentity:\n        prefix: %s\n        signedPrefix: %s\n", q(pick(r, identities)), q(pick(r, identities)))
	}
}
