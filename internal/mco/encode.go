package mco

import (
	"bytes"

	"github.com/BurntSushi/toml"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
)

// alsHelperLine is the top-level key containers/image v5.34+ added to
// V2RegistriesConf. MCO 4.19+ vendors such a version and, the field having
// no omitempty, always writes it; 4.14–4.18 vendored older releases whose
// struct lacked it. Everything else about the encoding is unchanged.
var alsHelperLine = []byte("additional-layer-store-auth-helper = \"\"\n")

// encodeConf writes conf as MCO does (BurntSushi toml's encoder) for
// release v. Configurations that only hold the shapes MCO produces, with
// plain printable-ASCII strings, go through fastEncode, which writes the same
// bytes without reflection (the reflective encoder dominated render time for
// large inputs); anything else goes to the real encoder.
func encodeConf(conf *sysregistriesv2.V2RegistriesConf, v Version) ([]byte, error) {
	if out, ok := fastEncode(conf, v.AtLeast(19)); ok {
		return out, nil
	}
	return tomlEncode(conf, v)
}

// tomlEncode is the reference path: BurntSushi's encoder, then the 4.14–4.18
// adjustment.
func tomlEncode(conf *sysregistriesv2.V2RegistriesConf, v Version) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(64 + 160*len(conf.Registries))
	if err := toml.NewEncoder(&buf).Encode(conf); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	if !v.AtLeast(19) && conf.AdditionalLayerStoreAuthHelper == "" {
		if i := bytes.Index(out, alsHelperLine); i >= 0 && (i == 0 || out[i-1] == '\n') {
			out = append(out[:i:i], out[i+len(alsHelperLine):]...)
		}
	}
	return out, nil
}
