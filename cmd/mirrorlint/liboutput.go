package main

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/report"
)

// Libraries the command builds on write to the process's standard error
// on their own: kustomize prints a deprecation warning each time it loads
// a kustomization using `bases`, `patchesStrategicMerge` and the like, so
// a tree of fifty overlays on such a base prints hundreds of lines, in an
// order that changes from run to run (builds run at once). The command
// gives the libraries a pipe instead, and once the run is over writes each
// distinct line once, sorted, with how many times it came, after its own
// output. Its own messages go to the standard error it was started with.

// maxLibraryLines bounds the distinct lines kept; the rest are counted.
const maxLibraryLines = 200

// divertLibraryOutput points os.Stderr at a pipe and returns what writes
// the lines read from it to to. Call it before anything runs that could
// write to os.Stderr, and flush once the run is over: a build stopped at
// its time limit and still running writes to a closed file afterwards,
// which fails silently.
func divertLibraryOutput(to io.Writer) (flush func()) {
	r, w, err := os.Pipe()
	if err != nil {
		return func() {}
	}
	os.Stderr = w
	counts := map[string]int{}
	dropped := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if _, seen := counts[line]; seen || len(counts) < maxLibraryLines {
				counts[line]++
			} else {
				dropped++
			}
		}
		// A line longer than the scanner takes ends the scan; the pipe
		// is still drained so that no writer blocks on it.
		io.Copy(io.Discard, r)
	}()
	return func() {
		w.Close()
		<-done
		r.Close()
		out := report.SafeLog(to)
		for _, line := range slices.Sorted(maps.Keys(counts)) {
			if n := counts[line]; n > 1 {
				fmt.Fprintf(out, "%s (%d times)\n", line, n)
			} else {
				fmt.Fprintln(out, line)
			}
		}
		if dropped > 0 {
			fmt.Fprintf(out, "mirrorlint: %d more lines the libraries wrote to standard error were left out\n", dropped)
		}
		out.Flush()
	}
}
