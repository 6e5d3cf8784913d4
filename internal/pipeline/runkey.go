package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/parallel"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// runKey is the key of req's whole result, "" when it may not be kept:
// no store, a base revision, a stream, no access root (reads could reach
// anywhere), no config given (it would be looked up), or checks whose
// results are not cached (policies reaching the network or the clock).
// The listing it was made from says at the end of the run whether the
// key still describes the inputs (listing.holds).
func runKey(c *Checks, req Request, sc *scope) (string, *listing) {
	if !mayKeep(req) {
		return "", nil
	}
	run := c.runFingerprint(req.Config)
	if run == "" {
		return "", nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", nil
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
		return "", nil
	}
	h := sha256.New()
	h.Write(opts)
	h.Write([]byte{'\n'})
	o.Files.Digest(h)
	memo := loadStatMemo(req.Runs)
	roots := listingRoots(req, sc)
	l := listRoots(h, o.Access, roots, o.Blobs, memo)
	memo.save(req.Runs)
	l.wd, l.roots, l.req, l.sc = wd, roots, req, sc
	return "run/" + hex.EncodeToString(h.Sum(nil)), l
}

// mayKeep reports whether req's result may be kept whole, as far as the
// request says: a store, no base revision, no stream, an access root and
// a config (runKey says the rest).
func mayKeep(req Request) bool {
	return req.Runs != nil && req.Base == nil && req.Stream == nil && req.Access != nil && req.Config != nil
}

// fresh reports whether store held nothing when the run began
// (contentcache.Pack.Fresh): no lookup in it can find what an earlier run
// kept. A store that cannot say is not.
func fresh(store manifest.Cache) bool {
	f, ok := store.(interface{ Fresh() bool })
	return ok && f.Fresh()
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
func listRoots(h hash.Hash, access *safefs.Root, roots []string, blobs func(string) (string, bool), memo *statMemo) *listing {
	l := &listing{access: access, blobs: blobs, limit: access.Limit(), memo: memo}
	for _, r := range roots {
		l.line("root", r)
		// The walk asks every directory above a path argument what it
		// is (a chart, a source-crs directory): those above the roots
		// are outside the listing.
		for d := filepath.Dir(r); ; d = filepath.Dir(d) {
			l.line("above", d)
			l.read(func() string { return manifest.UnappliedKindAt(d) })
			if filepath.Dir(d) == d {
				break
			}
		}
		// What the root is (or why it is not there) is a live read.
		st, err := os.Lstat(r)
		l.answered(rootType(st, err), func() string { return rootType(os.Lstat(r)) })
		switch {
		case err != nil:
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
	// The files git gives no id for are read and hashed on all cores, and
	// listed after the tree in the order they were met.
	ids := make([]string, len(l.pending))
	parallel.Each(len(l.pending), func(i int) { ids[i] = l.contentID(l.pending[i]) })
	for i, p := range l.pending {
		l.line("id", ids[i])
		l.live = append(l.live, liveRead{ids[i], func() string { return l.contentID(p) }})
	}
	h.Write(l.buf)
	l.buf = nil
	return l
}

// listing is a run's listing of the places it may read: one line per
// entry, in walk order. Directories come from the run's memo of them
// (safefs.Root.ReadRealDir: every walk of the run sees the tree the
// listing saw) and tracked files' ids from git's answer; what is read from
// the file system itself (links, the kinds of the directories above the
// roots, the roots' types, the content of files git gives no id for) is
// kept as a live read, which holds asks again at the end of the run.
type listing struct {
	access  *safefs.Root
	blobs   func(string) (string, bool)
	limit   int64
	memo    *statMemo
	buf     []byte
	pending []string // regular files whose content id is read after the walk
	live    []liveRead

	// What the key was made with, for holds.
	wd    string
	roots []string
	req   Request
	sc    *scope
}

// liveRead is one answer the listing had from the file system and how to
// ask again.
type liveRead struct {
	got  string
	read func() string
}

// holds reports whether the listing still describes the places the run
// read: the working directory and the listing's roots are the same, and
// every live read answers as it did. A run's reads end before it is kept,
// so an edit made while the run read its files shows here.
func (l *listing) holds() bool {
	if wd, err := os.Getwd(); err != nil || wd != l.wd || !slices.Equal(listingRoots(l.req, l.sc), l.roots) {
		return false
	}
	// The content ids of this listing stand for files whose stat data are
	// unchanged since it (not those it found racy, which are read again).
	if l.memo != nil {
		l.memo = &statMemo{old: l.memo.now, now: map[string]statID{}, since: time.Now()}
	}
	same := make([]bool, len(l.live))
	parallel.Each(len(l.live), func(i int) { same[i] = l.live[i].read() == l.live[i].got })
	return !slices.Contains(same, false)
}

// line adds a line of a word and a quoted string.
func (l *listing) line(word, s string) {
	l.buf = append(strconv.AppendQuote(append(append(l.buf, word...), ' '), s), '\n')
}

// read adds what read answers now as a line and as a live read.
func (l *listing) read(read func() string) { l.answered(read(), read) }

// answered adds got, what read answered now, as a line and a live read.
func (l *listing) answered(got string, read func() string) {
	l.line("is", got)
	l.live = append(l.live, liveRead{got, read})
}

func (l *listing) dir(real, rel string) {
	entries, err := l.access.ReadRealDir(real)
	if err != nil {
		l.line("error "+strconv.Quote(rel), err.Error())
	}
	prefix := real + string(filepath.Separator)
	if strings.HasSuffix(real, string(filepath.Separator)) {
		prefix = real
	}
	for _, e := range entries {
		name := e.Name()
		childRel := rel + "/" + name
		child := prefix + name
		if e.IsDir() && name == ".git" {
			// Git's own store: no walk enters it, and a run whose
			// builds read in it is not kept (see keepable).
			l.line("git", childRel)
			continue
		}
		l.entry(child, childRel, e.Type())
		if e.IsDir() {
			l.dir(child, childRel)
		}
	}
}

// entry lists one entry of type t at the real path p.
func (l *listing) entry(p, rel string, t os.FileMode) {
	switch {
	case t.IsDir():
		l.line("d", rel)
	case t&os.ModeSymlink != 0:
		l.line("l", rel)
		l.read(func() string {
			dest, err := os.Readlink(p)
			resolved, rerr := filepath.EvalSymlinks(p)
			return fmt.Sprintf("%q %v %q %v", dest, err, resolved, rerr)
		})
	case t.IsRegular():
		if l.blobs != nil {
			if id, ok := l.blobs(p); ok {
				l.line("f "+id, rel)
				return
			}
		}
		l.line("f", rel)
		l.pending = append(l.pending, p)
	default:
		l.line("o "+t.String(), rel)
	}
}

// rootType says what a root is from its Lstat, or why it is not there.
func rootType(st os.FileInfo, err error) string {
	if err != nil {
		return "missing " + err.Error()
	}
	return st.Mode().Type().String()
}

// contentID is git's blob id of the file at p, or for a file over the
// size limit (which every reader refuses, naming its size) the size.
func (l *listing) contentID(p string) string {
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
func (l *listing) readID(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return "error " + err.Error()
	}
	if int64(len(data)) > l.limit {
		return fmt.Sprintf("big %d", len(data))
	}
	return manifest.BlobID(data)
}
