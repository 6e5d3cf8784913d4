package manifest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// isTemplate reports an OpenShift Template (template.openshift.io; plain
// "v1" is the pre-4.x spelling oc still accepts).
func isTemplate(apiVersion, kind string) bool {
	return kind == "Template" && (strings.HasPrefix(apiVersion, "template.openshift.io/") || apiVersion == "v1")
}

// templateParamRE matches a Template parameter reference: ${NAME} for a
// string, ${{NAME}} for a JSON value.
var templateParamRE = regexp.MustCompile(`\$\{\{?[A-Za-z_][A-Za-z0-9_]*\}?\}`)

// template reports the mirror objects an OpenShift Template wraps. Applying
// the Template creates a Template object, not them: they reach the cluster
// only through `oc process`, with the parameters substituted. They are not
// loaded (their values are ${PARAMETERS}, and the cluster does not have
// them), but they must not vanish silently either. The problem is a
// warning: the Template itself is valid input the cluster accepts, and
// nothing in the file was left unread.
func (fp *fileParse) template(n *yaml.Node) {
	objects := deref(mapValue(n, "objects"))
	if objects == nil || objects.Kind != yaml.SequenceNode {
		return
	}
	declared := templateParams(n)
	for _, it := range objects.Content {
		it = deref(it)
		if it == nil || it.Kind != yaml.MappingNode {
			continue
		}
		av, k := typeMeta(it)
		kind, _, keep := classify(av, k)
		if !keep || kind == KindMachineConfig {
			continue
		}
		used := paramRefs(it)
		if len(used) == 0 {
			used = declared
		}
		params := ""
		if len(used) > 0 {
			const show = 3
			word := "parameters"
			if len(used) == 1 {
				word = "parameter"
			}
			list := strings.Join(used[:min(show, len(used))], ", ")
			if len(used) > show {
				list += ", …"
			}
			params = fmt.Sprintf(" (%s %s)", word, list)
		}
		fp.res.problems = append(fp.res.problems, Problem{Pos: fp.kindPos(it), Code: "template", Warning: true,
			Message: fmt.Sprintf("%s inside an OpenShift Template%s: it is not applied as written — process it (oc process) and lint the output", kind, params)})
	}
}

// templateParams lists the parameters a Template declares, as references.
func templateParams(n *yaml.Node) []string {
	ps := deref(mapValue(n, "parameters"))
	if ps == nil || ps.Kind != yaml.SequenceNode {
		return nil
	}
	var out []string
	for _, p := range ps.Content {
		if v := deref(mapValue(deref(p), "name")); v != nil && v.Kind == yaml.ScalarNode && v.Value != "" {
			out = append(out, "${"+v.Value+"}")
		}
	}
	return out
}

// paramRefs lists the parameter references in n's scalars, first use first.
// Aliases are not followed: a reference is written where it is used.
func paramRefs(n *yaml.Node) []string {
	var out []string
	seen := map[string]bool{}
	var visit func(*yaml.Node)
	visit = func(n *yaml.Node) {
		if n == nil || n.Kind == yaml.AliasNode {
			return
		}
		if n.Kind == yaml.ScalarNode {
			for _, r := range templateParamRE.FindAllString(n.Value, -1) {
				if !seen[r] {
					seen[r] = true
					out = append(out, r)
				}
			}
		}
		for _, c := range n.Content {
			visit(c)
		}
	}
	visit(n)
	return out
}

// templateKindRE finds a mirror kind in a template file, where any line may
// be template syntax and nothing can be parsed.
var templateKindRE = regexp.MustCompile(`(?m)^[ \t-]*kind:[ \t]*["']?(ImageContentSourcePolicy|ImageDigestMirrorSet|ImageTagMirrorSet)["']?[ \t]*\r?$`)

// templateFile reports a template file (x.yaml.j2) holding a mirror kind:
// a warning, as the file was skipped on purpose; its rendered output is
// what must be linted. Other template files say nothing.
func templateFile(name string, data []byte) fileResult {
	loc := templateKindRE.FindSubmatchIndex(data)
	if loc == nil {
		return fileResult{}
	}
	kindAt := loc[0] + bytes.Index(data[loc[0]:loc[1]], []byte("kind:"))
	line, col := offsetPosition(data, kindAt)
	ext := filepath.Ext(name)
	return fileResult{problems: []Problem{{
		Pos:     Position{File: name, Line: line, Column: col},
		Code:    "template-file",
		Warning: true,
		Message: fmt.Sprintf("%s in a %s template file: not linted — render it and lint the output (for example through mirrorlint lint -)", data[loc[2]:loc[3]], ext),
	}}}
}
