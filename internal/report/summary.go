package report

import (
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// SummaryLimit is what GitHub accepts in one step's job summary file; a
// larger file is not shown at all, so we stay under it.
const SummaryLimit = 1 << 20

// SummaryEnv is the variable GitHub Actions sets to the step's job summary
// file.
const SummaryEnv = "GITHUB_STEP_SUMMARY"

// SummaryPath picks where the job summary goes: the --summary flag, else
// $GITHUB_STEP_SUMMARY, else nowhere ("").
func SummaryPath(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	return getenv(SummaryEnv)
}

// AppendSummary appends the Markdown job summary to path. It appends
// because several steps (or several mirrorlint runs in one step) share the
// file, and it keeps the file under SummaryLimit.
func AppendSummary(path string, r *Report, o Options) error {
	budget := SummaryLimit
	if st, err := os.Stat(path); err == nil {
		budget -= int(st.Size())
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := WriteSummary(f, r, o, budget); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteSummary writes the Markdown summary in at most budget bytes: the
// counts always, then as many table rows and rendered files as fit.
func WriteSummary(w io.Writer, r *Report, o Options, budget int) error {
	var head strings.Builder
	c := check.Count(r.Findings)
	head.WriteString("## mirrorlint\n\n")
	switch {
	case c.Error > 0:
		head.WriteString("❌ ")
	case c.Warning > 0:
		head.WriteString("⚠️ ")
	default:
		head.WriteString("✅ ")
	}
	fmt.Fprintf(&head, "%s\n\n", Summary(c))
	fmt.Fprintf(&head, "| errors | warnings | info | suppressed |\n|---:|---:|---:|---:|\n| %d | %d | %d | %d |\n\n", c.Error, c.Warning, c.Info, c.Suppressed)
	for _, name := range slices.Sorted(maps.Keys(r.Refused)) {
		fmt.Fprintf(&head, "> [!CAUTION]\n> MCO would refuse to render%s: %s. The nodes would keep their previous registries.conf.\n\n",
			mdText(clusterSuffix(name)), mdText(r.Refused[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(r.Stopped)) {
		fmt.Fprintf(&head, "> [!CAUTION]\n> No registries.conf is shown%s: not rendered: %s.\n\n",
			mdText(clusterSuffix(name)), mdText(r.Stopped[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(r.Unreadable)) {
		fmt.Fprintf(&head, "> [!WARNING]\n> No registries.conf is shown%s: an input does not load (%s).\n\n",
			mdText(clusterSuffix(name)), mdText(r.Unreadable[name]))
	}
	if head.Len() > budget {
		return nil // not even the counts fit: better nothing than a broken file
	}
	budget -= head.Len()

	// The rendered files take at most half of what is left, so a long
	// table cannot crowd them out, nor they the table.
	var rendered strings.Builder
	renderBudget := budget / 2
	// Clusters that get the same file (a fleet of sites over one base)
	// share one block.
	for _, g := range sameRendered(r.Rendered) {
		name := clusterGroupName(g.names)
		block := renderedBlock(name, g.conf)
		if rendered.Len()+len(block) > renderBudget {
			block = fmt.Sprintf("_registries.conf%s omitted: %d bytes would exceed the job summary's size limit; use `mirrorlint render` or `lint --render FILE`._\n\n",
				mdText(clusterSuffix(name)), len(g.conf))
			if rendered.Len()+len(block) > renderBudget {
				continue
			}
		}
		rendered.WriteString(block)
	}
	budget -= rendered.Len()

	var table strings.Builder
	var rows []check.Finding
	for _, f := range r.Findings {
		if f.Suppressed == nil {
			rows = append(rows, f)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Severity > rows[j].Severity })
	if len(rows) > 0 {
		const header = "| | location | rule | message |\n|---|---|---|---|\n"
		table.WriteString(header)
		const reserve = 200 // room for the "N more" line
		for i, f := range rows {
			row := summaryRow(f, o)
			if table.Len()+len(row)+reserve > budget {
				fmt.Fprintf(&table, "\n_%d more findings not shown (job summary size limit); see the annotations or the SARIF upload._\n", len(rows)-i)
				break
			}
			table.WriteString(row)
		}
		table.WriteString("\n")
	}

	ew := &errWriter{w: w}
	ew.printf("%s%s%s", head.String(), table.String(), rendered.String())
	return ew.err
}

type renderedGroup struct {
	names []string
	conf  []byte
}

// sameRendered groups the clusters by their rendered file, in the order of
// their first (sorted) name.
func sameRendered(m map[string][]byte) []renderedGroup {
	var out []renderedGroup
	index := map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		key := string(m[name])
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, renderedGroup{conf: m[name]})
		}
		out[i].names = append(out[i].names, name)
	}
	return out
}

// clusterGroupName names a group of clusters for a heading: the one name,
// or a few and the count.
func clusterGroupName(names []string) string {
	switch {
	case len(names) == 1:
		return names[0]
	case len(names) <= ClusterListLimit:
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:ClusterListLimit], ", "), len(names)-ClusterListLimit)
}

func clusterSuffix(name string) string {
	if name == "" {
		return ""
	}
	return " (cluster " + name + ")"
}

var severityIcon = map[check.Severity]string{check.Error: "❌ error", check.Warning: "⚠️ warning", check.Info: "ℹ️ info"}

func summaryRow(f check.Finding, o Options) string {
	where := "—"
	if f.File != "" {
		where = mdText(RelPath(o.Base, f.File) + lineSuffix(f.Line, f.Column))
		if link := blobLink(f, o); link != "" {
			where = "[" + where + "](" + link + ")"
		}
	}
	msg := f.Message
	if label := ClusterLabel(f.Clusters); label != "" {
		msg += " " + label
	}
	return fmt.Sprintf("| %s | %s | `%s` | %s |\n", severityIcon[f.Severity], where, mdCode(f.Rule), mdCell(msg))
}

// blobLink points at the finding's lines in the commit being checked, when
// the GitHub environment says which commit that is.
func blobLink(f check.Finding, o Options) string {
	server, repo, sha := o.getenv("GITHUB_SERVER_URL"), o.getenv("GITHUB_REPOSITORY"), o.getenv("GITHUB_SHA")
	if server == "" || repo == "" || sha == "" || manifest.IsStream(f.File) {
		return ""
	}
	rel, inRepo := repoPath(o.Base, f.File)
	if !inRepo {
		return "" // outside the repository: no page to link to
	}
	link := strings.TrimSuffix(server, "/") + "/" + repo + "/blob/" + sha + "/" + (&url.URL{Path: rel}).EscapedPath()
	if f.Line > 0 {
		link += fmt.Sprintf("#L%d", f.Line)
		if f.EndLine > f.Line {
			link += fmt.Sprintf("-L%d", f.EndLine)
		}
	}
	return link
}

func renderedBlock(name string, conf []byte) string {
	fence := "```"
	for strings.Contains(string(conf), fence) {
		fence += "`"
	}
	body := string(conf)
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return fmt.Sprintf("<details><summary>Rendered <code>/etc/containers/registries.conf</code>%s</summary>\n\n%stoml\n%s%s\n\n</details>\n\n",
		htmlText(clusterSuffix(name)), fence, body, fence)
}
