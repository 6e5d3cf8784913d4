//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
)

// The --base snapshot is removed when the run is stopped by SIGTERM or
// SIGINT: the command's process is stopped while git is still extracting the
// base (a git on PATH that holds `cat-file` open), and no
// mirrorlint-base-* directory is left in its TMPDIR.
func TestSignalRemovesTheBaseSnapshot(t *testing.T) {
	t.Parallel()
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	// This test binary is the command when envRunCLI is set (TestMain),
	// with the process set up as main sets it up: the signal handler too.
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	repo := tree(t, prodTree(nil))
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")

	shim := t.TempDir()
	mark := filepath.Join(shim, "extracting")
	script := "#!/bin/sh\nif [ \"$1\" = cat-file ]; then : > " + mark + "; exec sleep 20; fi\nexec " + realGit + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(shim, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		os.Remove(mark)
		tmp := t.TempDir()
		cmd := exec.Command(bin, "diff", "--config", "none", "--base", "HEAD", ".")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), envRunCLI+"=1", "TMPDIR="+tmp, "PATH="+shim+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, err := os.Stat(mark); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("the run never reached the extraction of the base")
			}
			time.Sleep(20 * time.Millisecond)
		}
		left, _ := filepath.Glob(filepath.Join(tmp, "mirrorlint-base-*"))
		if len(left) != 1 {
			t.Fatalf("before the signal: %v, want one snapshot directory being extracted", left)
		}
		if err := cmd.Process.Signal(sig.sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != sig.code {
			t.Errorf("%v: %v, want exit %d", sig.sig, err, sig.code)
		}
		if left, _ := filepath.Glob(filepath.Join(tmp, "mirrorlint-base-*")); len(left) != 0 {
			t.Errorf("%v: left behind %v", sig.sig, left)
		}
	}
}
