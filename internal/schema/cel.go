package schema

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// celRules implements, by exact rule text, the CEL rules the embedded CRDs
// carry. self is the value the rule sits on, as plain data: an object
// (absent keys and null values count as unset: nulls are pruned before CEL
// runs), a string, or, for a `format: byte` field, its base64 text, which
// CEL sees as the decoded bytes (string(self) converts them back to text).
// Regular expressions are the rules' own, with CEL's string escapes undone;
// CEL's matches() is RE2 like Go's regexp.
var celRules = map[string]func(self any) bool{
	// Image
	"has(self.blockedRegistries) ? !has(self.allowedRegistries) : true": func(self any) bool {
		m := obj(self)
		return !(has(m, "blockedRegistries") && has(m, "allowedRegistries"))
	},

	// MachineConfiguration: managedBootImages selections
	`has(self.mode) && self.mode == 'Partial' ?  has(self.partial) : !has(self.partial)`: func(self any) bool {
		return requiredIff(obj(self), "mode", "Partial", "partial")
	},
	// MachineConfiguration: node-disruption policy actions and services
	`has(self.type) && self.type == 'Reload' ? has(self.reload) : !has(self.reload)`: func(self any) bool {
		return requiredIff(obj(self), "type", "Reload", "reload")
	},
	`has(self.type) && self.type == 'Restart' ? has(self.restart) : !has(self.restart)`: func(self any) bool {
		return requiredIff(obj(self), "type", "Restart", "restart")
	},
	`self.exists(x, x.type=='None') ? size(self) == 1 : true`: func(self any) bool {
		return standalone(self, "None")
	},
	`self.exists(x, x.type=='Reboot') ? size(self) == 1 : true`: func(self any) bool {
		return standalone(self, "Reboot")
	},
	`self.matches('\\.(service|socket|device|mount|automount|swap|target|path|timer|snapshot|slice|scope)$')`: func(self any) bool {
		return unitSuffix.MatchString(str(self))
	},
	`self.matches('^[a-zA-Z0-9:._\\\\-]+\\..')`: func(self any) bool {
		return unitName.MatchString(str(self))
	},

	// ClusterImagePolicy / ImagePolicy: scopes
	`size(self.split('/')[0].split('.')) == 1 ? self.split('/')[0].split('.')[0].split(':')[0] == 'localhost' : true`: func(self any) bool {
		host, _, _ := strings.Cut(str(self), "/")
		if strings.Contains(host, ".") {
			return true
		}
		name, _, _ := strings.Cut(host, ":")
		return name == "localhost"
	},
	`self.contains('*') ? self.matches('^\\*(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+$') : true`: func(self any) bool {
		s := str(self)
		return !strings.Contains(s, "*") || wildcardScope.MatchString(s)
	},
	`!self.contains('*') ? self.matches('^((((?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+(?::[0-9]+)?)|(localhost(?::[0-9]+)?))(?:(?:/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?)(?::([\\w][\\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}))?$') : true`: func(self any) bool {
		s := str(self)
		return strings.Contains(s, "*") || imageScope.MatchString(s)
	},

	// rootOfTrust
	`has(self.policyType) && self.policyType == 'PublicKey' ? has(self.publicKey) : !has(self.publicKey)`: func(self any) bool {
		return requiredIff(obj(self), "policyType", "PublicKey", "publicKey")
	},
	`has(self.policyType) && self.policyType == 'FulcioCAWithRekor' ? has(self.fulcioCAWithRekor) : !has(self.fulcioCAWithRekor)`: func(self any) bool {
		return requiredIff(obj(self), "policyType", "FulcioCAWithRekor", "fulcioCAWithRekor")
	},
	`has(self.policyType) && self.policyType == 'PKI' ? has(self.pki) : !has(self.pki)`: func(self any) bool {
		return requiredIff(obj(self), "policyType", "PKI", "pki")
	},
	`string(self).startsWith('-----BEGIN PUBLIC KEY-----')`: func(self any) bool {
		s, ok := bytesText(self)
		return ok && strings.HasPrefix(s, "-----BEGIN PUBLIC KEY-----")
	},
	`string(self).endsWith('-----END PUBLIC KEY-----\n') || string(self).endsWith('-----END PUBLIC KEY-----')`: func(self any) bool {
		s, ok := bytesText(self)
		return ok && (strings.HasSuffix(s, "-----END PUBLIC KEY-----\n") || strings.HasSuffix(s, "-----END PUBLIC KEY-----"))
	},
	`string(self).startsWith('-----BEGIN CERTIFICATE-----')`: func(self any) bool {
		s, ok := bytesText(self)
		return ok && strings.HasPrefix(s, "-----BEGIN CERTIFICATE-----")
	},
	`string(self).endsWith('-----END CERTIFICATE-----\n') || string(self).endsWith('-----END CERTIFICATE-----')`: func(self any) bool {
		s, ok := bytesText(self)
		return ok && (strings.HasSuffix(s, "-----END CERTIFICATE-----\n") || strings.HasSuffix(s, "-----END CERTIFICATE-----"))
	},
	`string(self).findAll('-----BEGIN CERTIFICATE-----').size() == string(self).findAll('-----END CERTIFICATE-----').size()`: func(self any) bool {
		s, ok := bytesText(self)
		return ok && strings.Count(s, "-----BEGIN CERTIFICATE-----") == strings.Count(s, "-----END CERTIFICATE-----")
	},
	`isURL(self)`: func(self any) bool {
		// The Kubernetes CEL library's isURL is url.ParseRequestURI.
		_, err := url.ParseRequestURI(str(self))
		return err == nil
	},
	`self.matches('^\\S+@\\S+$')`: func(self any) bool {
		return email.MatchString(str(self))
	},
	`has(self.email) || has(self.hostname)`: func(self any) bool {
		m := obj(self)
		return has(m, "email") || has(m, "hostname")
	},
	`self.startsWith('*.') ? !format.dns1123Subdomain().validate(self.replace('*.', '', 1)).hasValue() : !format.dns1123Subdomain().validate(self).hasValue()`: func(self any) bool {
		s := str(self)
		if strings.HasPrefix(s, "*.") {
			s = strings.Replace(s, "*.", "", 1)
		}
		return len(s) <= 253 && dns1123Subdomain.MatchString(s)
	},

	// signedIdentity
	`(has(self.matchPolicy) && self.matchPolicy == 'ExactRepository') ? has(self.exactRepository) : !has(self.exactRepository)`: func(self any) bool {
		return requiredIff(obj(self), "matchPolicy", "ExactRepository", "exactRepository")
	},
	`(has(self.matchPolicy) && self.matchPolicy == 'RemapIdentity') ? has(self.remapIdentity) : !has(self.remapIdentity)`: func(self any) bool {
		return requiredIff(obj(self), "matchPolicy", "RemapIdentity", "remapIdentity")
	},
	`self.matches('.*:([\\w][\\w.-]{0,127})$')? self.matches('^(localhost:[0-9]+)$'): true`: func(self any) bool {
		s := str(self)
		return !endsWithTag.MatchString(s) || localhostPort.MatchString(s)
	},
	`self.matches('^(((?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+(?::[0-9]+)?)|(localhost(?::[0-9]+)?))(?:(?:/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?$')`: func(self any) bool {
		return identityPrefix.MatchString(str(self))
	},
}

