// Package shard splits a fleet of clusters between CI jobs: `--shard K/N`
// keeps the clusters whose name hashes to K among N. The choice depends on
// the cluster's name alone, so a cluster stays in its shard whatever other
// clusters are added or removed, every cluster is in exactly one shard, and
// the N jobs of a matrix together cover the whole repository.
package shard

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is one of N parts; the zero value is the whole (no sharding).
type Shard struct {
	K, N int
}

// Parse reads "K/N" with 1 ≤ K ≤ N; "" is the zero Shard.
func Parse(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	k, kerr := strconv.Atoi(strings.TrimSpace(ks))
	n, nerr := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || kerr != nil || nerr != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("--shard %q: want K/N with 1 ≤ K ≤ N, e.g. 2/4", s)
	}
	return Shard{K: k, N: n}, nil
}

// Whole reports whether s keeps every cluster.
func (s Shard) Whole() bool { return s.N <= 1 }

// Has reports whether the cluster called name belongs to s: FNV-1a of the
// name, modulo N. The unnamed cluster of a tree that is one cluster belongs
// to one shard like any other.
func (s Shard) Has(name string) bool {
	if s.Whole() {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(s.N)) == s.K-1
}

func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}
