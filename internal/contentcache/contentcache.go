// Package contentcache keeps per-file results between runs: what one file
// contributes to a run when nothing else in the tree matters to it (its
// parsed objects with their positions). Entries are looked up by a key the
// caller derives from the file's content (git's blob id) and the options
// that shape the result; the tool version and the caller's format are part
// of the pack's name and header, so another build never reads them.
//
// One run reads one pack file and, when it learnt something new, writes one
// back through a rename: a reader sees the old pack or the new one, never a
// mixture, and two runs writing at once leave one of the two complete
// packs. A pack that is truncated, altered or written by another version
// or format fails its checks and is ignored as a whole, never trusted.
package contentcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/atomicfile"
)

// EnvDir names the environment variable that moves the cache directory.
const EnvDir = "MIRRORLINT_CACHE_DIR"

// DefaultDir is where the cache lives: $MIRRORLINT_CACHE_DIR, else
// mirrorlint under the user's cache directory (os.UserCacheDir); "" when
// neither is known, which leaves the cache off.
func DefaultDir() string {
	if d := os.Getenv(EnvDir); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "mirrorlint")
}

const magic = "mirrorlint content cache 2\n"

// castagnoli is the pack's checksum (CRC-32C, which the processor computes
// at memory speed): it guards against a pack truncated or edited by
// accident, not against someone able to write the cache directory, who
// could write a valid checksum as well; so a cryptographic hash, read and
// written over tens of megabytes on every run that uses the pack, would
// buy nothing.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maxPackBytes bounds what one pack may hold (and what a run reads): a
// pack over it is ignored, and entries a run did not use are dropped from
// the next pack first when it would grow past it.
const maxPackBytes = 256 << 20

// Pack is the cache of one tool version and format in one directory.
// Get and Put are safe for concurrent use; Close writes what was learnt.
type Pack struct {
	path   string
	header []byte

	mu      sync.Mutex
	loaded  bool // the file has been read (on first use: see Open)
	held    int  // the entries the file held when read
	entries map[string][]byte
	used    map[string]bool
	dirty   bool
}

// Open names the pack of version and format under dir. The file is read
// on first use (Get or Put), so a run that never asks the pack (one whose
// whole result another pack held) does not pay for reading and checking
// it. An unreadable, corrupt or foreign pack gives an empty one (the next
// Close replaces it). version must name the build exactly (see Version);
// format names what the caller stores and how, so a change of either
// makes a new pack.
func Open(dir, version, format string) *Pack {
	id := sha256.Sum256([]byte(version + "\x00" + format))
	name := "pack-" + hex.EncodeToString(id[:12])
	return &Pack{
		path:    filepath.Join(dir, name),
		header:  []byte(magic + version + "\x00" + format + "\x00"),
		entries: map[string][]byte{},
		used:    map[string]bool{},
	}
}

// load reads the pack file once; the caller holds mu.
func (p *Pack) load() {
	if p.loaded {
		return
	}
	p.loaded = true
	if data, err := readBounded(p.path); err == nil {
		if entries, err := p.decode(data); err == nil {
			p.entries = entries
		}
	}
	p.held = len(p.entries)
}

// Fresh reports whether the pack held nothing when this run opened it (no
// file, or one that fails its checks): no Get can find what an earlier run
// stored, so a caller need not wait for a key to look up before it starts
// the work the key would have saved.
func (p *Pack) Fresh() bool {
	if p == nil {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.load()
	return p.held == 0
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() > maxPackBytes {
		return nil, errors.New("pack too large")
	}
	// One allocation of the size the pack has: growing a buffer from
	// nothing copies and clears tens of megabytes on every warm run. A pack
	// that changed size since the stat fails the checksum and is ignored.
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	return data, nil
}

var errCorrupt = errors.New("corrupt pack")

// decode checks the header and the checksum (CRC-32C, big-endian, the
// last four bytes) over everything before it, then reads the entries.
func (p *Pack) decode(data []byte) (map[string][]byte, error) {
	if len(data) < len(p.header)+crc32.Size || !bytes.HasPrefix(data, p.header) {
		return nil, errCorrupt
	}
	body, sum := data[:len(data)-crc32.Size], data[len(data)-crc32.Size:]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(sum) {
		return nil, errCorrupt
	}
	rest := body[len(p.header):]
	entries := map[string][]byte{}
	for len(rest) > 0 {
		key, r, ok := chunk(rest)
		if !ok {
			return nil, errCorrupt
		}
		val, r, ok := chunk(r)
		if !ok {
			return nil, errCorrupt
		}
		entries[string(key)] = val
		rest = r
	}
	return entries, nil
}

// chunk reads a length-prefixed byte string.
func chunk(b []byte) (val, rest []byte, ok bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)-w) {
		return nil, nil, false
	}
	return b[w : w+int(n)], b[w+int(n):], true
}

// Get returns the entry stored under key. The caller must still treat it
// as untrusted input: the pack's checksum guards against truncation and
// stray edits, not against a caller that stored something wrong.
func (p *Pack) Get(key string) ([]byte, bool) {
	if p == nil {
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.load()
	v, ok := p.entries[key]
	if ok {
		p.used[key] = true
	}
	return v, ok
}

// Put stores data under key for the next runs; the pack keeps data, which
// the caller must not change afterwards.
func (p *Pack) Put(key string, data []byte) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.load()
	if old, ok := p.entries[key]; ok && bytes.Equal(old, data) {
		p.used[key] = true
		return
	}
	p.entries[key] = data
	p.used[key] = true
	p.dirty = true
}

// Close writes the pack when this run added to it. Entries used by this
// run are kept first; the others while the pack stays under its bound.
// A failure to write leaves the cache as it was: the run's results do not
// depend on it.
func (p *Pack) Close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.dirty {
		return nil
	}
	p.dirty = false
	if err := os.MkdirAll(filepath.Dir(p.path), 0o755); err != nil {
		return err
	}
	// Written as it is produced, the checksum computed on the way: a pack
	// holding every ConfigMap of a large tree is tens of MB, which
	// assembling in memory first allocated and cleared on every write.
	// Not synced: a pack lost or torn in a crash fails its checksum and is
	// made again.
	return atomicfile.WriteUnsynced(p.path, 0o644, func(w io.Writer) error {
		sum := crc32.New(castagnoli)
		out := io.MultiWriter(w, sum)
		if _, err := out.Write(p.header); err != nil {
			return err
		}
		size := len(p.header)
		var scratch [binary.MaxVarintLen64]byte
		put := func(k string, v []byte) (bool, error) {
			n := len(k) + len(v) + 2*binary.MaxVarintLen64
			if size+n > maxPackBytes-crc32.Size {
				return false, nil
			}
			size += n
			if _, err := out.Write(binary.AppendUvarint(scratch[:0], uint64(len(k)))); err != nil {
				return false, err
			}
			if _, err := io.WriteString(out, k); err != nil {
				return false, err
			}
			if _, err := out.Write(binary.AppendUvarint(scratch[:0], uint64(len(v)))); err != nil {
				return false, err
			}
			_, err := out.Write(v)
			return true, err
		}
		// Entries used by this run first, then the others while the pack
		// stays under its bound.
		for k := range p.used {
			if _, err := put(k, p.entries[k]); err != nil {
				return err
			}
		}
		for k, v := range p.entries {
			if p.used[k] {
				continue
			}
			if ok, err := put(k, v); err != nil {
				return err
			} else if !ok {
				break
			}
		}
		_, err := w.Write(sum.Sum(nil))
		return err
	})
}
