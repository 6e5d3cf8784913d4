package safefs

import (
	"bytes"
	"fmt"
	"math"
)

// kustomize keeps a build's resources in a map whose every append scans
// what it holds, and its transformers walk it again per resource: its
// cost grows faster than the square of the resources. Measured with the
// kustomize v5.8.2 binary on one file of one-line ConfigMaps: 5,000 take
// 17 s, 10,000 take 101 s, and nothing in that work reads a file, so the
// build's time limit (checked at reads) never fires. A pull request could
// hang a run with one such file, or with a few hundred overlays of a base
// just under any per-build bound. So what kustomize reads is counted as
// it reads it: a build that would hold more than MaxBuildResources is
// refused at the read that passes the bound, and the run's builds
// together may cost at most the budget's MaxBuildWork (DefaultBuildWork:
// two builds at the bound, about 35 s here), a build's cost taken as
// n^2.5 for its n resources (which fits the times above: 17 s × (n/5,000)
// to the power 2.5 to 2.6). A 500-site fleet of 36-resource builds
// spends 0.02% of it, 100 sites of 500 resources 0.9%.
const (
	MaxBuildResources = 5_000
	DefaultBuildWork  = 2 * (MaxBuildResources * MaxBuildResources * 70) // 70 = √5,000, rounded down
)

// buildCost is what kustomize spends on a build of n resources, in the
// unit of DefaultBuildWork: n² √n.
func buildCost(n int64) int64 {
	return n * n * int64(math.Sqrt(float64(n)))
}

// ErrBuildResources and ErrBuildWork are the two refusals (see Refusal).
var (
	ErrBuildResources = fmt.Errorf("over the %s resources one kustomize build may hold", grouped(MaxBuildResources))
	ErrBuildWork      = fmt.Errorf("over the run's kustomize work budget (about two builds of %s resources)", grouped(MaxBuildResources))
)

// grouped writes n with thousands separated: 5,000.
func grouped(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// resourcesIn is an upper bound on the resources kustomize makes of a file
// it reads: every line that starts, after indentation and a list dash,
// with "kind:" and a value (a document, a List item, but also a nested
// kind such as an owner reference's; a schema's "kind:" property, with
// its definition below it, is not counted), every JSON "kind" key with a
// string value, and for a kustomization every list entry (a generator or
// patch entry each costs about a resource).
func resourcesIn(name string, data []byte) int {
	n := jsonKinds(data)
	kust := IsKustomization(name)
	for line := range bytes.Lines(data) {
		t := bytes.TrimLeft(line, " \t")
		if kust && bytes.HasPrefix(t, []byte("- ")) {
			n++
			continue
		}
		t = bytes.TrimLeft(bytes.TrimPrefix(t, []byte("- ")), " \t")
		if v, ok := bytes.CutPrefix(t, []byte("kind:")); ok {
			if v = bytes.TrimSpace(v); len(v) > 0 && v[0] != '#' {
				n++
			}
		}
	}
	return n
}

// jsonKinds counts "kind": "…" pairs.
func jsonKinds(data []byte) int {
	n := 0
	for rest := data; ; {
		i := bytes.Index(rest, []byte(`"kind"`))
		if i < 0 {
			return n
		}
		rest = bytes.TrimLeft(rest[i+len(`"kind"`):], " \t\r\n")
		if v, ok := bytes.CutPrefix(rest, []byte(":")); ok {
			if v = bytes.TrimLeft(v, " \t\r\n"); len(v) > 0 && v[0] == '"' {
				n++
			}
		}
	}
}

// countResources adds what p holds to the build's count and the run's
// work; the refusal when either bound is passed.
func (k *KustomizeFS) countResources(p string, data []byte) error {
	n := resourcesIn(p, data)
	if n == 0 {
		return nil
	}
	k.mu.Lock()
	before := int64(k.resources)
	k.resources += n
	after := int64(k.resources)
	k.mu.Unlock()
	if after > MaxBuildResources {
		return &Refusal{Path: p, Err: ErrBuildResources}
	}
	if b := k.Root.budget(); b != nil {
		max := b.MaxBuildWork
		if max <= 0 {
			max = DefaultBuildWork
		}
		if b.buildWork.Add(buildCost(after)-buildCost(before)) > max {
			return &Refusal{Path: p, Err: ErrBuildWork}
		}
	}
	return nil
}

// budget is the run's budget, nil for a nil Root or one without.
func (r *Root) budget() *Budget {
	if r == nil {
		return nil
	}
	return r.Budget
}
