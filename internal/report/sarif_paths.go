package report

import (
	"os"
	"path/filepath"
	"strings"
)

// Options carries what the formats read by other tools (SARIF, GitHub
// annotations, JUnit, the job summary) need beyond the findings: those tools
// resolve paths against the repository root, not against wherever mirrorlint
// happened to run.
type Options struct {
	// Base is the directory finding paths are made relative to: --context
	// when given, else "" for the working directory.
	Base string
	// Files lists every file that was linted, so that JUnit can report the
	// files that passed; when empty, only files with findings appear.
	Files []string
	// Getenv reads the GitHub environment for the job summary; nil means
	// os.Getenv. Tests replace it.
	Getenv func(string) string
}

// Configurable is implemented by writers that take Options.
type Configurable interface {
	Configure(Options) Writer
}

// Configure hands o to w when w takes options, and returns w unchanged
// otherwise, so the command can configure every output the same way.
func Configure(w Writer, o Options) Writer {
	if c, ok := w.(Configurable); ok {
		return c.Configure(o)
	}
	return w
}

func (o Options) getenv(k string) string {
	if o.Getenv != nil {
		return o.Getenv(k)
	}
	return os.Getenv(k)
}

// RelPath turns a finding's file into a forward-slash path relative to base
// (the working directory when base is ""), without a leading "./". A path
// that cannot be made relative without climbing out of base (a file outside
// the repository) is returned cleaned, as the best that can be said about it;
// "-" (standard input) is returned as is.
func RelPath(base, file string) string {
	if file == "" || file == "-" {
		return file
	}
	if base == "" {
		base = "."
	}
	absBase, err1 := filepath.Abs(base)
	absFile, err2 := filepath.Abs(file)
	if err1 == nil && err2 == nil {
		// Compare symlink-free paths when both exist: git reports its top
		// level resolved, while the user may have reached it through a link.
		if r, err := filepath.EvalSymlinks(absBase); err == nil {
			absBase = r
		}
		if r, err := filepath.EvalSymlinks(absFile); err == nil {
			absFile = r
		}
		if rel, err := filepath.Rel(absBase, absFile); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(file)), "./")
}
