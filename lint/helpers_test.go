package lint_test

import (
	"os"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testbin"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}
