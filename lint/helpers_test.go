package lint_test

import "sync"

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }
