package manifest

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/parallel"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/ztp"
)

// Options controls Load and LoadReader. The zero value is ready to use.
type Options struct {
	// MaxFileSize is the largest file, in bytes, that is parsed; larger files
	// give a "file-too-large" Problem. 0 means safefs.DefaultMaxFileSize.
	MaxFileSize int64
	// Workers is the number of files parsed at once. 0 means GOMAXPROCS.
	Workers int
	// Exclude holds glob patterns (path.Match syntax plus "**" for any
	// number of directories) matched against slash paths relative to the
	// root they were found under. A pattern without a slash matches a base
	// name at any depth, like .gitignore. A matching directory is not
	// entered. Explicit file arguments are matched as given.
	Exclude []string
	// Files, when set, restricts what a directory walk reads to its
	// members (see FileSet): in a git repository, the files git holds.
	// Explicit file arguments are read whatever the set says, and so is a
	// directory argument none of whose files is in it (the user named it).
	Files *FileSet
	// Prefilter, when set, leaves unparsed every file that cannot hold an
	// object of the kinds it needs (Needs.MayHold): such a file is read
	// and listed, but what is wrong inside it goes unreported. For runs
	// that report only on some files (a pre-commit check); ParseAll names
	// the files parsed whatever they hold (the files being committed).
	Prefilter *Needs
	ParseAll  func(name string) bool
	// Narrowed, when set with Prefilter, is what is needed of the files
	// Narrows names instead: less than Prefilter (the kinds a pre-commit
	// check needs only from the files it reports on, see
	// check.Registry.Judged).
	Narrowed *Needs
	Narrows  func(name string) bool
	// ListNames are base names of files without a manifest extension that
	// List reports (Listing.Named) without reading them: kustomize's
	// extension-less "Kustomization".
	ListNames map[string]bool
	// Unmodelled says which objects of other kinds than the mirror kinds
	// are kept (see Unmodelled); the zero value keeps none.
	Unmodelled Unmodelled
	// Access, when set, confines every file read to its root (see
	// safefs.Root); nil reads any regular file the walk reaches.
	Access *safefs.Root
	// SourceCRs are directories holding ZTP source CRs, searched after the
	// source-crs directory a PolicyGenTemplate runs in (the
	// configuration's sourceCRs, as paths to open).
	SourceCRs []string
	// GeneratorDir, when set, names the directory (a path to open) the
	// ZTP generator in the file at osPath runs in, "" for the file's own:
	// both generators resolve their relative paths from the directory
	// kustomize runs them in, that of the kustomization listing the file
	// under generators, which only discovery knows.
	GeneratorDir func(osPath string) string
	// Kustomize, when set, builds a PolicyGenerator manifest directory
	// holding a kustomization, as the policy generator does (package
	// build's, which this package cannot import); without it what such a
	// directory delivers is reported as not linted.
	Kustomize ztp.Kustomizer
	// Cache, when set, holds per-file results between runs (see Cache):
	// a file whose content has a stored result is not parsed. Blobs, when
	// set, gives the blob id of a file whose content git already knows
	// (the index's id of a file the work tree has not changed), so that
	// such a file is not even read; other files are read and hashed.
	Cache Cache
	Blobs func(osPath string) (blob string, ok bool)
}

func (o Options) maxFileSize() int64 {
	if o.MaxFileSize <= 0 {
		return safefs.DefaultMaxFileSize
	}
	return o.MaxFileSize
}

// needsOf is what the prefilter needs of a file; nil when the file is
// parsed whatever it holds.
func (o Options) needsOf(name string) *Needs {
	switch {
	case o.Prefilter == nil || (o.ParseAll != nil && o.ParseAll(name)):
		return nil
	case o.Narrowed != nil && o.Narrows != nil && o.Narrows(name):
		return o.Narrowed
	}
	return o.Prefilter
}

// skips reports whether the prefilter, needing needs of a file (needsOf),
// leaves it unparsed.
func (o Options) skips(it walkItem, needs *Needs, data []byte) bool {
	return needs != nil && !needs.MayHoldFile(it.name, data, o.Unmodelled)
}

