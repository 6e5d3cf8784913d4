package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// A run whose inputs are all unchanged gives the result it gave before, so
// the whole result (before formatting) is kept under a key computed before
// anything is parsed: the tool version, the checks and the config (as the
// per-cluster key holds them), every option of the request, and a listing
// of every place the run may read. Reads are confined to Access (the
// repository and the paths the command line names), so the listing walks
// all of Access's directories and files: each entry's name and type, each
// regular file's content id (git's blob id when Request.Blobs gives it,
// else the file read and hashed; a file over the size limit, which no
// reader opens, by its size), each link's target and where it resolves,
// and what the walk takes each directory above the roots for. What a
// kustomize build read is in the listing too (its reads go through the
// same root); every build tells the run which paths it asked about
// (build.BuildLog), and a run with a build that asked about a path the
// listing does not hold (outside the roots, inside .git), walked a tree or
// ran out of time is not kept. A miss runs the ordinary path, which still
// fills the per-file and per-cluster caches.

// runFormat is the version of the run entry's encoding, part of every key.
const runFormat = "pipeline-run-result-1"

// cachedRun is a whole run's result, what the formatters and the exit
// code read: the findings, the reported files, each cluster's outcome,
// and what the command's warnings about an empty tree read.
type cachedRun struct {
	Key      string          `json:"key"`
	Findings []check.Finding `json:"findings"`
	Files    []string        `json:"files"`
	Outcomes []Outcome       `json:"outcomes"`
	Read     ReadSummary     `json:"read"`
}

// ReadSummary is what the command's notes and warnings about what was read
// need of the project (see Result.Read).
type ReadSummary struct {
	// Notices are the project's notes (project.Project.Notices).
	Notices []string `json:"notices"`
	// AnyFile says a file was read; Held that an object or a problem
	// came of the files or of a cluster.
	AnyFile bool `json:"anyFile"`
	Held    bool `json:"held"`
}

// Summarize is what p's run read.
func Summarize(p *project.Project) ReadSummary {
	s := ReadSummary{Notices: p.Notices(), AnyFile: len(p.Set.Files) > 0, Held: len(p.Set.Objects)+len(p.Set.Problems) > 0}
	for _, cl := range p.Clusters {
		s.Held = s.Held || len(cl.Objects)+len(cl.Problems) > 0
	}
	return s
}

