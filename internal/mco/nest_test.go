package mco

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

func TestScopeIndexAgreesWithIsNested(t *testing.T) {
	for _, tc := range []struct {
		sub, super string
		want       bool
	}{
		{"quay.io", "quay.io", true},
		{"quay.io/a/b", "quay.io/a", true},
		{"quay.io/ab", "quay.io/a", false},
		{"quay.io:443/a", "quay.io", false},
		{"a.example.com", "*.example.com", true},
		{"a.b.example.com/x/y", "*.example.com", true},
		{"a.example.com:5000/x", "*.example.com", true},
		{"example.com", "*.example.com", false},
		{"*.a.example.com", "*.example.com", true},
		{"quay.io/a.example.com", "*.example.com", false},
		{"quay.io/x:a.example.com", "*.example.com", false},
		{"a.example.com/p:1", "*.example.com", false},
		{"a.example.comx", "*.example.com", false},
		{"*.example.com", "*.example.com", true},
	} {
		if got := scopes.IsNested(tc.sub, tc.super); got != tc.want {
			t.Errorf("IsNested(%q, %q) = %v, want %v", tc.sub, tc.super, got, tc.want)
		}
		// The index must agree with the plain function.
		ix := newScopeIndex(1)
		ix.add(tc.super, 0)
		if _, got := ix.containing(tc.sub, false); got != tc.want {
			t.Errorf("index containing(%q) in {%q} = %v, want %v", tc.sub, tc.super, got, tc.want)
		}
		if _, got := ix.containing(tc.sub, true); got != (tc.want && tc.sub != tc.super) {
			t.Errorf("index strict containing(%q) in {%q} = %v", tc.sub, tc.super, got)
		}
	}
}

func TestScopeIndexFirst(t *testing.T) {
	ix := newScopeIndex(3)
	ix.add("q.io/a/b", 0)
	ix.add("q.io/a", 1)
	ix.add("*.io", 2)
	if v, ok := ix.containing("q.io/a/b/c", true); !ok || v != 0 {
		t.Fatalf("got %d %v, want 0", v, ok)
	}
	if v, ok := ix.containing("z.io/x", true); !ok || v != 2 {
		t.Fatalf("got %d %v, want 2", v, ok)
	}
	if _, ok := ix.containing("q.io/a", true); ok {
		// q.io/a is inside *.io (value 2): strictness only excludes itself.
		t.Log("q.io/a inside *.io as expected")
	} else {
		t.Fatal("q.io/a should be inside *.io")
	}
}
