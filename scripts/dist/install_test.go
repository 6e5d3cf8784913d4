package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// releaseServer serves a release directory as GitHub does: files under
// /download/VERSION/ and the latest release's tag under /api/latest.
// files maps names to contents (a tampered archive, a checksums.txt
// without the line); nil serves the dist output as it is.
func releaseServer(t *testing.T, files map[string][]byte) *httptest.Server {
	t.Helper()
	dir := distRelease(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/api/latest", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{\n  \"url\": \"x\",\n  \"tag_name\": \"" + testVersion + "\",\n  \"name\": \"mirrorlint " + testVersion + "\"\n}\n"))
	})
	mux.HandleFunc("/download/"+testVersion+"/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/download/"+testVersion+"/")
		if b, ok := files[name]; ok {
			if b == nil {
				http.NotFound(w, r)
				return
			}
			_, _ = w.Write(b)
			return
		}
		if strings.Contains(name, "/") || name == "" || name == "bin" {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(dir, name))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

type installRun struct {
	code           int
	stderr         string
	bindir, tmpdir string
}

// install runs scripts/install.sh with sh (dash on Debian: POSIX only),
// against srv, with PATH as given ("" keeps the test's PATH).
func install(t *testing.T, srv *httptest.Server, path string, args ...string) installRun {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	r := installRun{bindir: filepath.Join(t.TempDir(), "bin"), tmpdir: t.TempDir()}
	script := filepath.Join(repoRoot, "scripts", "install.sh")
	cmd := exec.Command("sh", append([]string{script, "-b", r.bindir}, args...)...)
	cmd.Env = append(os.Environ(),
		"MIRRORLINT_RELEASE_URL="+srv.URL+"/download",
		"MIRRORLINT_RELEASES_API="+srv.URL+"/api/latest",
		"TMPDIR="+r.tmpdir)
	if path != "" {
		cmd.Env = append(cmd.Env, "PATH="+path)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	r.stderr = errb.String()
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

func (r installRun) assertInstalled(t *testing.T) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("install.sh: exit %d\n%s", r.code, r.stderr)
	}
	out, err := exec.Command(filepath.Join(r.bindir, "mirrorlint"), "--version").Output()
	if err != nil || !strings.Contains(string(out), "mirrorlint version "+testVersion+" (commit ") {
		t.Errorf("installed binary: %v %q", err, out)
	}
	r.assertNoLeftovers(t)
}

// assertNothing checks that a refused install left no binary and no
// temporary files.
func (r installRun) assertNothing(t *testing.T, why string) {
	t.Helper()
	if r.code == 0 {
		t.Fatalf("install.sh installed despite %s:\n%s", why, r.stderr)
	}
	if ents, _ := os.ReadDir(r.bindir); len(ents) > 0 {
		t.Errorf("%s: %s holds %v", why, r.bindir, ents)
	}
	r.assertNoLeftovers(t)
}

func (r installRun) assertNoLeftovers(t *testing.T) {
	t.Helper()
	if ents, _ := os.ReadDir(r.tmpdir); len(ents) > 0 {
		t.Errorf("install.sh left %v in TMPDIR", ents)
	}
}

func TestInstallVersion(t *testing.T) {
	srv := releaseServer(t, nil)
	r := install(t, srv, "", testVersion)
	r.assertInstalled(t)
	if !strings.Contains(r.stderr, "installed "+filepath.Join(r.bindir, "mirrorlint")+" ("+testVersion+", sha256 ") {
		t.Errorf("no confirmation: %s", r.stderr)
	}
	// A version without the v names the same release.
	install(t, srv, "", strings.TrimPrefix(testVersion, "v")).assertInstalled(t)
}

func TestInstallLatest(t *testing.T) {
	srv := releaseServer(t, nil)
	r := install(t, srv, "")
	r.assertInstalled(t)
	if !strings.Contains(r.stderr, "latest release: "+testVersion) {
		t.Errorf("latest not resolved through the API: %s", r.stderr)
	}
}

func TestInstallRefusesTamperedArchive(t *testing.T) {
	name := archiveName(runtime.GOOS, runtime.GOARCH)
	data, err := os.ReadFile(filepath.Join(distRelease(t), name))
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Clone(data)
	tampered[len(tampered)/2] ^= 0xff
	r := install(t, releaseServer(t, map[string][]byte{name: tampered}), "", testVersion)
	r.assertNothing(t, "a tampered archive")
	if !strings.Contains(r.stderr, "tampered") || !strings.Contains(r.stderr, "nothing installed") {
		t.Errorf("message: %s", r.stderr)
	}
}

func TestInstallRefusesUnlistedArchive(t *testing.T) {
	name := archiveName(runtime.GOOS, runtime.GOARCH)
	sums, err := os.ReadFile(filepath.Join(distRelease(t), "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(sums), "\n") {
		if !strings.Contains(l, name) {
			kept = append(kept, l)
		}
	}
	other := "0000000000000000000000000000000000000000000000000000000000000000  mirrorlint_1.2.3_plan9_amd64.tar.gz\n"
	r := install(t, releaseServer(t, map[string][]byte{"checksums.txt": []byte(strings.Join(kept, "") + other)}), "", testVersion)
	r.assertNothing(t, "no checksums line")
	if !strings.Contains(r.stderr, "no line for "+name) {
		t.Errorf("message: %s", r.stderr)
	}

	r = install(t, releaseServer(t, map[string][]byte{"checksums.txt": nil}), "", testVersion)
	r.assertNothing(t, "no checksums.txt")
	if !strings.Contains(r.stderr, "checksums.txt") {
		t.Errorf("message: %s", r.stderr)
	}

	r = install(t, releaseServer(t, nil), "", "v9.9.9")
	r.assertNothing(t, "a release that does not exist")
}

// Without curl the script downloads with wget.
func TestInstallWithWget(t *testing.T) {
	if _, err := exec.LookPath("wget"); err != nil {
		t.Skip("wget not installed")
	}
	srv := releaseServer(t, nil)
	bin := t.TempDir()
	for _, tool := range []string{"sh", "uname", "mktemp", "rm", "tr", "sed", "awk", "cut", "sha256sum", "tar", "gzip", "mkdir", "cp", "chmod", "mv", "wget", "cat"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s not installed", tool)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	r := install(t, srv, bin, testVersion)
	r.assertInstalled(t)
}
