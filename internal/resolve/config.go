package resolve

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/containers/image/v5/docker/reference"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
	"github.com/containers/image/v5/types"

	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
)

// Config is a rendered configuration loaded into containers/image once, to
// answer for many references (the images of every workload of a cluster).
// Close it when done.
type Config struct {
	conf, dropIn []byte
	// scopes are the prefixes (else locations) of registries.conf's
	// entries; nil when the file did not decode, which makes every
	// reference a candidate.
	scopes []string
	// prefixes and wildcards index scopes for mayMatch: a cluster holding
	// thousands of entries is asked about thousands of images, and a scan
	// of every scope per question was most of a lint run's image check.
	prefixes  map[string]bool
	wildcards []string
	once      sync.Once
	sys       *types.SystemContext
	loadErr   error
	cleanup   func()
	policy    *policyFile // nil: the node's template policy.json, which admits everything
}

// Load loads the rendered files: registries.conf, the search-registries
// drop-in (nil when MCO writes none) and policy.json (nil when MCO writes
// none, leaving the template that admits every image).
func Load(conf, dropIn, policyJSON []byte) (*Config, error) {
	var decoded *sysregistriesv2.V2RegistriesConf
	if d, err := nodefiles.Decode(conf); err == nil {
		decoded = &d
	}
	return LoadDecoded(conf, decoded, dropIn, policyJSON)
}

// LoadDecoded is Load for a caller that has already decoded conf (nil when
// it does not decode): a lint run decodes each cluster's registries.conf
// once for every rule and policy that reads it.
func LoadDecoded(conf []byte, decoded *sysregistriesv2.V2RegistriesConf, dropIn, policyJSON []byte) (*Config, error) {
	var pol *policyFile
	if policyJSON != nil {
		pol = &policyFile{}
		if err := json.Unmarshal(policyJSON, pol); err != nil {
			return nil, fmt.Errorf("policy.json: %w", err)
		}
	}
	c := &Config{conf: conf, dropIn: dropIn, policy: pol}
	if decoded != nil {
		c.scopes = make([]string, 0, len(decoded.Registries))
		for _, r := range decoded.Registries {
			if r.Prefix != "" {
				c.scopes = append(c.scopes, r.Prefix)
			} else {
				c.scopes = append(c.scopes, r.Location)
			}
		}
		c.index()
	}
	return c, nil
}

// system loads the files into containers/image the first time a question
// needs it: writing them out and parsing them costs far more than the
// questions that can be answered without (most images of a cluster match
// no entry at all).
func (c *Config) system() (*types.SystemContext, error) {
	c.once.Do(func() {
		c.sys, c.cleanup, c.loadErr = loadConfig(c.conf, c.dropIn)
	})
	return c.sys, c.loadErr
}

// findRegistry is sysregistriesv2.FindRegistry under c, answered without
// containers/image when no entry can match name: every entry's scope is a
// text prefix of the names it matches (a "*.domain" scope, a text inside
// the host), so when none is, the library would find nothing either.
func (c *Config) findRegistry(name string) (*sysregistriesv2.Registry, error) {
	if !c.mayMatch(name) {
		return nil, nil
	}
	sys, err := c.system()
	if err != nil {
		return nil, err
	}
	return sysregistriesv2.FindRegistry(sys, name)
}

func (c *Config) mayMatch(name string) bool {
	if c.scopes == nil {
		return true
	}
	for _, w := range c.wildcards {
		if strings.Contains(name, w) {
			return true
		}
	}
	// Some scope is a text prefix of name exactly when one of name's
	// prefixes is a scope: len(name) lookups instead of len(scopes) scans.
	for i := 0; i <= len(name); i++ {
		if c.prefixes[name[:i]] {
			return true
		}
	}
	return false
}

// index fills prefixes and wildcards from scopes.
func (c *Config) index() {
	c.prefixes = make(map[string]bool, len(c.scopes))
	for _, s := range c.scopes {
		if after, ok := strings.CutPrefix(s, "*"); ok {
			c.wildcards = append(c.wildcards, after)
		} else {
			c.prefixes[s] = true
		}
	}
}

// Close removes the temporary files the configuration was loaded from, if
// it was.
func (c *Config) Close() {
	if c != nil && c.cleanup != nil {
		c.cleanup()
		c.cleanup = nil
	}
}

// PolicyRejects reports whether policy.json rejects image outright (a
// "reject" requirement, which MCO writes for blockedRegistries and, as the
// default, with allowedRegistries) and the scope that decided: "" for the
// policy's default. The policy is looked up the way containers/image does
// for the docker transport, and for the reference the pod asked for, not
// for a mirror it is pulled from: the reference itself, its repository and
// each parent namespace, its host, the wildcard domains of its host, the
// transport's "" scope, then the default. Requirements mirrorlint cannot
// evaluate offline (signatures) count as admitting.
func (c *Config) PolicyRejects(image string) (scope string, rejects bool) {
	if c.policy == nil {
		return "", false
	}
	named, err := reference.ParseNormalizedNamed(image)
	if err != nil {
		return "", false
	}
	return c.PolicyRejectsNamed(named)
}

// PolicyRejectsNamed is PolicyRejects of a parsed reference.
func (c *Config) PolicyRejectsNamed(named reference.Named) (scope string, rejects bool) {
	if c.policy == nil {
		return "", false
	}
	named = reference.TagNameOnly(named)
	reqs, scope, found := matchScope(c.policy.Transports["docker"], named)
	if !found {
		reqs = c.policy.Default
	}
	for _, r := range reqs {
		if r["type"] == "reject" {
			return scope, true
		}
	}
	return "", false
}
