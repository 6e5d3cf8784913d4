package inputs

import (
	"errors"
	"net"
	"strings"

	"github.com/containers/image/v5/docker/reference"
	"k8s.io/apimachinery/pkg/util/validation"
)

// validateNamedRepository checks a source or mirror as openshift-install
// does (pkg/types/validation): a docker name without tag or digest, or a
// bare host[:port], which docker's parser refuses as not canonical. The
// error text is the installer's.
func validateNamedRepository(r string) error {
	ref, err := reference.ParseNamed(r)
	if err != nil {
		if errors.Is(err, reference.ErrNameNotCanonical) {
			host, _, splitErr := net.SplitHostPort(r)
			if splitErr != nil {
				host = r
			}
			if errs := validation.IsDNS1123Subdomain(host); len(errs) > 0 {
				return errors.New("the repository provided is invalid: " + strings.Join(errs, ", "))
			}
			return nil
		}
		return errors.New("failed to parse: " + err.Error())
	}
	if !reference.IsNameOnly(ref) {
		return errors.New("must be repository--not reference")
	}
	return nil
}
