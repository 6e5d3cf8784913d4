package shard

import (
	"fmt"
	"testing"
)

func TestParse(t *testing.T) {
	for _, ok := range []string{"", "1/1", "1/3", "3/3", " 2 / 4 "} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/3/4"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// Every name is in exactly one of N shards; membership depends on the
// name only; the split is roughly even.
func TestShardsPartitionTheFleet(t *testing.T) {
	const n = 4
	count := make([]int, n)
	for i := 0; i < 2000; i++ {
		name := fmt.Sprintf("sites/site-%04d", i)
		in := 0
		for k := 1; k <= n; k++ {
			if (Shard{K: k, N: n}).Has(name) {
				in++
				count[k-1]++
			}
		}
		if in != 1 {
			t.Fatalf("%s is in %d shards", name, in)
		}
	}
	for k, c := range count {
		if c < 400 || c > 600 {
			t.Errorf("shard %d/%d holds %d of 2000 names", k+1, n, c)
		}
	}
	if !(Shard{}).Has("anything") || !(Shard{K: 1, N: 1}).Has("") {
		t.Error("the whole keeps everything")
	}
}

// The shard of a name is fixed: a matrix job keeps its clusters across
// runs and machines. The expected shards were computed independently of
// this code from the FNV-1a 32-bit definition (offset basis 0x811c9dc5,
// prime 0x01000193, xor then multiply per byte), hash mod 3, plus one.
func TestShardIsStable(t *testing.T) {
	for name, want := range map[string]int{"overlays/prod": 3, "overlays/dev": 1, "sites/site-0001": 2} {
		got := 0
		for k := 1; k <= 3; k++ {
			if (Shard{K: k, N: 3}).Has(name) {
				got = k
			}
		}
		if got != want {
			t.Errorf("%s moved to shard %d/3, want %d/3", name, got, want)
		}
	}
}
