package pipeline

import (
	"encoding/json"
	"os"
	"sync"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A run's listing gives every regular file git has no id for (ignored or
// untracked, changed, outside the repository) a content id, which means
// reading it: in a repository holding an ignored node_modules or an
// oc-mirror working directory that is hundreds of MB read and hashed on
// every run, more than the run itself reads. So the content ids are kept
// between runs with each file's stat data (size, modification and change
// times, inode, mode), and a file whose stat data are unchanged keeps its
// id unread: git trusts its index the same way (gitrev.Blobs), and the
// same caveat makes the same exception: a file modified within two
// seconds of the listing ("racy", as git calls it) is not kept, since
// another write in the same clock tick would leave its stat data as they
// were.

// statMemoKey is where the content ids are kept, beside the run entries.
const statMemoKey = "run-stat-ids/1"

// racyWindow is how recent a modification may be for its stat data not to
// be trusted.
const racyWindow = 2 * time.Second

// statID is a file's stat data and the content id they vouch for.
type statID struct {
	Stat string `json:"s"`
	ID   string `json:"i"`
}

// statMemo holds the ids read from the store and those of this listing.
type statMemo struct {
	mu    sync.Mutex
	old   map[string]statID
	now   map[string]statID
	since time.Time // the listing's start, for the racy window
}

func loadStatMemo(store manifest.Cache) *statMemo {
	m := &statMemo{old: map[string]statID{}, now: map[string]statID{}, since: time.Now()}
	if store == nil {
		return m
	}
	if data, ok := store.Get(statMemoKey); ok {
		var old map[string]statID
		if json.Unmarshal(data, &old) == nil {
			m.old = old
		}
	}
	return m
}

// id is the content id of the file at p with stat data st: the kept one
// when they are unchanged, else read() and kept when p is not racy.
func (m *statMemo) id(p string, st os.FileInfo, read func() string) string {
	stat, ok := statData(st)
	m.mu.Lock()
	prev, had := m.old[p]
	m.mu.Unlock()
	if ok && had && prev.Stat == stat {
		m.keep(p, prev)
		return prev.ID
	}
	id := read()
	if ok && !changedSince(st, m.since.Add(-racyWindow)) {
		m.keep(p, statID{stat, id})
	}
	return id
}

func (m *statMemo) keep(p string, s statID) {
	m.mu.Lock()
	m.now[p] = s
	m.mu.Unlock()
}

// save stores the ids of this listing (only those: a file gone is
// forgotten) when they differ from what was kept.
func (m *statMemo) save(store manifest.Cache) {
	if store == nil || len(m.now) == 0 && len(m.old) == 0 {
		return
	}
	if len(m.now) == len(m.old) {
		same := true
		for p, s := range m.now {
			if m.old[p] != s {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	if data, err := json.Marshal(m.now); err == nil {
		store.Put(statMemoKey, data)
	}
}
