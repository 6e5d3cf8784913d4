package build

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Builds are kept between runs in the loader's cache (manifest.Options.
// Cache), so a warm run over an unchanged overlay does not run kustomize
// again. An entry holds the build's transcript (recorded.go) and what the
// build printed, before it is read back as objects; it is taken only when
// the file system answers every question of the transcript as before, and
// what it holds is read by the same loader as a fresh build's output, so
// a corrupt or foreign entry gives at worst a miss or a loading problem,
// never findings a build would not give.

type cachedBuild struct {
	Key     string   `json:"key"`
	Calls   []fsCall `json:"calls"`
	Output  []byte   `json:"output"`
	Origins []string `json:"origins"`
}

// buildKey names the build of dir under name over a file system of fs's
// kind, with the loader options and kinds that shape what is read back.
func buildKey(fs filesys.FileSystem, dir, name string, opts manifest.Options, needs manifest.Needs) string {
	data, err := json.Marshal(struct {
		FS, Dir, Name string
		Unmodelled    int
		MaxFileSize   int64
		All           bool
		Kinds         []string
	}{fmt.Sprintf("%T", fs), dir, name, int(opts.Unmodelled), opts.MaxFileSize, needs.All(), needs.Kinds()})
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return "kustomize-build/" + hex.EncodeToString(sum[:])
}

// fromCache returns the stored output of the build key names when fs still
// answers as it did for that build.
func fromCache(c manifest.Cache, fs filesys.FileSystem, key string) (output []byte, origins []string, calls []fsCall, ok bool) {
	if c == nil || key == "" {
		return nil, nil, nil, false
	}
	data, ok := c.Get(key)
	if !ok {
		return nil, nil, nil, false
	}
	var e cachedBuild
	if json.Unmarshal(data, &e) != nil || e.Key != key || len(e.Calls) == 0 || !sameAnswers(fs, e.Calls) {
		return nil, nil, nil, false
	}
	return e.Output, e.Origins, e.Calls, true
}

// toCache stores a build's output under key when its transcript can be
// replayed.
func toCache(c manifest.Cache, key string, rec *recordingFS, output []byte, origins []string) {
	calls := rec.transcript()
	if c == nil || key == "" || len(calls) == 0 {
		return
	}
	data, err := json.Marshal(cachedBuild{Key: key, Calls: calls, Output: output, Origins: origins})
	if err == nil {
		c.Put(key, data)
	}
}

// BuildLog is what a cache given to the loader (manifest.Options.Cache)
// may also be, to hear of every kustomize build a run ran or took from the
// cache: a caller that keeps a whole run's result (package pipeline) keys
// it by a listing of the tree, and must know that every build read only
// what the listing holds.
type BuildLog interface {
	// Built reports one build: every path it asked the file system about
	// (read, listed, checked, opened or was refused), and known, false
	// when that list may be short (the build walked a tree) or the
	// build's outcome depended on more than those files (it ran out of
	// time).
	Built(key string, paths []string, known bool)
}

// logBuild tells c, when it is a BuildLog, of a build under key.
func logBuild(c manifest.Cache, key string, paths []string, known bool) {
	if l, ok := c.(BuildLog); ok {
		l.Built(key, paths, known)
	}
}

// callPaths are the paths a transcript asks about.
func callPaths(calls []fsCall) []string {
	out := make([]string, 0, len(calls))
	for _, c := range calls {
		out = append(out, c.Path)
	}
	return out
}