// runKey is the key of req's whole result, "" when it may not be kept:
// no store, a base revision, a stream, no access root (reads could reach
// anywhere), no config given (it would be looked up), or checks whose
// results are not cached (policies reaching the network or the clock).
func runKey(c *Checks, req Request, sc *scope) string {
	if req.Runs == nil || req.Base != nil || req.Stream != nil || req.Access == nil || req.Config == nil {
		return ""
	}
	run := c.runFingerprint(req.Config)
	if run == "" {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	o := req.Options
	var budget [2]int64
	if o.Access.Budget != nil {
		budget = [2]int64{o.Access.Budget.Max, o.Access.Budget.MaxObjects}
	}
	var needs any
	if o.Needs != nil {
		needs = struct {
			All   bool
			Kinds []string
		}{o.Needs.All(), o.Needs.Kinds()}
	}
	opts, err := json.Marshal(struct {
		Format, Run, Wd                         string
		Paths, OriginRoots, Only, Select        []string
		Context, ConfigPath, Root, Repository   string
		ReleaseImage, OpenShiftVersion, Cluster string
		FeatureSet                              string
		MaxFileSize, Limit                      int64
		Budget                                  [2]int64
		Shard                                   [2]int
		Absent                                  map[string]string
		Static, NoDefaultPolicy                 bool
		Unmodelled                              int
		Needs                                   any
		Dirs, AccessFiles                       []string
	}{runFormat, run, wd, o.Paths, req.OriginRoots, o.Only, o.Select, req.Context, o.ConfigPath, o.Root, o.Repository,
		o.ReleaseImage, o.OpenShiftVersion, o.Cluster, o.FeatureSet, o.MaxFileSize, o.Access.Limit(), budget,
		[2]int{o.Shard.K, o.Shard.N}, o.Absent, o.Static, o.NoDefaultPolicy, int(o.Unmodelled), needs, o.Access.Dirs(), o.Access.Files()})
	if err != nil {
		return ""
	}
	h := sha256.New()
	h.Write(opts)
	h.Write([]byte{'\n'})
	o.Files.Digest(h)
	listRoots(h, listingRoots(req, sc), o.Blobs, o.Access.Limit())
	return "run/" + hex.EncodeToString(h.Sum(nil))
}

// listingRoots are the places the run may read, real and absolute, none
// inside another: Access's directories and files, what the run loads, and
// the config's source CR directories (a config given with --config may
// name one outside the repository, whose refusal names where it leads).
func listingRoots(req Request, sc *scope) []string {
	var all []string
	places := append(append(req.Access.Dirs(), req.Access.Files()...), append(sc.loadPaths(req.Paths), req.Context)...)
	for _, p := range append(places, req.Config.SourceCRDirs()...) {
		if p == "" {
			continue
		}
		// A place that does not resolve is listed as missing, so that
		// it appearing changes the key.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if abs, err := filepath.Abs(p); err == nil {
			all = append(all, abs)
		}
	}
	sort.Strings(all)
	var out []string
	for _, p := range all {
		if n := len(out); n > 0 {
			if _, in := manifest.Within(out[n-1], p); in {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// listRoots writes the listing of roots to h.
func listRoots(h hash.Hash, roots []string, blobs func(string) (string, bool), limit int64) {
	l := &lister{blobs: blobs, limit: limit}
	for _, r := range roots {
		l.add(fmt.Sprintf("root %q\n", r))
		// The walk asks every directory above a path argument what it
		// is (a chart, a source-crs directory): those above the roots
		// are outside the listing.
		for d := filepath.Dir(r); ; d = filepath.Dir(d) {
			l.add(fmt.Sprintf("above %q %q\n", d, manifest.UnappliedKindAt(d)))
			if filepath.Dir(d) == d {
				break
			}
		}
		st, err := os.Lstat(r)
		switch {
		case err != nil:
			l.add(fmt.Sprintf("missing %v\n", err))
		case st.IsDir():
			l.entry(r, "", st.Mode().Type())
			l.dir(r, "")
		default:
			l.entry(r, "", st.Mode().Type())
		}
	}
	// The files git gives no id for are read and hashed on all cores.
	each(len(l.pending), func(i int) {
		pe := l.pending[i]
		l.lines[pe.line] = fmt.Sprintf("f %q %s\n", pe.rel, l.contentID(pe.path))
	})
	for _, line := range l.lines {
		h.Write([]byte(line))
	}
}

// lister lists a tree: one line per entry, in walk order.
type lister struct {
	blobs   func(string) (string, bool)
	limit   int64
	lines   []string
	pending []pendingFile // regular files whose line waits for their content id
}

type pendingFile struct {
	line      int
	path, rel string
}

func (l *lister) add(line string) { l.lines = append(l.lines, line) }

func (l *lister) dir(real, rel string) {
	entries, err := os.ReadDir(real)
	if err != nil {
		l.add(fmt.Sprintf("error %q %v\n", rel, err))
	}
	for _, e := range entries {
		name := e.Name()
		childRel := rel + "/" + name
		child := filepath.Join(real, name)
		if e.IsDir() && name == ".git" {
			// Git's own store: no walk enters it, and a run whose
			// builds read in it is not kept (see keepable).
			l.add(fmt.Sprintf("git %q\n", childRel))
			continue
		}
		l.entry(child, childRel, e.Type())
		if e.IsDir() {
			l.dir(child, childRel)
		}
	}
}

// entry lists one entry of type t at the real path p.
func (l *lister) entry(p, rel string, t os.FileMode) {
	switch {
	case t.IsDir():
		l.add(fmt.Sprintf("d %q\n", rel))
	case t&os.ModeSymlink != 0:
		dest, err := os.Readlink(p)
		resolved, rerr := filepath.EvalSymlinks(p)
		l.add(fmt.Sprintf("l %q %q %v %q %v\n", rel, dest, err, resolved, rerr))
	case t.IsRegular():
		if l.blobs != nil {
			if id, ok := l.blobs(p); ok {
				l.add(fmt.Sprintf("f %q %s\n", rel, id))
				return
			}
		}
		l.pending = append(l.pending, pendingFile{len(l.lines), p, rel})
		l.add("")
	default:
		l.add(fmt.Sprintf("o %q %v\n", rel, t))
	}
}

// contentID is git's blob id of the file at p, or for a file over the
// size limit (which every reader refuses, naming its size) the size.
func (l *lister) contentID(p string) string {
	st, err := os.Stat(p)
	if err != nil {
		return "error " + err.Error()
	}
	if st.Size() > l.limit {
		return fmt.Sprintf("big %d", st.Size())
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "error " + err.Error()
	}
	if int64(len(data)) > l.limit {
		return fmt.Sprintf("big %d", len(data))
	}
	return manifest.BlobID(data)
}

// runRecorder is the loader's cache during a run that may be kept whole:
// it passes every call to the cache below (nil: none) and hears of every
// kustomize build the run used (it is a build.BuildLog, which the tests
// hold it to).
type runRecorder struct {
	below manifest.Cache

	mu      sync.Mutex
	unknown bool     // a build read more than it could say, or ran out of time
	asked   []string // every path a build asked about
}

func (r *runRecorder) Get(key string) ([]byte, bool) {
	if r.below == nil {
		return nil, false
	}
	return r.below.Get(key)
}

func (r *runRecorder) Put(key string, data []byte) {
	if r.below != nil {
		r.below.Put(key, data)
	}
}

func (r *runRecorder) Built(_ string, paths []string, known bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unknown = r.unknown || !known
	r.asked = append(r.asked, paths...)
}

// keepable reports whether everything the run's builds asked about is in
// the listing of roots: every build could say what it asked, and each
// path lies inside a root, outside any .git directory.
func (r *runRecorder) keepable(roots []string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.unknown {
		return false
	}
	seen := map[string]bool{}
	for _, p := range r.asked {
		if seen[p] {
			continue
		}
		seen[p] = true
		if !listed(roots, p) {
			return false
		}
	}
	return true
}

// listed reports whether the path p (as kustomize asked about it) lies in
// the listing of roots, resolved through its directory's links when it
// does not as written.
func listed(roots []string, p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	candidates := []string{abs}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		candidates = append(candidates, filepath.Join(dir, filepath.Base(abs)))
	}
	for _, c := range candidates {
		for _, root := range roots {
			if rel, in := manifest.Within(root, c); in {
				return !slicesContains(strings.Split(filepath.ToSlash(rel), "/"), ".git")
			}
		}
	}
	return false
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// storedRun returns the run kept under key, when there is one that
// decodes whole, names key and gives every cluster one outcome.
func storedRun(store manifest.Cache, key string) (*cachedRun, bool) {
	data, ok := store.Get(key)
	if !ok {
		return nil, false
	}
	return decodeRun(data, key)
}

func decodeRun(data []byte, key string) (*cachedRun, bool) {
	var r cachedRun
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(&r) != nil || dec.More() || r.Key != key {
		return nil, false
	}
	for _, o := range r.Outcomes {
		n := 0
		for _, set := range []bool{o.Output != nil, o.Refusal != nil, o.Stopped != nil, o.Unreadable != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			return nil, false
		}
	}
	return &r, true
}

// keepRun stores res under key when it reads back exactly as it is.
func keepRun(store manifest.Cache, key string, res *Result) {
	entry := cachedRun{Key: key, Findings: res.Findings, Files: res.Files, Outcomes: res.Outcomes(), Read: res.Read()}
	data, err := json.Marshal(entry)
	if err != nil {
		return
	}
	back, ok := decodeRun(data, key)
	if !ok || !reflect.DeepEqual(*back, entry) {
		// Something the encoding does not carry: never kept.
		return
	}
	store.Put(key, data)
}
