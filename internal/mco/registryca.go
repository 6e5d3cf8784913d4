package mco

import (
	"regexp"
	"strings"
)

// CertsDDir is where the daemon writes the registry CAs.
const CertsDDir = "/etc/docker/certs.d"

// CertsDPath is the node path of the CA of a registry directory.
func CertsDPath(dir string) string { return CertsDDir + "/" + dir + "/ca.crt" }

// CertsD is what the machine-config-daemon writes from the registry CA
// ConfigMap (certificate_writer.go, 4.14+: the operator copies the
// ConfigMap into ControllerConfig): one <key>/ca.crt per key, every ".."
// of the key written ":" (the API server admits no ":" in a key, so the
// port is spelt "host..5000"). Nothing checks that the key is a registry
// host: "ca-bundle.crt" gives a directory no pull ever looks at. A
// ConfigMap with a key the API server refuses never exists, so it gives
// no file at all. Earlier releases leave the files to the image registry
// operator's node-ca daemon set, which is not modelled.
func CertsD(in Input) map[string][]byte {
	if !in.Version.AtLeast(14) || len(in.RegistryCAs) == 0 {
		return nil
	}
	out := make(map[string][]byte, len(in.RegistryCAs))
	for key, pem := range in.RegistryCAs {
		if !IsConfigMapKey(key) {
			return nil
		}
		out[strings.ReplaceAll(key, "..", ":")] = []byte(pem)
	}
	return out
}

var configMapKey = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)

// IsConfigMapKey is apimachinery's validation.IsConfigMapKey: at most 253
// characters of [-._a-zA-Z0-9], not "." or "..", not starting with "..".
func IsConfigMapKey(key string) bool {
	return len(key) <= 253 && configMapKey.MatchString(key) && key != "." && key != ".." && !strings.HasPrefix(key, "..")
}
