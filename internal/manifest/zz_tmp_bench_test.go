package manifest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/contentcache"
)

func BenchmarkTmpCache(b *testing.B) {
	r, _ := benchrepo.Get(10000)
	defer benchrepo.Cleanup()
	blobs := map[string]string{}
	filepath.WalkDir(r.Dir, func(p string, d fs.DirEntry, err error) error {
		if d.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			blobs[p] = BlobID(data)
		}
		return nil
	})
	cdir := b.TempDir()
	opts := Options{Unmodelled: UnmodelledImages}
	b.Run("Parse", func(b *testing.B) {
		for b.Loop() {
			Load([]string{r.Dir}, Options{})
		}
	})
	b.Run("Images", func(b *testing.B) {
		for b.Loop() {
			Load([]string{r.Dir}, opts)
		}
	})
	b.Run("Cold", func(b *testing.B) {
		for b.Loop() {
			os.RemoveAll(cdir)
			p := contentcache.Open(cdir, "x", CacheFormat)
			o := opts
			o.Cache = p
			Load([]string{r.Dir}, o)
			p.Close()
		}
	})
	b.Run("WarmHash", func(b *testing.B) {
		for b.Loop() {
			p := contentcache.Open(cdir, "x", CacheFormat)
			o := opts
			o.Cache = p
			Load([]string{r.Dir}, o)
			p.Close()
		}
	})
	b.Run("WarmBlobs", func(b *testing.B) {
		for b.Loop() {
			p := contentcache.Open(cdir, "x", CacheFormat)
			o := opts
			o.Cache = p
			o.Blobs = func(p string) (string, bool) { s, ok := blobs[p]; return s, ok }
			Load([]string{r.Dir}, o)
			p.Close()
		}
	})
	st, _ := os.ReadDir(cdir)
	for _, e := range st {
		i, _ := e.Info()
		b.Log(e.Name(), i.Size())
	}
}
