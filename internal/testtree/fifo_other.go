//go:build !unix

package testtree

import "errors"

// Mkfifo reports that this system has no FIFOs: the tests using it skip.
func Mkfifo(string) error { return errors.ErrUnsupported }
