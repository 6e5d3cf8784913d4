package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testVersion is the release the tests build; install.sh tests install it.
const testVersion = "v1.2.3"

var (
	distOnce sync.Once
	distDir  string
	distErr  error
	repoRoot string
)

// hostPlatform is the only platform the tests compile: the binary must
// run here, and six cross builds would cost minutes.
func hostPlatform(t *testing.T) string {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skipf("the release tests run the binary and install.sh: no %s support", runtime.GOOS)
	}
	return runtime.GOOS + "/" + runtime.GOARCH
}

// distRelease runs the dist command once for the host platform, from the
// repository root, into a temporary directory shared by the tests.
func distRelease(t *testing.T) string {
	t.Helper()
	platform := hostPlatform(t)
	distOnce.Do(func() {
		repoRoot, distErr = filepath.Abs(filepath.Join("..", ".."))
		if distErr != nil {
			return
		}
		distDir, distErr = os.MkdirTemp("", "mirrorlint-dist")
		if distErr != nil {
			return
		}
		distErr = inDir(repoRoot, func() error { return run(testVersion, distDir, []string{platform}, false) })
	})
	if distErr != nil {
		t.Fatalf("dist: %v", distErr)
	}
	return distDir
}

// inDir runs f in dir; tests that call it do not run in parallel.
func inDir(dir string, f func() error) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if err := os.Chdir(dir); err != nil {
		return err
	}
	defer os.Chdir(wd)
	return f()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if distDir != "" {
		os.RemoveAll(distDir)
	}
	os.Exit(code)
}

func archiveName(goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return "mirrorlint_" + strings.TrimPrefix(testVersion, "v") + "_" + goos + "_" + goarch + ext
}

func TestDistArchive(t *testing.T) {
	dir := distRelease(t)
	goos, goarch := runtime.GOOS, runtime.GOARCH
	name := archiveName(goos, goarch)
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("no %s: %v", name, err)
	}
	sums, err := os.ReadFile(filepath.Join(dir, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// sha256sum -c reads it as written.
	cmd := exec.Command("sha256sum", "-c", "checksums.txt")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		if _, lerr := exec.LookPath("sha256sum"); lerr == nil {
			t.Errorf("sha256sum -c checksums.txt: %v\n%s", err, out)
		}
	}
	if !strings.HasSuffix(string(sums), "  "+name+"\n") || strings.Count(string(sums), "\n") != 1 {
		t.Errorf("checksums.txt:\n%s", sums)
	}

	files := untar(t, data)
	var names []string
	for _, f := range files {
		names = append(names, f.name)
	}
	if strings.Join(names, " ") != "mirrorlint LICENSE README.md" {
		t.Errorf("archive holds %v, want mirrorlint LICENSE README.md", names)
	}
	ct, _ := exec.Command("git", "-C", repoRoot, "log", "-1", "--format=%ct").Output()
	for _, f := range files {
		want := int64(0o644)
		if f.name == "mirrorlint" {
			want = 0o755
		}
		if f.mode != want || f.uid != 0 || f.gid != 0 {
			t.Errorf("%s: mode %o uid %d gid %d", f.name, f.mode, f.uid, f.gid)
		}
		if got := strconv.FormatInt(f.mtime.Unix(), 10); got != strings.TrimSpace(string(ct)) {
			t.Errorf("%s: time %s, want the commit time %s", f.name, got, ct)
		}
	}
	readme, _ := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if !bytes.Equal(files[2].data, readme) {
		t.Errorf("README.md in the archive differs from the repository's")
	}

	bin := files[0].data
	// -trimpath: neither the module cache nor the checkout appear.
	for _, p := range []string{repoRoot, os.Getenv("HOME") + "/go/pkg/mod", distDir} {
		if p != "" && bytes.Contains(bin, []byte(p)) {
			t.Errorf("the binary contains the build path %s", p)
		}
	}
	if goos == "linux" {
		f, err := elf.NewFile(bytes.NewReader(bin))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("the linux binary is dynamically linked (program header %v)", p.Type)
			}
		}
	}
	exe := filepath.Join(t.TempDir(), "mirrorlint")
	if err := os.WriteFile(exe, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "--version").Output()
	head, _ := exec.Command("git", "-C", repoRoot, "rev-parse", "HEAD").Output()
	want := "mirrorlint version " + testVersion + " (commit " + strings.TrimSpace(string(head))
	if err != nil || !strings.HasPrefix(string(out), want) {
		t.Errorf("--version: %v %q, want %q…", err, out, want)
	}
}

// Two runs on the same commit, into different directories, give the same
// archives: nothing of the time, the place or the run is inside.
func TestDistReproducible(t *testing.T) {
	first := distRelease(t)
	second := t.TempDir()
	if err := inDir(repoRoot, func() error { return run(testVersion, second, []string{hostPlatform(t)}, false) }); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(first, "checksums.txt"))
	b, _ := os.ReadFile(filepath.Join(second, "checksums.txt"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("checksums differ between two runs:\n%s\n%s", a, b)
	}
}

func TestDistRefusesBadVersion(t *testing.T) {
	for _, v := range []string{"", "1.2.3", "v1.2", "latest", "v1.2.3; rm -rf /"} {
		if err := run(v, t.TempDir(), []string{"linux/amd64"}, false); err == nil || !strings.Contains(err.Error(), "make dist VERSION=v1.2.3") {
			t.Errorf("version %q: err = %v", v, err)
		}
	}
}

// Windows gets a zip with mirrorlint.exe; the name drops the v.
func TestDistWindowsZip(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mirrorlint.exe")
	if err := os.WriteFile(bin, []byte("MZ fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	var name string
	var data []byte
	err := inDir(root, func() error {
		var err error
		name, data, err = archive("1.2.3", "windows", "arm64", bin, time.Unix(1700000000, 0))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if name != archiveName("windows", "arm64") {
		t.Errorf("name %s", name)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if !f.Modified.Equal(time.Unix(1700000000, 0)) {
			t.Errorf("%s: modified %v", f.Name, f.Modified)
		}
	}
	if strings.Join(names, " ") != "mirrorlint.exe LICENSE README.md" {
		t.Errorf("zip holds %v", names)
	}
}

type tarFile struct {
	name     string
	mode     int64
	uid, gid int
	mtime    time.Time
	data     []byte
}

func untar(t *testing.T, data []byte) []tarFile {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !gz.ModTime.IsZero() || gz.Name != "" {
		t.Errorf("gzip header records %v %q", gz.ModTime, gz.Name)
	}
	tr := tar.NewReader(gz)
	var out []tarFile
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tarFile{h.Name, h.Mode, h.Uid, h.Gid, h.ModTime, b})
	}
}
