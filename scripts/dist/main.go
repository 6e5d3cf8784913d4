// Command dist builds the release archives `make dist` publishes:
// mirrorlint_X.Y.Z_<os>_<arch>.tar.gz (.zip for windows), each holding the
// static binary, LICENSE and README.md, and checksums.txt in sha256sum
// format. Everything that could differ between two runs on the same commit
// is fixed: -trimpath, no cgo, the commit time as every file's time, owner
// root, sorted entries, gzip without a name or time. So a second run gives
// the same checksums, and anyone can rebuild a release and compare.
//
//	go run ./scripts/dist -version v1.2.3 [-out dist] [-platforms linux/amd64,...]
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Platforms are the os/arch pairs released by default.
var Platforms = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// versionRE accepts vMAJOR.MINOR.PATCH with an optional pre-release, the
// tags the release workflow runs on.
var versionRE = regexp.MustCompile(`^v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$`)

// extraFiles go into every archive next to the binary.
var extraFiles = []string{"LICENSE", "README.md"}

func main() {
	version := flag.String("version", "", "the release `vX.Y.Z` (required)")
	out := flag.String("out", "dist", "output `DIR`")
	platforms := flag.String("platforms", strings.Join(Platforms, ","), "comma-separated `OS/ARCH` list")
	binariesOnly := flag.Bool("binaries-only", false, "only build OUT/bin/OS_ARCH/mirrorlint, no archives or checksums (for make image)")
	flag.Parse()
	if err := run(*version, *out, strings.Split(*platforms, ","), *binariesOnly); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(2)
	}
}

func run(version, out string, platforms []string, binariesOnly bool) error {
	m := versionRE.FindStringSubmatch(version)
	if m == nil {
		return fmt.Errorf("VERSION %q is not vMAJOR.MINOR.PATCH[-PRERELEASE]: make dist VERSION=v1.2.3", version)
	}
	for _, f := range extraFiles {
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("%s goes into every archive: %w (run from the repository root)", f, err)
		}
	}
	commit, mtime := gitCommit()
	if err := os.MkdirAll(filepath.Join(out, "bin"), 0o755); err != nil {
		return err
	}
	sums := map[string]string{}
	for _, p := range platforms {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(p), "/")
		if !ok || goos == "" || goarch == "" {
			return fmt.Errorf("platform %q is not OS/ARCH", p)
		}
		bin, err := build(out, goos, goarch, version, commit)
		if err != nil {
			return err
		}
		if binariesOnly {
			fmt.Println(bin)
			continue
		}
		name, data, err := archive(m[1], goos, goarch, bin, mtime)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		sums[name] = hex.EncodeToString(sum[:])
		fmt.Println(filepath.Join(out, name))
	}
	if binariesOnly {
		return nil
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		fmt.Fprintf(&b, "%s  %s\n", sums[name], name)
	}
	return os.WriteFile(filepath.Join(out, "checksums.txt"), []byte(b.String()), 0o644)
}

// gitCommit returns HEAD and its commit time, the time every archive entry
// carries; outside a git checkout "unknown" and SOURCE_DATE_EPOCH (or
// 1970), so the archives stay reproducible there too.
func gitCommit() (string, time.Time) {
	mtime := time.Unix(0, 0).UTC()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			mtime = time.Unix(n, 0).UTC()
		}
	}
	out, err := exec.Command("git", "log", "-1", "--format=%H %ct").Output()
	if err != nil {
		return "unknown", mtime
	}
	sha, ct, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if os.Getenv("SOURCE_DATE_EPOCH") == "" {
		if n, err := strconv.ParseInt(ct, 10, 64); err == nil {
			mtime = time.Unix(n, 0).UTC()
		}
	}
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		sha += "+dirty"
	}
	return sha, mtime
}

// build compiles the command for one platform into out/bin/OS_ARCH/.
func build(out, goos, goarch, version, commit string) (string, error) {
	name := "mirrorlint"
	if goos == "windows" {
		name += ".exe"
	}
	bin := filepath.Join(out, "bin", goos+"_"+goarch, name)
	ldflags := "-s -w -X main.version=" + version + " -X main.commit=" + commit
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", bin, "./cmd/mirrorlint")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build for %s/%s: %w", goos, goarch, err)
	}
	return bin, nil
}

type entry struct {
	name string
	mode os.FileMode
	data []byte
}

// archive packs the binary and the extra files, flat, the binary first.
func archive(version, goos, goarch, bin string, mtime time.Time) (string, []byte, error) {
	data, err := os.ReadFile(bin)
	if err != nil {
		return "", nil, err
	}
	entries := []entry{{filepath.Base(bin), 0o755, data}}
	for _, f := range extraFiles {
		d, err := os.ReadFile(f)
		if err != nil {
			return "", nil, err
		}
		entries = append(entries, entry{f, 0o644, d})
	}
	base := fmt.Sprintf("mirrorlint_%s_%s_%s", version, goos, goarch)
	if goos == "windows" {
		b, err := zipOf(entries, mtime)
		return base + ".zip", b, err
	}
	b, err := tarGzOf(entries, mtime)
	return base + ".tar.gz", b, err
}

func tarGzOf(entries []entry, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: int64(e.mode), Size: int64(len(e.data)), ModTime: mtime,
			Typeflag: tar.TypeReg, Format: tar.FormatUSTAR, Uname: "root", Gname: "root"}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipOf(entries []entry, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(e.mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := io.Copy(w, bytes.NewReader(e.data)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
