//go:build !unix

package safefs

import "errors"

// mkfifo reports that this system has no FIFOs: the tests using it skip.
func mkfifo(string) error { return errors.ErrUnsupported }
