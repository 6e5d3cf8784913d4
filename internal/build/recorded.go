package build

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// A kustomize build is a function of what its file system answers: the
// plugins, helm and the network are off, so nothing else reaches it. The
// recording file system writes down every question a build asks and a
// digest of each answer (the transcript); a later run that gets the same
// answers to the same questions would get the same build, so it may take
// the stored output instead of running kustomize (see buildcache.go).

// fsCall is one question of a build and the digest of its answer.
type fsCall struct {
	Op     string `json:"op"`
	Path   string `json:"path"`
	Answer string `json:"answer"`
}

// recordingFS passes every call through to the file system below and
// records it. A build that opens or walks a file, or that is refused a
// read, is not recorded exactly (the answer is a stream, or the refusal
// is reported beside the build): its transcript is marked unusable.
type recordingFS struct {
	filesys.FileSystem
	mu       sync.Mutex
	calls    []fsCall
	unusable bool
	// others are the paths of the calls not in the transcript (opened,
	// walked, refused); walked says a tree was walked, whose paths are
	// not written down.
	others []string
	walked bool
}

// touched is every path the build asked about, whether or not its
// transcript can be replayed; ok is false when a walk leaves that list
// short.
func (r *recordingFS) touched() (paths []string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.calls {
		paths = append(paths, c.Path)
	}
	return append(paths, r.others...), !r.walked
}

// spoilAt marks the transcript unusable by a call about p.
func (r *recordingFS) spoilAt(p string, walk bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unusable = true
	r.others = append(r.others, p)
	r.walked = r.walked || walk
}

func (r *recordingFS) add(op, path, answer string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, fsCall{op, path, answer})
}

// transcript is what the build asked, nil when it cannot be replayed.
func (r *recordingFS) transcript() []fsCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.unusable {
		return nil
	}
	return r.calls
}

func (r *recordingFS) Open(p string) (filesys.File, error) {
	r.spoilAt(p, false)
	return r.FileSystem.Open(p)
}

func (r *recordingFS) Walk(p string, fn filepath.WalkFunc) error {
	r.spoilAt(p, true)
	return r.FileSystem.Walk(p, fn)
}

func (r *recordingFS) IsDir(p string) bool {
	v := r.FileSystem.IsDir(p)
	r.add("isdir", p, strconv.FormatBool(v))
	return v
}

func (r *recordingFS) Exists(p string) bool {
	v := r.FileSystem.Exists(p)
	r.add("exists", p, strconv.FormatBool(v))
	return v
}

func (r *recordingFS) ReadDir(p string) ([]string, error) {
	v, err := r.FileSystem.ReadDir(p)
	r.add("readdir", p, listAnswer(v, err))
	return v, err
}

func (r *recordingFS) Glob(p string) ([]string, error) {
	v, err := r.FileSystem.Glob(p)
	r.add("glob", p, listAnswer(v, err))
	return v, err
}

func (r *recordingFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	d, f, err := r.FileSystem.CleanedAbs(p)
	r.add("cleanedabs", p, listAnswer([]string{string(d), f}, err))
	return d, f, err
}

func (r *recordingFS) ReadFile(p string) ([]byte, error) {
	data, err := r.FileSystem.ReadFile(p)
	if err != nil {
		r.spoilAt(p, false)
		return data, err
	}
	r.add("read", p, contentAnswer(data))
	return data, err
}

// answer gives what fs answers to c now, in the form c recorded it; ok is
// false when the question cannot be asked again the same way.
func answer(fs filesys.FileSystem, c fsCall) (string, bool) {
	switch c.Op {
	case "isdir":
		return strconv.FormatBool(fs.IsDir(c.Path)), true
	case "exists":
		return strconv.FormatBool(fs.Exists(c.Path)), true
	case "readdir":
		v, err := fs.ReadDir(c.Path)
		return listAnswer(v, err), true
	case "glob":
		v, err := fs.Glob(c.Path)
		return listAnswer(v, err), true
	case "cleanedabs":
		d, f, err := fs.CleanedAbs(c.Path)
		return listAnswer([]string{string(d), f}, err), true
	case "read":
		data, err := fs.ReadFile(c.Path)
		if err != nil {
			return "", false
		}
		return contentAnswer(data), true
	}
	return "", false
}

// sameAnswers reports whether fs answers every recorded question as it
// was answered when the transcript was made.
func sameAnswers(fs filesys.FileSystem, calls []fsCall) bool {
	for _, c := range calls {
		if got, ok := answer(fs, c); !ok || got != c.Answer {
			return false
		}
	}
	return true
}

func contentAnswer(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// listAnswer is a digest of a list answer and its error, in order: the
// order of ReadDir and Glob results is part of what kustomize sees.
func listAnswer(v []string, err error) string {
	h := sha256.New()
	for _, s := range v {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	if err != nil {
		h.Write([]byte("\x00error:" + strings.TrimSpace(err.Error())))
	}
	return hex.EncodeToString(h.Sum(nil))
}
