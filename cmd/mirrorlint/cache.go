package main

import (
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/contentcache"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// noCacheFlag turns the content cache off (docs/performance.md).
func noCacheFlag() *cli.BoolFlag {
	return &cli.BoolFlag{
		Name: noCacheName,
		Usage: "do not read or write the cache of per-file and per-cluster results ($" + contentcache.EnvDir + ", default mirrorlint under the user cache directory); " +
			"a cached run reports exactly what an uncached one does",
		EnvVars: []string{"MIRRORLINT_NO_CACHE"},
	}
}

// cacheDir is the cache's directory, false when the run has none
// (--no-cache, no user cache directory, a build without a build ID).
func cacheDir(c *cli.Context) (string, bool) {
	dir, version := contentcache.DefaultDir(), contentcache.Version()
	return dir, !c.Bool(noCacheName) && dir != "" && version != ""
}

// openCaches opens the loader's cache (openCache) and the results'
// (openResults) for req and returns what writes both back. The loader's
// is written as soon as the run has loaded everything (Request.Loaded),
// while the checks run: a first run's is tens of MB. Written again at the
// end should anything have been added since (a write of a pack without
// news is nothing).
func openCaches(c *cli.Context, req *pipeline.Request, top string, blobs map[string]string) (done func()) {
	files := openCache(c, &req.Options, blobs)
	results := openResults(c, req, top)
	var early sync.WaitGroup
	req.Loaded = func() { early.Go(files) }
	return func() {
		results()
		early.Wait()
		files()
	}
}

// openCache sets po's loader cache, unless --no-cache, and returns what
// writes it back. In a repository the files git holds unchanged (blobs,
// gitrev.Blobs) are looked up by the index's blob ids without being read.
// A cache that cannot be opened or written only makes the run slower: the
// results do not depend on it, so nothing is reported.
func openCache(c *cli.Context, po *project.Options, blobs map[string]string) (done func()) {
	dir, ok := cacheDir(c)
	if !ok {
		return func() {}
	}
	pack := contentcache.Open(dir, contentcache.Version(), manifest.CacheFormat)
	po.Cache = pack
	if blobs != nil {
		po.Blobs = func(osPath string) (string, bool) {
			abs, err := manifest.Abs(osPath)
			if err != nil {
				return "", false
			}
			if b, ok := blobs[abs]; ok {
				return b, true
			}
			b, ok := blobs[manifest.RealPath(abs)]
			return b, ok
		}
	}
	return func() {
		if po.Access.Budget.HeapOver() {
			// A run stopped at its memory budget writes no cache: what it
			// read is partial, and writing the pack needs memory it no
			// longer has.
			return
		}
		_ = pack.Close()
	}
}

// openResults sets req's store of per-cluster check results, unless
// --no-cache, and returns what writes it back: a pack of its own beside the
// loader's, so that a run that checks nothing new does not rewrite the
// larger one. In a repository the same pack keeps whole runs
// (Request.Runs): a run over an unchanged tree loads nothing. Not for
// --render, which writes files, nor --base, which reads another tree (the
// pipeline leaves it out itself); outside a repository the listing that
// keys a whole run would read and hash everything under the working
// directory, so it is not made.
func openResults(c *cli.Context, req *pipeline.Request, top string) (done func()) {
	dir, ok := cacheDir(c)
	if !ok {
		return func() {}
	}
	pack := contentcache.Open(dir, contentcache.Version(), pipeline.ResultFormat)
	req.Results = pack
	if top != "" && c.String("render") == "" && c.String("base") == "" {
		req.Runs = pack
	}
	return func() { _ = pack.Close() }
}
