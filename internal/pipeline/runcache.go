package pipeline

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/render"
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
	Outcomes []keptOutcome   `json:"outcomes"`
	Read     ReadSummary     `json:"read"`

	outcomes []Outcome // Outcomes with their renders' files read back
}

// keptOutcome is an Outcome as an entry holds it: its render's larger
// files are entries of their own (keptOutput).
type keptOutcome struct {
	Name       string
	Output     *keptOutput
	Refusal    *render.Refusal
	Stopped    *cluster.Stop
	Unreadable *manifest.Problem
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
				return !slices.Contains(strings.Split(filepath.ToSlash(rel), "/"), ".git")
			}
		}
	}
	return false
}

// storedRun returns the run kept under key, when there is one that
// decodes whole, names key and gives every cluster one outcome whose
// render's files are all there.
func storedRun(store manifest.Cache, key string) (*cachedRun, bool) {
	data, ok := store.Get(key)
	if !ok {
		return nil, false
	}
	r, ok := decodeRun(data, key)
	if !ok {
		return nil, false
	}
	r.outcomes = make([]Outcome, len(r.Outcomes))
	for i, k := range r.Outcomes {
		out, ok := k.Output.restore(store)
		if !ok {
			return nil, false
		}
		r.outcomes[i] = Outcome{Name: k.Name, Output: out, Refusal: k.Refusal, Stopped: k.Stopped, Unreadable: k.Unreadable}
	}
	return r, true
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

// keepRun stores res under key when it reads back exactly as it is and
// unchanged reports that the inputs are still those key lists
// (listing.holds: nothing was edited while the run read it). The two
// checks run at once, both a run's last steps before it answers.
func keepRun(store manifest.Cache, key string, res *Result, unchanged func() bool) {
	var data []byte
	var same bool
	var wg sync.WaitGroup
	wg.Go(func() { same = unchanged() })
	var kept []keptOutcome
	for _, o := range res.Outcomes() {
		kept = append(kept, keptOutcome{Name: o.Name, Output: keepOutput(store, o.Output), Refusal: o.Refusal, Stopped: o.Stopped, Unreadable: o.Unreadable})
	}
	entry := cachedRun{Key: key, Findings: res.Findings, Files: res.Files, Outcomes: kept, Read: res.Read()}
	if d, err := json.Marshal(entry); err == nil {
		if back, ok := decodeRun(d, key); ok && reflect.DeepEqual(*back, entry) {
			data = d // else something the encoding does not carry: never kept
		}
	}
	wg.Wait()
	if data != nil && same {
		store.Put(key, data)
	}
}
