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
// large inputs); anything else goes to the real encoder. exact says the
// bytes decode back to conf itself (see readsBack).
func encodeConf(conf *sysregistriesv2.V2RegistriesConf, v Version) (data []byte, exact bool, err error) {
	if out, ok := fastEncode(conf, v.AtLeast(19)); ok {
		return out, readsBack(conf), nil
	}
	data, err = tomlEncode(conf, v)
	return data, false, err
}

// readsBack reports whether a configuration fastEncode wrote decodes to a
// value equal to conf: every string is written verbatim and every zero
// value it leaves out decodes as zero, so the one difference left is a
// registry's mirror list that is empty but not nil, which reads back nil.
func readsBack(conf *sysregistriesv2.V2RegistriesConf) bool {
	for i := range conf.Registries {
		if m := conf.Registries[i].Mirrors; m != nil && len(m) == 0 {
			return false
		}
	}
	return true
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
