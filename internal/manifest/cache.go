package manifest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
)

// Cache holds per-file results between runs (package contentcache). A file's
// result depends on its bytes and on the options that shape it (which other
// kinds are kept, the size limit), never on the rest of the tree, so it is
// stored under git's blob id of the content with those options.
//
// Only results that can be restored exactly are stored: a file that gave no
// problems, whose objects are image-field extracts, objects kept whole or
// mirror objects (their typed form decoded again from the restored node),
// or none at all. Problems, mirror objects a policy delivers, and files
// whose result depends on other files (a ZTP generator reads its source
// CRs) are parsed again every run.
type Cache interface {
	Get(key string) ([]byte, bool)
	Put(key string, data []byte)
}

// CacheFormat names the entry encoding; it is part of the pack's identity,
// so entries written by another encoding are never read.
const CacheFormat = "manifest-file-result-4"

// BlobID is git's object id of a file holding data (the SHA-1 of
// "blob <size>\x00" and the data): what `git ls-files -s` lists for a file
// the index holds, so an unchanged file's key is known without reading it.
func BlobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// cacheKey is the key of a file's result: the content's blob id, the
// options that shape the result, and the one thing of its name the loader
// reads (an install-config is known by its name).
func (o Options) cacheKey(name, blob string) string {
	class := "f"
	if IsInstallConfigFile(name) {
		class = "i"
	}
	return strconv.Itoa(int(o.Unmodelled)) + "/" + strconv.FormatInt(o.maxFileSize(), 10) + "/" + class + "/" + blob
}

// cached returns the stored result of the file whose content has the
// given blob id, false when there is none or it does not decode. The
// prefilter, needing needs of the file (needsOf), judges the kinds stored
// with it as it would judge the text: a file it skips gives nothing, as
// when it is read.
func (o Options) cached(it walkItem, needs *Needs, blob string) (fileResult, bool) {
	data, ok := o.Cache.Get(o.cacheKey(it.name, blob))
	if !ok {
		return fileResult{}, false
	}
	objs, kinds, unsure, err := decodeResult(it.name, blob, data)
	if err != nil {
		return fileResult{}, false
	}
	if needs != nil && !needs.mayHoldFileKinds(it.name, kinds, unsure, o.Unmodelled) {
		return fileResult{}, true
	}
	return fileResult{objects: objs}, true
}

// store keeps the result of parsing data when it can be restored exactly.
func (o Options) store(name, blob string, data []byte, res fileResult) {
	if len(res.problems) > 0 || res.readOthers {
		return
	}
	kinds, unsure := kindsIn(data)
	if entry, ok := encodeResult(res.objects, kinds, unsure); ok {
		o.Cache.Put(o.cacheKey(name, blob), entry)
	}
}
