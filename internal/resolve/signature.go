package resolve

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/containers/image/v5/docker/policyconfiguration"
	"github.com/containers/image/v5/docker/reference"
	yaml "go.yaml.in/yaml/v2"
)

// Signature is what the node's signature policy asks of the image and
// where the node looks for sigstore signatures.
type Signature struct {
	// PolicyFile is the policy CRI-O evaluates: the namespace's
	// /etc/crio/policies/<namespace>.json when it has one, else
	// /etc/containers/policy.json.
	PolicyFile string `json:"policyFile"`
	// Scope is the "docker" transport scope that matched (the most specific
	// of the reference itself, its repository, each enclosing namespace,
	// the host, then "*.domain" wildcards); "" with Default set when none
	// did and the policy's default applies.
	Scope   string `json:"scope"`
	Default bool   `json:"default"`
	// Requirements are the matched requirements, all of which must hold.
	Requirements []Requirement `json:"requirements"`
	// Verifies is set when a sigstoreSigned requirement applies: the pull
	// fails unless a valid signature is found. Rejects is set when the
	// scope rejects every image.
	Verifies bool `json:"verifies"`
	Rejects  bool `json:"rejects"`
	// Lookups lists, for each source the pull tries (in order), whether the
	// node looks for the signature there as a sigstore attachment.
	Lookups []Lookup `json:"lookups"`
}

// Requirement is one policy requirement, summarised.
type Requirement struct {
	Type string `json:"type"`
	// Trust is the root of trust of a sigstoreSigned requirement:
	// "public key", "public key with Rekor", "Fulcio (issuer …, email …)",
	// "PKI (…)".
	Trust string `json:"trust,omitempty"`
	// SignedIdentity is how the signature's identity must match.
	SignedIdentity string `json:"signedIdentity,omitempty"`
}

// Lookup is one pull source and the signatures it can serve.
type Lookup struct {
	Reference string `json:"reference"`
	// Namespace is the registries.d "docker" namespace that configures the
	// source ("" when none does).
	Namespace string `json:"namespace,omitempty"`
	// Attachments is set when the node reads sigstore signatures stored as
	// attachments next to the image in this source; Tag is the attachment
	// tag for a pull by digest.
	Attachments bool   `json:"attachments"`
	Tag         string `json:"tag,omitempty"`
}

// policyFile is containers/image's policy.json, each requirement kept as
// written: the admission check needs its type, the signature answer the
// rest.
type policyFile struct {
	Default    []map[string]any                       `json:"default"`
	Transports map[string]map[string][]map[string]any `json:"transports"`
}

// AddSignature answers, for r's image, which requirement of policyJSON
// (the file at policyPath) applies, and, from sigstoreYAML (MCO's
// registries.d file, nil when it writes none), where the node looks for
// sigstore signatures among the sources r lists. The policy is matched
// against the image as requested, the attachments against each source
// actually contacted, as containers/image does.
func (r *Result) AddSignature(policyJSON []byte, policyPath string, sigstoreYAML []byte) error {
	var pf policyFile
	if err := json.Unmarshal(policyJSON, &pf); err != nil {
		return fmt.Errorf("%s: %w", policyPath, err)
	}
	named, err := reference.ParseNormalizedNamed(r.Reference)
	if err != nil {
		return err
	}
	sig := &Signature{PolicyFile: policyPath, Lookups: []Lookup{}}
	reqs, scope, found := matchScope(pf.Transports["docker"], named)
	if !found {
		reqs, sig.Default = pf.Default, true
	}
	sig.Scope = scope
	for _, m := range reqs {
		req := summarise(m)
		switch req.Type {
		case "sigstoreSigned", "signedBy":
			sig.Verifies = true
		case "reject":
			sig.Rejects = true
		}
		sig.Requirements = append(sig.Requirements, req)
	}

	var regd struct {
		Docker map[string]struct {
			UseSigstoreAttachments *bool `yaml:"use-sigstore-attachments"`
		} `yaml:"docker"`
	}
	if sigstoreYAML != nil {
		if err := yaml.Unmarshal(sigstoreYAML, &regd); err != nil {
			return fmt.Errorf("registries.d: %w", err)
		}
	}
	for _, s := range r.Sources {
		if s.Skipped || s.Blocked {
			continue
		}
		l := Lookup{Reference: s.Reference}
		if ref, err := reference.ParseNamed(s.Reference); err == nil {
			for _, ns := range candidates(ref) {
				if c, ok := regd.Docker[ns]; ok && c.UseSigstoreAttachments != nil {
					l.Namespace, l.Attachments = ns, *c.UseSigstoreAttachments
					break
				}
			}
			if d, ok := ref.(reference.Digested); ok && l.Attachments {
				l.Tag = d.Digest().Algorithm().String() + "-" + d.Digest().Encoded() + ".sig"
			}
		}
		sig.Lookups = append(sig.Lookups, l)
	}
	r.Signature = sig
	r.Notes = append(r.Notes, signatureNotes(r, sig)...)
	return nil
}

