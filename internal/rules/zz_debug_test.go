package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestDebugPrint(t *testing.T) {
	dir := os.Getenv("DEBUG_DIR")
	if dir == "" {
		t.Skip()
	}
	dirs, _ := filepath.Glob(dir)
	for _, d := range dirs {
		for _, f := range lintDir(t, d) {
			fmt.Printf("%s:%d:%d %s %s: %s\n", f.File, f.Line, f.Column, f.Severity, f.Rule, f.Message)
		}
	}
}
