package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sort"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/parallel"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

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
	memo := loadStatMemo(req.Runs)
	listRoots(h, o.Access, listingRoots(req, sc), o.Blobs, memo)
	memo.save(req.Runs)
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

// listRoots writes the listing of roots to h, reading directories through
// access (so that the run's walks, on a miss, see the listed tree and do
// not read it again). Content ids of files git has none for come from
// memo when their stat data are unchanged (see statMemo); memo may be nil.
func listRoots(h hash.Hash, access *safefs.Root, roots []string, blobs func(string) (string, bool), memo *statMemo) {
	l := &lister{access: access, blobs: blobs, limit: access.Limit(), memo: memo}
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
			// The listing visits every directory below r: listed at
			// once first, the walk below takes them from the memo.
			access.Prefetch(r, nil)
			l.entry(r, "", st.Mode().Type())
			l.dir(r, "")
		default:
			l.entry(r, "", st.Mode().Type())
		}
	}
	// The files git gives no id for are read and hashed on all cores.
	parallel.Each(len(l.pending), func(i int) {
		pe := l.pending[i]
		l.lines[pe.line] = fmt.Sprintf("f %q %s\n", pe.rel, l.contentID(pe.path))
	})
	for _, line := range l.lines {
		h.Write([]byte(line))
	}
}

// lister lists a tree: one line per entry, in walk order.
type lister struct {
	access  *safefs.Root
	blobs   func(string) (string, bool)
	limit   int64
	memo    *statMemo
	lines   []string
	pending []pendingFile // regular files whose line waits for their content id
}

type pendingFile struct {
	line      int
	path, rel string
}

func (l *lister) add(line string) { l.lines = append(l.lines, line) }

func (l *lister) dir(real, rel string) {
	entries, err := l.access.ReadRealDir(real)
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
	if l.memo != nil {
		return l.memo.id(p, st, func() string { return l.readID(p) })
	}
	return l.readID(p)
}

// readID reads the file at p for its content id.
func (l *lister) readID(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return "error " + err.Error()
	}
	if int64(len(data)) > l.limit {
		return fmt.Sprintf("big %d", len(data))
	}
	return manifest.BlobID(data)
}
