package mco

import "github.com/containers/image/v5/pkg/sysregistriesv2"

// searchDropIn renders the drop-in for the Image's search registries: a
// V2RegistriesConf holding only that list, encoded like registries.conf.
// MCO writes it whenever the list is set at all (nil means "not set"); an
// encoding failure only makes MCO log a warning and skip the file.
func searchDropIn(search []string, v Version) []byte {
	if search == nil {
		return nil
	}
	conf := sysregistriesv2.V2RegistriesConf{UnqualifiedSearchRegistries: search}
	out, _, err := encodeConf(&conf, v)
	if err != nil {
		return nil
	}
	return out
}
