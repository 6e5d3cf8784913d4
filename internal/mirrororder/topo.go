package mirrororder

import (
	"slices"
	"sort"
)

// topoGraph is a small directed graph whose sorted method orders the nodes
// so that edges point forward whenever possible, deterministically:
//   - node ids are assigned in alphabetical order of their names, so "smaller
//     id" means "alphabetically first";
//   - a FIFO queue starts with every node that has no predecessors, in id
//     order;
//   - emitting a node releases its successors; those whose last unprocessed
//     predecessor it was join the queue, in id order;
//   - when the queue runs dry while nodes remain (a cycle), the
//     alphabetically first node not yet emitted is emitted next.
//
// This is the ordering MCO applies to mirror lists; it never fails, cycles
// included, and the tie-breaks above are what make its output reproducible.
type topoGraph struct {
	ids   map[string]int
	names []string
	edges [][2]string
}

func (g *topoGraph) node(name string) {
	if g.ids == nil {
		g.ids = map[string]int{}
	}
	if _, ok := g.ids[name]; !ok {
		g.ids[name] = len(g.names)
		g.names = append(g.names, name)
	}
}

func (g *topoGraph) addEdge(from, to string) {
	g.node(from)
	g.node(to)
	g.edges = append(g.edges, [2]string{from, to})
}

func (g *topoGraph) sorted() []string {
	n := len(g.names)
	names := slices.Clone(g.names)
	sort.Strings(names)
	id := make(map[string]int, n)
	for i, name := range names {
		id[name] = i
	}
	// Deduplicated adjacency: a repeated edge counts once, as a set would.
	pairs := make([][2]int, 0, len(g.edges))
	for _, e := range g.edges {
		pairs = append(pairs, [2]int{id[e[0]], id[e[1]]})
	}
	slices.SortFunc(pairs, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	pairs = slices.Compact(pairs)
	start := make([]int, n+1) // outs of node i are pairs[start[i]:start[i+1]]
	indeg := make([]int, n)
	for _, p := range pairs {
		start[p[0]+1]++
		indeg[p[1]]++
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}

	used := make([]bool, n)
	queue := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	out := make([]string, 0, n)
	next := 0 // cursor for cycle breaking, over ids in alphabetical order
	var batch []int
	for len(out) < n {
		var v int
		if len(queue) > 0 {
			v, queue = queue[0], queue[1:]
		} else {
			for used[next] {
				next++
			}
			v = next
		}
		used[v] = true
		out = append(out, names[v])
		batch = batch[:0]
		for _, p := range pairs[start[v]:start[v+1]] {
			w := p[1]
			indeg[w]--
			if indeg[w] == 0 && !used[w] {
				batch = append(batch, w)
			}
		}
		// pairs are sorted by target within a source, so batch is already in
		// id (alphabetical) order.
		queue = append(queue, batch...)
	}
	return out
}
