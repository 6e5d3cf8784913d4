package rules

import (
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// The registry CA rules read Image/cluster spec.additionalTrustedCA, the
// ConfigMaps the loader keeps (those of the openshift-* namespaces) and
// the mirror sets whose hosts need a CA.
var registryCAReads = []string{
	string(manifest.KindImage), manifest.KindConfigMap,
	string(manifest.KindICSP), string(manifest.KindIDMS), string(manifest.KindITMS),
}

// configMapKeyMessage is apimachinery's IsConfigMapKey wording.
const configMapKeyMessage = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"

// dataKeys are a ConfigMap's data and binaryData keys, sorted.
func dataKeys(o *manifest.Object) []string {
	var keys []string
	for _, field := range []string{"data", "binaryData"} {
		m, _ := o.Content[field].(map[string]any)
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

var configMapKeyChars = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)

var dnsLabel = regexp.MustCompile(`^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`)

// certFileSuffixes are the last labels that make a key a file name.
var certFileSuffixes = []string{"crt", "pem", "cer", "der", "key", "ca", "bundle", "cert"}

// notRegistryHost says why dir (a key with ".." read as ":") names no
// registry a pull reaches, "" when it may be one.
func notRegistryHost(dir string) string {
	host, port := dir, ""
	if i := strings.LastIndex(dir, ":"); i >= 0 && net.ParseIP(dir) == nil {
		host, port = dir[:i], dir[i+1:]
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			return fmt.Sprintf("not host:port (port %q)", port)
		}
	}
	if net.ParseIP(strings.Trim(host, "[]")) != nil {
		return ""
	}
	labels := strings.Split(host, ".")
	for _, l := range labels {
		if !dnsLabel.MatchString(l) {
			return fmt.Sprintf("not a host name (label %q)", l)
		}
	}
	if last := strings.ToLower(labels[len(labels)-1]); len(labels) > 1 && slices.Contains(certFileSuffixes, last) {
		return "a file name, not a registry host"
	}
	return ""
}

func keyList(items []string) string {
	if len(items) == 0 {
		return "no key"
	}
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
