package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/render"
)

// ResultFormat names what Request.Results holds: one entry per checked
// cluster, its findings as the rules and policies reported them (before
// relocation and suppressions, which depend on files outside the cluster
// and on the other clusters) and its render or MCO's refusal. Open it as a
// pack of its own (contentcache.Open(dir, version, ResultFormat)).
const ResultFormat = "pipeline-cluster-result-1"

// A cluster's check results depend on what the cluster holds (its objects
// with their nodes and the text of the files they sit in, its loading
// problems, its name, paths, inputs and settings) and on what checks it
// (the build, the rules and policies, the config). The key is a digest of
// all of these, so a run over an unchanged cluster takes its results from
// the cache, and a change to any file a cluster read gives it a new key.
// Everything across clusters (the merge, suppressions, the unused ones,
// the pre-commit filter) is done after, on every run.

// cachedResult is one cluster's entry. Key repeats the key it was stored
// under, so an entry found under another key (a foreign or moved entry)
// is not taken.
type cachedResult struct {
	Key      string          `json:"key"`
	Findings []check.Finding `json:"findings"`
	Rendered *keptOutput     `json:"rendered,omitempty"`
	Refusal  *render.Refusal `json:"refusal,omitempty"`
}

// resultKey is the key of cl's check results for a run whose checks and
// config have the fingerprint run; "" when the results may not be cached.
func resultKey(run string, cl *cluster.Cluster) string {
	if run == "" {
		return ""
	}
	h := sha256.New()
	meta, err := json.Marshal(struct {
		Run              string
		Name             string
		Source           cluster.Source
		Reason           string
		Paths, Inputs    []string
		ReleaseImage     string
		OpenShiftVersion string
		Settings         cluster.Settings
		Problems         []manifest.Problem
	}{run, cl.Name, cl.Source, cl.Reason, cl.Paths, cl.Inputs, cl.ReleaseImage, cl.OpenShiftVersion, cl.Settings, cl.Problems})
	if err != nil {
		return ""
	}
	h.Write(meta)
	manifest.Digest(h, cl.Objects)
	return "cluster/" + hex.EncodeToString(h.Sum(nil))
}

// runFingerprint is what a run's checks depend on besides the cluster:
// the checks (the build and the policies they were compiled from) and the
// config; "" when the results may not be cached (no result store, checks
// not compiled by LoadChecks, policies that reach the network).
func (c *Checks) runFingerprint(cfg *config.Config) string {
	if c.fingerprint == "" {
		return ""
	}
	data, err := json.Marshal(struct {
		Checks string
		Path   string
		Config *config.Config
	}{c.fingerprint, cfgPath(cfg), cfg})
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func cfgPath(cfg *config.Config) string {
	if cfg == nil {
		return ""
	}
	return cfg.Path
}

// policyFingerprint is a digest of what the policies of o are compiled
// from: the options and the bytes of every file under the policy
// directories and of every data file. "" when results depend on more than
// that: policies allowed to reach the network, a policy reading the clock
// (time.now_ns, the one input outside the repository a policy may read),
// or a file that cannot be read.
func policyFingerprint(o policy.Options) string {
	if o.AllowNet {
		return ""
	}
	h := sha256.New()
	opts, err := json.Marshal(struct {
		Builtin, Strict bool
		Timeout, Memory int64
		Dirs, Data      []string
	}{o.Builtin, o.Strict, int64(o.Timeout), o.Memory, o.Dirs, o.DataFiles})
	if err != nil {
		return ""
	}
	h.Write(opts)
	var files []string
	for _, d := range o.Dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return ""
		}
	}
	sort.Strings(files)
	for _, f := range append(files, o.DataFiles...) {
		data, err := os.ReadFile(f)
		if err != nil || bytes.Contains(data, []byte("time.now_ns")) {
			return ""
		}
		h.Write([]byte(strconv.Quote(f) + " " + strconv.Itoa(len(data)) + "\n"))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cachedCheck is engine.Check of cl through the result store: the stored
// results when the key (keyOf's) has an entry that decodes and names it,
// else Check's, stored when Check succeeds and nothing stopped at a limit.
// hit says which. In a fresh store (one that held nothing when the run
// began) no lookup can hit, so Check starts at once and the key is made
// beside it, for storing.
func cachedCheck(store manifest.Cache, keyOf func() string, engine *check.Engine, cl *cluster.Cluster) (fs []check.Finding, c *check.Context, hit bool, err error) {
	if store == nil {
		fs, c, err = engine.Check(cl)
		return fs, c, false, err
	}
	var key string
	if fresh(store) {
		var wg sync.WaitGroup
		wg.Go(func() { key = keyOf() })
		fs, c, err = engine.Check(cl)
		wg.Wait()
	} else {
		if key = keyOf(); key == "" {
			fs, c, err = engine.Check(cl)
			return fs, c, false, err
		}
		if data, ok := store.Get(key); ok {
			var r cachedResult
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if dec.Decode(&r) == nil && r.Key == key && (r.Rendered == nil) != (r.Refusal == nil) {
				if out, ok := r.Rendered.restore(store); ok {
					// What NewContext would give the callers: the render
					// or the refusal, and the cluster with the version it
					// rendered.
					return r.Findings, &check.Context{Cluster: cl, Settings: cl.Settings, Rendered: out, Refusal: r.Refusal}, true, nil
				}
			}
		}
		fs, c, err = engine.Check(cl)
	}
	if err != nil || key == "" || (c.Rendered == nil) == (c.Refusal == nil) || atLimit(fs) {
		return fs, c, false, err
	}
	if data, err := json.Marshal(cachedResult{Key: key, Findings: fs, Rendered: keepOutput(store, c.Rendered), Refusal: c.Refusal}); err == nil {
		store.Put(key, data)
	}
	return fs, c, false, nil
}

// atLimit reports whether a result holds a limit-exceeded finding. Such a
// result is not stored: a policy stopped at --policy-timeout or at its
// memory budget stopped because of how fast the machine was and what else
// the run held at the time, which the key does not hold, so the next run
// evaluates it again rather than repeat a stop that may not recur.
func atLimit(fs []check.Finding) bool {
	for _, f := range fs {
		if f.Rule == check.LimitRule.ID {
			return true
		}
	}
	return false
}