// heapOver reports whether the run's memory budget is spent (see
// safefs.Budget.HeapOver): no more files are read or parsed.
func (o Options) heapOver() bool {
	return o.Access != nil && o.Access.Budget.HeapOver()
}

// ErrNotFound is wrapped by the error Load returns for a path argument that
// does not exist; it is the only error Load returns.
var ErrNotFound = errors.New("no such file or directory")

// Load reads every manifest under paths (files and directories; "." when
// paths is empty); a stream is read with LoadReader. Everything wrong with the input
// is reported as a Problem in the Set; the error is only for a path argument
// that does not exist, which the CLI turns into a usage error.
func Load(paths []string, opts Options) (*Set, error) {
	l, err := List(paths, opts)
	if err != nil {
		return nil, err
	}
	return l.Load(nil, opts), nil
}

// LoadReader reads one stream (for example standard input, or a file the
// caller already opened) as if it were a file called name.
func LoadReader(name string, r io.Reader, opts Options) (*Set, error) {
	items := []walkItem{{name: name, stdin: true}}
	return runJobs(items, opts, r), nil
}

// runJobs parses the walked files in parallel and assembles the Set in walk
// order, so the result does not depend on scheduling.
func runJobs(items []walkItem, opts Options, stdin io.Reader) *Set {
	results := make([]fileResult, len(items))
	parallel.Within(opts.Workers, len(items), func(i int) {
		it := items[i]
		if it.problem != nil {
			results[i].problems = []Problem{*it.problem}
			return
		}
		results[i] = loadOne(it, opts, stdin)
	})
	set := &Set{}
	stopped, told := false, false
	for i, it := range items {
		if it.problem == nil && !it.template {
			set.Files = append(set.Files, it.name)
		}
		if stopped = stopped || results[i].stopped; stopped {
			// Past the first file the memory budget stopped, in walk
			// order, nothing is kept: which later files were parsed
			// before the stop depends on scheduling.
			if results[i].stopped && !told {
				told = true
				set.Problems = append(set.Problems, memoryProblem(opts, it.name))
			}
			continue
		}
		set.Objects = append(set.Objects, keptObjects(opts, it.name, results[i].objects, &set.Problems)...)
		set.Problems = append(set.Problems, results[i].problems...)
		if reads := results[i].reads; len(reads) > 0 {
			g := Expansion{Files: reads}
			for _, p := range results[i].problems {
				if slices.Contains(reads, p.Pos.File) {
					g.Problems = append(g.Problems, p)
				}
			}
			if set.Expansions == nil {
				set.Expansions = map[string]Expansion{}
			}
			set.Expansions[it.name] = g
		}
	}
	return set
}

// memoryProblem is the one problem of a load the memory budget stopped,
// at the first file it left unread or half parsed.
func memoryProblem(opts Options, name string) Problem {
	return Problem{Pos: Position{File: name, Line: 1, Column: 1}, Code: "limit-exceeded",
		Message: fmt.Sprintf("the run's memory budget (%s) is spent: the heap grew past it while the tree was read, and the load stopped here: this file and every later file are not checked (the limit is fixed); lint the tree in parts, one run per directory", opts.Access.Budget.MemoryLimit())}
}

// keptObjects takes a file's objects from the run's object budget, in the
// walk's sorted order so that where the run stops does not depend on which
// file finished parsing first. The first file over the budget is named in
// one limit-exceeded problem per run.
func keptObjects(opts Options, name string, objs []*Object, problems *[]Problem) []*Object {
	if opts.Access == nil || opts.Access.Budget == nil {
		return objs
	}
	b := opts.Access.Budget
	n := b.TakeObjects(len(objs))
	if n < len(objs) && b.FirstObjectRefusal() {
		*problems = append(*problems, Problem{Pos: Position{File: name, Line: 1, Column: 1}, Code: "limit-exceeded",
			Message: fmt.Sprintf("the run keeps at most %d objects and stopped keeping them here: object %d of this file and every later file's objects are not checked (the limit is fixed); lint the tree in parts, one run per directory", b.MaxObjects, n+1)})
	}
	return objs[:n]
}

