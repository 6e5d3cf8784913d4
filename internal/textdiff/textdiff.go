// Package textdiff produces unified diffs of small text files (rendered
// registries.conf, migrated manifests). It is a plain Myers O((N+M)·D)
// line diff: the inputs are at most a few thousand lines and usually differ
// in a handful, so neither heuristics nor a dependency are worth it.
package textdiff

import (
	"fmt"
	"strings"
)

// DefaultContext is the number of unchanged lines around each hunk, as in
// `diff -u`.
const DefaultContext = 3

// maxEdit bounds the edit distance searched; beyond it (two unrelated
// files of thousands of lines) the diff is reported as a whole-file
// replacement, which is correct, only less minimal, and keeps memory flat.
const maxEdit = 4000

// line is one line of input; eol is false for a last line without "\n".
type line struct {
	text string
	eol  bool
}

func split(s string) []line {
	if s == "" {
		return nil
	}
	parts := strings.SplitAfter(s, "\n")
	out := make([]line, 0, len(parts))
	for _, p := range parts {
		if p == "" {
			continue
		}
		if strings.HasSuffix(p, "\n") {
			out = append(out, line{text: p[:len(p)-1], eol: true})
		} else {
			out = append(out, line{text: p})
		}
	}
	return out
}

// op is one step of the edit script: ' ' keep, '-' delete a[i], '+' insert b[j].
type op struct {
	kind byte
	i, j int
}

// Unified returns the unified diff turning a into b, with oldName and
// newName in the header, or "" when they are equal.
func Unified(oldName, newName string, a, b []byte, context int) string {
	if string(a) == string(b) {
		return ""
	}
	la, lb := split(string(a)), split(string(b))
	ops := editScript(la, lb)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(ops, context) {
		writeHunk(&out, la, lb, ops[h[0]:h[1]])
	}
	return out.String()
}

// editScript returns the shortest edit script, prefix and suffix first
// trimmed so the Myers search only sees the changed middle.
func editScript(a, b []line) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', i, i})
	}
	for _, o := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		ops = append(ops, op{o.kind, o.i + pre, o.j + pre})
	}
	for k := 0; k < suf; k++ {
		ops = append(ops, op{' ', len(a) - suf + k, len(b) - suf + k})
	}
	return ops
}

func myers(a, b []line) []op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(n, m)
	}
	limit := min(n+m, maxEdit)
	// v[off+k] is the furthest x reached on diagonal k; trace[d] is a copy
	// of v before round d, kept only for k in [-d-1, d+1] (index k+d+1).
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m)
			}
		}
	}
	return replaceAll(n, m)
}

func backtrack(trace [][]int, n, m int) []op {
	var rev []op
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		get := func(k int) int { return trace[d][k+d+1] }
		k := x - y
		var prevK int
		if k == -d || (k != d && get(k-1) < get(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := get(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, op{' ', x, y})
		}
		if d > 0 {
			if x == prevX {
				y--
				rev = append(rev, op{'+', x, y})
			} else {
				x--
				rev = append(rev, op{'-', x, y})
			}
		}
		x, y = prevX, prevY
	}
	ops := make([]op, len(rev))
	for i := range rev {
		ops[i] = rev[len(rev)-1-i]
	}
	return ops
}

func replaceAll(n, m int) []op {
	ops := make([]op, 0, n+m)
	for i := 0; i < n; i++ {
		ops = append(ops, op{'-', i, 0})
	}
	for j := 0; j < m; j++ {
		ops = append(ops, op{'+', n, j})
	}
	return ops
}

// hunks groups changes that are at most 2*context unchanged lines apart,
// returning [start, end) ranges into ops including their context.
func hunks(ops []op, context int) [][2]int {
	var out [][2]int
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		if len(out) > 0 && start < out[len(out)-1][1] {
			start = out[len(out)-1][1]
		}
		out = append(out, [2]int{start, end})
		i = end
	}
	return out
}

func writeHunk(w *strings.Builder, a, b []line, ops []op) {
	aStart, bStart := ops[0].i, ops[0].j
	aLen, bLen := 0, 0
	for _, o := range ops {
		if o.kind != '+' {
			aLen++
		}
		if o.kind != '-' {
			bLen++
		}
	}
	fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, o := range ops {
		var l line
		switch o.kind {
		case '+':
			l = b[o.j]
		default:
			l = a[o.i]
		}
		w.WriteByte(o.kind)
		w.WriteString(l.text)
		w.WriteByte('\n')
		if !l.eol {
			w.WriteString("\\ No newline at end of file\n")
		}
	}
}

// hunkRange prints a 0-based start and a length the way GNU diff does.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
