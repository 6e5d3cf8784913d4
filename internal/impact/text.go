package impact

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteText prints the diffs of the changed node files, then the verdict
// and every reason, for a reviewer reading a CI log.
func (res *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	keys := make([]string, 0, len(res.Files))
	for k := range res.Files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if f := res.Files[k]; f.Changed {
			if cluster, _, ok := strings.Cut(k, ":"); ok {
				fmt.Fprintf(&b, "# cluster %s\n", cluster)
			}
			b.WriteString(f.Diff)
		}
	}
	for _, r := range res.Refused {
		side := "the old tree"
		if r.Side == "new" {
			side = "the new tree"
		}
		fmt.Fprintf(&b, "%s: error: MCO would refuse to render %s%s: %s\n", where(r.Position.String()), side, clusterSuffix(r.Cluster), r.Reason)
		if r.Side == "new" {
			b.WriteString("  MCO only logs this and keeps the current registries.conf: the change would not reach the nodes\n")
		} else {
			b.WriteString("  the cluster cannot be running the old tree's configuration, so no drain verdict can be given\n")
		}
	}
	fmt.Fprintf(&b, "verdict: %s\n", headline(res))
	for _, r := range res.Reasons {
		tag := "reload"
		if r.Drain {
			tag = "DRAIN "
		}
		fmt.Fprintf(&b, "  %s %s%s: %s\n", tag, r.File, clusterSuffix(r.Cluster), r.Message)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func headline(res *Result) string {
	switch res.Action {
	case ActionRefused:
		return "MCO refuses to render (see above); nothing is applied"
	case ActionReboot:
		return "nodes drain and reboot"
	case ActionDrain:
		return "nodes drain (cordon, evict, then CRI-O reload)"
	case ActionReload:
		return "CRI-O reload only, no drain"
	}
	return "no change to the node files"
}

func clusterSuffix(name string) string {
	if name == "" {
		return ""
	}
	return " [cluster " + name + "]"
}

func where(pos string) string {
	if pos == "" {
		return "mirrorlint"
	}
	return pos
}