// candidates are the scopes containers/image tries for ref, most specific
// first: the reference as written, its repository and each enclosing
// namespace up to the host, then "*." wildcards of the host.
func candidates(ref reference.Named) []string {
	var out []string
	if id, err := policyconfiguration.DockerReferenceIdentity(ref); err == nil {
		out = append(out, id)
	}
	return append(out, policyconfiguration.DockerReferenceNamespaces(ref)...)
}

func matchScope(scopes map[string][]map[string]any, ref reference.Named) ([]map[string]any, string, bool) {
	for _, s := range candidates(ref) {
		if reqs, ok := scopes[s]; ok {
			return reqs, s, true
		}
	}
	if reqs, ok := scopes[""]; ok {
		return reqs, "", true
	}
	return nil, "", false
}

func summarise(m map[string]any) Requirement {
	t, _ := m["type"].(string)
	req := Requirement{Type: t}
	if t != "sigstoreSigned" {
		return req
	}
	switch {
	case m["keyData"] != nil || m["keyPath"] != nil:
		req.Trust = "public key"
	case m["fulcio"] != nil:
		f, _ := m["fulcio"].(map[string]any)
		req.Trust = fmt.Sprintf("Fulcio (issuer %v, email %v)", f["oidcIssuer"], f["subjectEmail"])
	case m["pki"] != nil:
		p, _ := m["pki"].(map[string]any)
		var subj []string
		for _, k := range []string{"subjectEmail", "subjectHostname"} {
			if v, _ := p[k].(string); v != "" {
				subj = append(subj, k[len("subject"):]+" "+v)
			}
		}
		sort.Strings(subj)
		req.Trust = "PKI (" + strings.ToLower(strings.Join(subj, ", ")) + ")"
	}
	if m["rekorPublicKeyData"] != nil && m["fulcio"] == nil {
		req.Trust += " with Rekor"
	}
	if id, ok := m["signedIdentity"].(map[string]any); ok {
		req.SignedIdentity, _ = id["type"].(string)
		switch req.SignedIdentity {
		case "exactRepository":
			req.SignedIdentity += fmt.Sprintf(" %v", id["dockerRepository"])
		case "remapIdentity":
			req.SignedIdentity += fmt.Sprintf(" %v → %v", id["prefix"], id["signedPrefix"])
		}
	}
	return req
}

func signatureNotes(r *Result, sig *Signature) []string {
	if !sig.Verifies {
		return nil
	}
	var lookups int
	for _, l := range sig.Lookups {
		if l.Attachments {
			lookups++
		}
	}
	var out []string
	where := fmt.Sprintf("scope %s", sig.Scope)
	if sig.Default {
		where = "the policy's default"
	}
	out = append(out, fmt.Sprintf("%s requires a valid sigstore signature (%s in %s): the pull fails without one", r.Reference, where, sig.PolicyFile))
	if lookups < len(sig.Lookups) {
		out = append(out, "a source without use-sigstore-attachments in registries.d cannot serve the signature as an attachment: a pull from it fails verification")
	}
	return out
}
