// Package suggest finds the name a user probably meant: a mistyped policy
// value, field, config key, command or flag.
package suggest

import (
	"sort"
	"strings"
)

// Closest returns the candidate nearest to s: an exact case-insensitive
// match, else a candidate that s is a case-insensitive prefix of (at least
// four letters, "Never" → "NeverContactSource"), else the one within max
// edits (ties broken alphabetically). It returns "" when nothing is close.
func Closest(s string, candidates []string, max int) string {
	ls := strings.ToLower(s)
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		if strings.ToLower(c) == ls {
			return c
		}
	}
	if len(ls) >= 4 {
		for _, c := range sorted {
			if strings.HasPrefix(strings.ToLower(c), ls) {
				return c
			}
		}
	}
	best, bestD := "", max+1
	for _, c := range sorted {
		if d := Distance(ls, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance of two short strings.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Typo is Closest for names typed on a command line: at most two edits,
// and fewer than half of what was typed, so that "--bogus" suggests nothing
// rather than some unrelated flag.
func Typo(s string, candidates []string) string {
	c := Closest(s, candidates, 2)
	if c == "" || Distance(strings.ToLower(s), strings.ToLower(c))*2 >= len(s) && !strings.EqualFold(s, c) && !strings.HasPrefix(strings.ToLower(c), strings.ToLower(s)) {
		return ""
	}
	return c
}