const (
	celHost = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	celPath = `(?:(?:/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?`
	celFQDN = `((` + celHost + `(?:\.` + celHost + `)+(?::[0-9]+)?)|(localhost(?::[0-9]+)?))`
)

var (
	wildcardScope    = regexp.MustCompile(`^\*(?:\.` + celHost + `)+$`)
	imageScope       = regexp.MustCompile(`^(` + celFQDN + celPath + `)(?::([\w][\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}))?$`)
	identityPrefix   = regexp.MustCompile(`^` + celFQDN + celPath + `$`)
	endsWithTag      = regexp.MustCompile(`.*:([\w][\w.-]{0,127})$`)
	localhostPort    = regexp.MustCompile(`^(localhost:[0-9]+)$`)
	email            = regexp.MustCompile(`^\S+@\S+$`)
	unitSuffix       = regexp.MustCompile(`\.(service|socket|device|mount|automount|swap|target|path|timer|snapshot|slice|scope)$`)
	unitName         = regexp.MustCompile(`^[a-zA-Z0-9:._\\-]+\..`)
	dns1123Subdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

func obj(self any) map[string]any { m, _ := self.(map[string]any); return m }
func str(self any) string         { s, _ := self.(string); return s }

// bytesText is string(self) for a byte field: the decoded bytes as text;
// false when they are not valid UTF-8, which CEL refuses to convert (the
// rule then fails to evaluate and the object is refused).
func bytesText(self any) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(str(self))
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

// requiredIff is the "discriminator == value ? has(member) : !has(member)"
// rule of a union.
func requiredIff(m map[string]any, discriminator, value, member string) bool {
	d, _ := m[discriminator].(string)
	if has(m, discriminator) && d == value {
		return has(m, member)
	}
	return !has(m, member)
}

// standalone is "self.exists(x, x.type==T) ? size(self) == 1 : true" on a
// list of actions: an action of type t must be the only one.
func standalone(self any, t string) bool {
	l, _ := self.([]any)
	for _, x := range l {
		if typ, _ := obj(x)["type"].(string); typ == t {
			return len(l) == 1
		}
	}
	return true
}
