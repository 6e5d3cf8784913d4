package impact

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteText prints the diffs of the changed node files, then the verdict
// and every reason, for a reviewer reading a CI log. A tree of one cluster
// prints just that; with several clusters each cluster gets its own
// section and verdict, clusters with the same result (a base change that
// reaches 144 sites alike) share one section that lists them, and a last
// line sums up.
func (res *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	if len(res.Clusters) == 1 && res.Clusters[0].Name == "" {
		res.writeCluster(&b, res.Clusters[0])
		fmt.Fprintf(&b, "verdict: %s\n", headline(res.Clusters[0].Action))
		writeReasons(&b, res.Clusters[0].Reasons)
		rejectionVerdict(&b, res.Clusters[0].Rejected)
	} else {
		for _, g := range res.groups() {
			b.WriteString(groupHeading(g.names))
			res.writeCluster(&b, g.result)
			fmt.Fprintf(&b, "verdict: %s\n", headline(g.result.Action))
			writeReasons(&b, g.result.Reasons)
			rejectionVerdict(&b, g.result.Rejected)
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "verdict: %s\n", res.overall())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCluster prints the diff of each of one cluster's node files that
// changed, then its refusals and problems.
func (res *Result) writeCluster(b *strings.Builder, cr ClusterResult) {
	for _, key := range cr.files {
		if f := res.Files[key]; f.Changed {
			b.WriteString(f.Diff)
		}
	}
	for _, r := range cr.Refused {
		b.WriteString(res.refusalLine(r))
		if r.Side == "new" {
			b.WriteString("  MCO only logs this and keeps the current registries.conf: the change would not reach the nodes\n")
		} else {
			b.WriteString("  the cluster cannot be running the old tree's configuration, so no drain verdict can be given\n")
		}
	}
	for _, r := range cr.Stopped {
		b.WriteString(res.stoppedLine(r))
	}
	for _, p := range cr.Problems {
		b.WriteString(res.problemLine(p))
	}
	res.rejectionLines(b, cr.Rejected)
}

// WriteProblems prints what kept each cluster from being compared and what
// MCO would refuse, one line each, tagged with the cluster when it has a
// name. It is for the formats made for machines (JSON, SARIF...), whose
// output holds no such lines: the command prints them on stderr. The text
// output shows them in each cluster's section instead.
func (res *Result) WriteProblems(w io.Writer) error {
	var b strings.Builder
	for _, cr := range res.Clusters {
		prefix := ""
		if len(res.Clusters) > 1 || cr.Name != "" {
			prefix = "[cluster " + DisplayName(cr.Name) + "] "
		}
		for _, p := range cr.Problems {
			b.WriteString(prefix + res.problemLine(p))
		}
		for _, r := range cr.Refused {
			b.WriteString(prefix + res.refusalLine(r))
		}
		for _, r := range cr.Stopped {
			b.WriteString(prefix + res.stoppedLine(r))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// problemLine is "file:line:col: error: the old tree does not load: why".
func (res *Result) problemLine(p Problem) string {
	return fmt.Sprintf("%s: error: the %s tree does not load: %s\n", res.where(p.Position, p.Rev), p.Side, p.Message)
}

// refusalLine is "file:line:col: error: MCO would refuse to render the new
// tree: MCO's reason".
func (res *Result) refusalLine(r Refusal) string {
	return fmt.Sprintf("%s: error: MCO would refuse to render the %s tree: %s\n", res.where(r.Position, r.Rev), r.Side, r.Reason)
}

// stoppedLine is "file:line:col: error: the new tree is not rendered: the
// component's reason".
func (res *Result) stoppedLine(r Refusal) string {
	return fmt.Sprintf("%s: error: the %s tree is not rendered: %s\n", res.where(r.Position, r.Rev), r.Side, r.Reason)
}

func writeReasons(b *strings.Builder, reasons []Reason) {
	for _, r := range reasons {
		tag := "reload"
		if r.Drain {
			tag = "DRAIN "
		}
		fmt.Fprintf(b, "  %s %s: %s\n", tag, r.File, r.Message)
	}
}

func (res *Result) where(p interface{ String() string }, rev string) string {
	s := p.String()
	if s == "" {
		return "mirrorlint"
	}
	if rev != "" {
		s += " (at " + rev + ")"
	}
	return s
}

// group is clusters with the same result, printed once.
type group struct {
	names  []string
	result ClusterResult // the first cluster's
}

// groups gathers clusters whose printed result is the same: the same
// changed files byte for byte, the same reasons, refusals and problems.
func (res *Result) groups() []group {
	var out []group
	index := map[string]int{}
	for _, cr := range res.Clusters {
		var sig strings.Builder
		res.writeCluster(&sig, cr)
		fmt.Fprintf(&sig, "\x00%s\x00", cr.Action)
		writeReasons(&sig, cr.Reasons)
		k := sig.String()
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, group{result: cr})
		}
		out[i].names = append(out[i].names, DisplayName(cr.Name))
	}
	return out
}

// groupHeading names the clusters of a section: one, or the count and
// every name, wrapped.
func groupHeading(names []string) string {
	if len(names) == 1 {
		return "== cluster " + names[0] + "\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "== %d clusters with the same result:\n", len(names))
	line := "  "
	for i, n := range names {
		item := n
		if i < len(names)-1 {
			item += ","
		}
		if len(line)+len(item)+1 > 100 && line != "  " {
			b.WriteString(line + "\n")
			line = "  "
		}
		if line != "  " {
			line += " "
		}
		line += item
	}
	b.WriteString(line + "\n")
	return b.String()
}

// overall sums up the clusters' verdicts: the most disruptive action and
// how many clusters it concerns, and the clusters not compared.
func (res *Result) overall() string {
	count := map[string][]string{}
	for _, cr := range res.Clusters {
		count[cr.Action] = append(count[cr.Action], DisplayName(cr.Name))
	}
	var parts []string
	for _, a := range []string{ActionRefused, ActionStopped, ActionReboot, ActionDrain, ActionReload, ActionNone} {
		if n := len(count[a]); n > 0 {
			parts = append(parts, fmt.Sprintf("%s in %d of %d clusters", headline(a), n, len(res.Clusters)))
		}
	}
	if n := count[ActionUnreadable]; len(n) > 0 {
		sort.Strings(n)
		names := strings.Join(n, ", ")
		if len(n) > 3 {
			names = fmt.Sprintf("%s and %d more", strings.Join(n[:3], ", "), len(n)-3)
		}
		parts = append(parts, fmt.Sprintf("%d not compared (input that does not load: %s)", len(n), names))
	}
	if n := len(res.Rejected); n > 0 {
		parts = append(parts, fmt.Sprintf("the API server refuses %d changed object%s: the change cannot apply as it is", n, map[bool]string{true: "s"}[n > 1]))
	}
	if len(parts) == 0 {
		return "no cluster to compare"
	}
	return strings.Join(parts, "; ")
}

// DisplayName is how the text output names a cluster: the unnamed
// cluster of a tree with no kustomization and no layout, listed next to
// other clusters (an install-config's), is the tree's top, ".", as lint
// names the files lying at the top of a tree.
func DisplayName(name string) string {
	if name == "" {
		return "."
	}
	return name
}

func headline(action string) string {
	switch action {
	case ActionRefused:
		return "MCO refuses to render (see above); nothing is applied"
	case ActionStopped:
		return "not rendered: the input is refused before MCO (see above); no drain verdict"
	case ActionReboot:
		return "nodes drain and reboot"
	case ActionDrain:
		return "nodes drain (cordon, evict, then CRI-O reload)"
	case ActionReload:
		return "CRI-O reload only, no drain"
	case ActionUnreadable:
		return "not compared: an input does not load (see above)"
	}
	return "no change to the node files"
}