// narrowObjects leaves out of a file read with Options.Narrowed the
// objects of the kinds it leaves out of Prefilter: the run needs them only
// from the files parsed whole. They are left out after parsing, so that
// what is stored for the file stays whole. An object a policy delivers is
// always kept: a generator makes it from a source CR, whose values (an
// image) sit in that file, which may be one ParseAll names; and a file
// holding policies is parsed whatever the prefilter says (wrapperKinds),
// so keeping them costs no parse.
func (o Options) narrowObjects(needs *Needs, res fileResult) fileResult {
	if needs == nil || needs != o.Narrowed {
		return res
	}
	kept := res.objects[:0:0]
	for _, obj := range res.objects {
		k := string(obj.Kind)
		if needs.Has(k, o.Unmodelled) || !o.Prefilter.Has(k, o.Unmodelled) || obj.DeliveredBy != "" {
			kept = append(kept, obj)
		}
	}
	res.objects = kept
	return res
}

// loadOne reads and parses one file. A panic anywhere in parsing (a bug in
// us or in the YAML library) becomes a Problem for that file rather than
// taking the whole run down.
func loadOne(it walkItem, opts Options, stdin io.Reader) (res fileResult) {
	defer func() {
		if r := recover(); r != nil {
			res = fileResult{problems: []Problem{{
				Pos:     Position{File: it.name},
				Code:    "internal-error",
				Message: fmt.Sprintf("internal error while reading this file (please report it): %v", r),
			}}}
		}
	}()
	if opts.heapOver() {
		return fileResult{stopped: true}
	}
	var needs *Needs // what the prefilter needs of the file; nil: all of it
	if !it.stdin {
		needs = opts.needsOf(it.name)
	}
	caching := opts.Cache != nil && !it.stdin && !it.template
	if caching && opts.Blobs != nil {
		if blob, ok := opts.Blobs(it.osPath); ok {
			if res, ok := opts.cached(it, needs, blob); ok {
				return opts.narrowObjects(needs, res)
			}
		}
	}
	buf, prob := readInput(it, opts.maxFileSize(), opts.Access, stdin)
	if prob != nil {
		if opts.heapOver() {
			// Refused for the memory budget (it is spent for good).
			return fileResult{stopped: true}
		}
		return fileResult{problems: []Problem{*prob}}
	}
	defer releaseBuffer(buf)
	if it.template {
		return templateFile(it.name, buf.Bytes())
	}
	var blob string
	if caching {
		// The prefilter judges a stored result as it judges the text
		// (Options.cached), so it is looked up before the prefilter.
		blob = BlobID(buf.Bytes())
		if res, ok := opts.cached(it, needs, blob); ok {
			return opts.narrowObjects(needs, res)
		}
	}
	if opts.skips(it, needs, buf.Bytes()) {
		return fileResult{}
	}
	if err := safefs.CheckDepth(it.name, buf.Bytes()); err != nil {
		return fileResult{problems: []Problem{boundsProblem(it.name, err)}}
	}
	if it.stdin {
		return parseStream(it.name, buf.Bytes(), opts)
	}
	res = parseFileAt(it.name, it.osPath, blob, buf.Bytes(), opts)
	if caching {
		opts.store(it.name, blob, buf.Bytes(), res)
	}
	res = opts.narrowObjects(needs, res)
	return res
}

// boundsProblem is a file refused for its shape (too deep, too many
// aliases) before the parser builds anything from it.
func boundsProblem(name string, err error) Problem {
	p := Problem{Pos: Position{File: name}, Code: "yaml-bounds", Message: err.Error()}
	var pe *safefs.PositionedError
	if errors.As(err, &pe) {
		p.Pos.Line, p.Pos.Column, p.Message = pe.Line, pe.Column, pe.Msg
	}
	return p
}
