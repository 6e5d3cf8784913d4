package textdiff

import (
	"math/rand"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n"
	got := Unified("old", "new", []byte(a), []byte(b), 3)
	want := `--- old
+++ new
@@ -1,10 +1,11 @@
 a
 b
 c
-d
+D
 e
 f
 g
 h
 i
 j
+k
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if Unified("x", "y", []byte(a), []byte(a), 3) != "" {
		t.Fatal("equal inputs must give no diff")
	}
}

func TestSeparateHunksAndNoNewline(t *testing.T) {
	var a, b []string
	for i := 0; i < 20; i++ {
		a = append(a, string(rune('a'+i)))
	}
	b = append(b, a...)
	b[1] = "X"
	b[18] = "Y"
	got := Unified("o", "n", []byte(strings.Join(a, "\n")), []byte(strings.Join(b, "\n")), 2)
	want := `--- o
+++ n
@@ -1,4 +1,4 @@
 a
-b
+X
 c
 d
@@ -17,4 +17,4 @@
 q
 r
-s
+Y
 t
\ No newline at end of file
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFromAndToEmpty(t *testing.T) {
	if got, want := Unified("o", "n", nil, []byte("x\ny\n"), 3), "--- o\n+++ n\n@@ -0,0 +1,2 @@\n+x\n+y\n"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	if got, want := Unified("o", "n", []byte("x\n"), nil, 3), "--- o\n+++ n\n@@ -1 +0,0 @@\n-x\n"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

// TestApplyRoundTrip checks on random inputs that applying the edit script
// to a gives b and that the script is no longer than a naive LCS bound.
func TestApplyRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	gen := func() []line {
		n := r.Intn(30)
		out := make([]line, n)
		for i := range out {
			out[i] = line{text: string(rune('a' + r.Intn(4))), eol: true}
		}
		return out
	}
	for iter := 0; iter < 2000; iter++ {
		a, b := gen(), gen()
		ops := editScript(a, b)
		var got []line
		edits := 0
		for _, o := range ops {
			switch o.kind {
			case ' ':
				if a[o.i] != b[o.j] {
					t.Fatalf("keep of unequal lines")
				}
				got = append(got, a[o.i])
			case '+':
				got = append(got, b[o.j])
				edits++
			default:
				edits++
			}
		}
		if len(got) != len(b) {
			t.Fatalf("iter %d: applied length %d want %d", iter, len(got), len(b))
		}
		for i := range got {
			if got[i] != b[i] {
				t.Fatalf("iter %d: line %d differs", iter, i)
			}
		}
		if want := len(a) + len(b) - 2*lcs(a, b); edits != want {
			t.Fatalf("iter %d: %d edits, minimal is %d", iter, edits, want)
		}
	}
}

func lcs(a, b []line) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
