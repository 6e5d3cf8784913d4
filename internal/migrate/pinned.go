package migrate

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/mirrororder"
)

// unpin removes a digest (@sha256:…) or a tag (:v1) from a repository
// written as an ICSP source or mirror. Old `oc adm catalog mirror` wrote
// one ICSP entry per image digest; MCO up to 4.15 accepted them, but the
// ImageDigestMirrorSet pattern refuses both: mirrors apply to whole
// repositories. A port (host:5000/repo) is not a tag.
func unpin(s string) (string, bool) {
	out := s
	if i := strings.IndexByte(out, '@'); i >= 0 {
		out = out[:i]
	}
	if slash := strings.LastIndexByte(out, '/'); slash >= 0 {
		if colon := strings.LastIndexByte(out, ':'); colon > slash {
			out = out[:colon]
		}
	}
	return out, out != s
}

// unpinEntries strips digests and tags from the sources and mirrors of the
// converted entries (a sequence of {source, mirrors} mappings), then merges
// the entries that this made name the same source: one entry per source,
// at the first one's place, its mirrors in the order MCO renders the
// merged lists in (mirrororder.Merge), so the nodes get the mirrors the
// separate entries would have given them. Entries that already shared a
// source before are left as they were (the render is the same either way).
// It returns a sentence for the user, "" when nothing was pinned.
func unpinEntries(seq *yaml.Node, icspName string) string {
	type item struct {
		node    *yaml.Node
		source  string
		mirrors []string
		pinned  bool
	}
	var items []*item
	sources, mirrorsUnpinned := 0, 0
	for _, e := range seq.Content {
		it := &item{node: e}
		if _, v := entry(e, "source"); v != nil && v.Kind == yaml.ScalarNode {
			if s, changed := unpin(v.Value); changed {
				v.Value, it.pinned = s, true
				sources++
			}
			it.source = v.Value
		}
		if _, v := entry(e, "mirrors"); v != nil && v.Kind == yaml.SequenceNode {
			for _, m := range v.Content {
				if m.Kind != yaml.ScalarNode {
					continue
				}
				if s, changed := unpin(m.Value); changed {
					m.Value, it.pinned = s, true
					mirrorsUnpinned++
				}
				it.mirrors = append(it.mirrors, m.Value)
			}
		}
		items = append(items, it)
	}
	if sources+mirrorsUnpinned == 0 {
		return ""
	}
	bySource := map[string][]*item{}
	for _, it := range items {
		if it.source != "" {
			bySource[it.source] = append(bySource[it.source], it)
		}
	}
	drop := map[*yaml.Node]bool{}
	merged := 0
	for _, it := range items {
		group := bySource[it.source]
		if len(group) < 2 || group[0] != it {
			continue
		}
		pinned := false
		for _, g := range group {
			pinned = pinned || g.pinned
		}
		if !pinned {
			continue
		}
		lists := make([][]string, len(group))
		for i, g := range group {
			lists[i] = g.mirrors
		}
		order := mirrororder.Merge(it.source, lists)
		if len(order) == 0 {
			order = it.mirrors
		}
		ms := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, m := range order {
			ms.Content = append(ms.Content, str(m))
		}
		if k, v := entry(it.node, "mirrors"); v != nil {
			ms.HeadComment, ms.LineComment, ms.FootComment = v.HeadComment, v.LineComment, v.FootComment
			replaceValue(it.node, k, ms)
		} else {
			it.node.Content = append(it.node.Content, str("mirrors"), ms)
		}
		for _, g := range group[1:] {
			drop[g.node] = true
			merged++
		}
	}
	if merged > 0 {
		kept := seq.Content[:0]
		for _, e := range seq.Content {
			if !drop[e] {
				kept = append(kept, e)
			}
		}
		seq.Content = kept
	}
	var what []string
	if sources > 0 {
		what = append(what, plural(sources, "source"))
	}
	if mirrorsUnpinned > 0 {
		what = append(what, plural(mirrorsUnpinned, "mirror"))
	}
	msg := fmt.Sprintf("ImageContentSourcePolicy %s: removed the tag or digest from %s — the API server refuses them in an ImageDigestMirrorSet, whose entries name whole repositories",
		icspName, strings.Join(what, " and "))
	if merged > 0 {
		msg += fmt.Sprintf("; %s then named a source already listed and were merged into it (mirrors in the order MCO renders them), leaving %s",
			plural(merged, "entry"), plural(len(seq.Content), "entry"))
	}
	return msg
}

// replaceValue sets the value of key node k in mapping m.
func replaceValue(m, k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i] == k {
			m.Content[i+1] = v
		}
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}
