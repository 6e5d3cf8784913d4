package ztp

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// deployWave is the annotation ZTP orders policies by; the generator moves
// it from the CR to the policy.
const deployWave = "ran.openshift.io/ztp-deploy-wave"

// pgtSections are the parts of a source CR a sourceFiles entry merges its
// own onto, besides metadata.
var pgtSections = []string{"spec", "data", "status", "binaryData", "stringData"}

// policyGenTemplate expands a PolicyGenTemplate as the ZTP policy
// generator does: each sourceFiles entry reads its source CR, replaces
// $mcp by spec.mcp, merges its metadata and sections onto it, and joins the
// policy <template>-<policyName> (or, without a policyName or with
// wrapInPolicy false, stays a plain CR).
func (e *expander) policyGenTemplate(n *yaml.Node) {
	md := value(n, "metadata")
	name, ns := scalar(md, "name"), scalar(md, "namespace")
	if name == "" || ns == "" {
		at := md
		if at == nil {
			at = n
		}
		e.problem(at, CodeInvalid, "PolicyGenTemplate needs metadata.name and metadata.namespace; the generator refuses it without them")
		return
	}
	spec := value(n, "spec")
	wrap := boolean(spec, "wrapInPolicy", true)
	mcp := scalar(spec, "mcp")
	compliance := scalar(spec, "complianceType")
	if compliance == "" {
		compliance = "musthave"
	}
	sel, err := bindingSelector(spec)
	if err != nil {
		e.problem(sel.At, CodeInvalid, "PolicyGenTemplate "+name+": "+err.Error())
	}
	byName := map[string]*Policy{}
	var plain *Policy
	for _, sf := range seq(spec, "sourceFiles") {
		sf = deref(sf)
		if !isMap(sf) {
			continue
		}
		objs := e.pgtEntry(sf, mcp)
		ct := compliance
		if v := scalar(sf, "complianceType"); v != "" {
			ct = v
		}
		policyName := scalar(sf, "policyName")
		if policyName == "" || !wrap {
			if plain == nil {
				plain = &Policy{Namespace: ns, At: value(md, "name")}
				e.policies = append(e.policies, plain)
			}
			plain.Objects = append(plain.Objects, objs...)
			continue
		}
		full := name + "-" + policyName
		p := byName[full]
		if p == nil {
			p = &Policy{Name: full, Namespace: ns, At: value(sf, "policyName"), Selector: sel}
			byName[full] = p
			e.policies = append(e.policies, p)
			if len(ns+"."+full) > 63 {
				e.problem(p.At, CodeInvalid, fmt.Sprintf("the policy %s.%s is longer than the 63 characters ACM allows; the generator refuses it", ns, full))
			}
		}
		for _, o := range objs {
			o.ComplianceType = ct
			dropDeployWave(o.Node)
		}
		p.Objects = append(p.Objects, objs...)
	}
}

// pgtEntry builds the CRs of one sourceFiles entry.
func (e *expander) pgtEntry(sf *yaml.Node, mcp string) []*Object {
	fileName := scalar(sf, "fileName")
	at := keyAt(sf, "fileName")
	if fileName == "" {
		e.problem(at, CodeInvalid, "a sourceFiles entry needs a fileName")
		return nil
	}
	f, err := e.src.SourceCR(fileName)
	if err != nil {
		e.readProblem(at, err)
		return nil
	}
	text := string(f.Data)
	if mcp != "" {
		text = strings.ReplaceAll(text, "$mcp", mcp)
	}
	docs, err := documents([]byte(text))
	if err != nil {
		e.problem(at, CodeInvalid, fmt.Sprintf("the source CR %s does not parse: %v", f.Name, err))
		return nil
	}
	if len(docs) > 1 {
		for _, s := range []string{"spec", "data", "status"} {
			if v := value(sf, s); isMap(v) && len(v.Content) > 0 {
				e.problem(at, CodeInvalid, fmt.Sprintf("the source CR %s holds %d objects: the generator refuses to merge the entry's %s onto several, split them into files of their own", f.Name, len(docs), s))
				return nil
			}
		}
	}
	var out []*Object
	for _, d := range docs {
		if o := e.pgtObject(sf, d, f.Name, at); o != nil {
			out = append(out, o)
		}
	}
	return out
}

// pgtObject merges one sourceFiles entry onto one source CR document.
func (e *expander) pgtObject(sf, doc *yaml.Node, srcFile string, at *yaml.Node) *Object {
	t := newTagged()
	obj := t.copyOf(doc, srcFile)
	if obj == nil || obj.Kind != yaml.MappingNode {
		e.problem(at, CodeInvalid, fmt.Sprintf("the source CR %s is not an object", srcFile))
		return nil
	}
	md := value(obj, "metadata")
	if md == nil || md.Kind != yaml.MappingNode {
		e.problem(at, CodeInvalid, fmt.Sprintf("the source CR %s has no metadata, which the generator requires", srcFile))
		return nil
	}
	umd := value(sf, "metadata")
	for _, key := range []string{"name", "namespace"} {
		if k, v := entry(umd, key); k != nil && scalar(umd, key) != "" {
			t.set(md, key, t.copyOf(k, e.file), t.copyOf(v, e.file))
		}
	}
	for _, key := range []string{"labels", "annotations"} {
		uk, uv := entry(umd, key)
		if uv = deref(uv); !isMap(uv) || len(uv.Content) == 0 {
			continue
		}
		cur := value(md, key)
		if !isMap(cur) {
			cur = t.shell(uv, e.file)
			t.set(md, key, t.copyOf(uk, e.file), cur)
		}
		e.setValues(t, cur, uv)
	}
	for _, key := range pgtSections {
		uk, uv := entry(sf, key)
		uv = deref(uv)
		if isNull(uv) {
			uv = nil
		}
		cur := value(obj, key)
		if (cur == nil || isNull(cur)) && uv != nil {
			// A source CR's empty section (spec: with only comments) is
			// null, which the generator replaces by the entry's.
			cur = t.shell(&yaml.Node{Kind: yaml.MappingNode, Line: uk.Line, Column: uk.Column}, e.file)
			t.set(obj, key, t.copyOf(uk, e.file), cur)
		}
		if cur == nil || cur.Kind != yaml.MappingNode {
			continue
		}
		if uv != nil && uv.Kind != yaml.MappingNode {
			e.problem(uv, CodeInvalid, fmt.Sprintf("the entry's %s is not a mapping", key))
			continue
		}
		e.setValues(t, cur, uv)
	}
	return &Object{Node: obj, Files: t.files, Source: srcFile, At: at}
}

// setValues merges user (a node of the generator file, nil for none) onto
// cur (a copy of the source CR's) as the ZTP generator merges an entry
// onto its source CR:
//   - a key the entry does not set keeps the source CR's value, unless that
//     is an empty string or a string starting with $ (a placeholder), which
//     is dropped;
//   - mappings merge key by key;
//   - a list whose first element is a mapping merges element by element by
//     index, the entry's extra elements appended; any other list is
//     replaced by the entry's;
//   - every other value is replaced; keys only the entry has are added.
func (e *expander) setValues(t *tagged, cur, user *yaml.Node) {
	e.setDepth(t, cur, user, 0)
}

func (e *expander) setDepth(t *tagged, cur, user *yaml.Node, depth int) {
	if depth > maxDepth {
		return
	}
	for i := 0; i+1 < len(cur.Content); {
		k, v := cur.Content[i], cur.Content[i+1]
		_, uv := entry(user, k.Value)
		if uv = deref(uv); uv == nil || isNull(uv) {
			if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" && (v.Value == "" || strings.HasPrefix(v.Value, "$")) {
				cur.Content = append(cur.Content[:i:i], cur.Content[i+2:]...)
				continue
			}
			i += 2
			continue
		}
		switch {
		case v.Kind == yaml.MappingNode && uv.Kind == yaml.MappingNode:
			e.setDepth(t, v, uv, depth+1)
		case v.Kind == yaml.SequenceNode && len(v.Content) > 0 && v.Content[0].Kind == yaml.MappingNode && uv.Kind == yaml.SequenceNode:
			merged := t.shell(uv, e.file)
			for j, el := range v.Content {
				if j < len(uv.Content) {
					if u := deref(uv.Content[j]); el.Kind == yaml.MappingNode && isMap(u) {
						e.setDepth(t, el, u, depth+1)
					} else {
						el = t.copyOf(uv.Content[j], e.file)
					}
				}
				merged.Content = append(merged.Content, el)
			}
			for j := len(v.Content); j < len(uv.Content); j++ {
				merged.Content = append(merged.Content, t.copyOf(uv.Content[j], e.file))
			}
			cur.Content[i+1] = merged
		default:
			cur.Content[i+1] = t.copyOf(uv, e.file)
		}
		i += 2
	}
	user = deref(user)
	if user == nil || user.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(user.Content); i += 2 {
		k := user.Content[i]
		if cv := value(cur, k.Value); cv != nil && !isNull(cv) {
			continue
		}
		nv := t.copyOf(user.Content[i+1], e.file)
		if nv == nil {
			nv = t.null(k, e.file)
		}
		t.set(cur, k.Value, t.copyOf(k, e.file), nv)
	}
}

// dropDeployWave removes the deploy-wave annotation, which the generator
// moves to the policy.
func dropDeployWave(obj *yaml.Node) {
	md := value(obj, "metadata")
	ann := value(md, "annotations")
	if !isMap(ann) {
		return
	}
	remove(ann, deployWave)
	if len(ann.Content) == 0 {
		remove(md, "annotations")
	}
}

// keyAt is where a finding on key of m sits: its value, else m itself.
func keyAt(m *yaml.Node, key string) *yaml.Node {
	if at := value(m, key); at != nil {
		return at
	}
	return m
}

// readProblem reports a source CR or manifest that could not be read: a
// missing file (or a kustomization left unbuilt) is CodeSourceMissing, a
// build stopped at a limit CodeLimit, anything else CodeInvalid.
func (e *expander) readProblem(at *yaml.Node, err error) {
	code := CodeInvalid
	var lim *overLimit
	if errors.Is(err, fs.ErrNotExist) {
		code = CodeSourceMissing
	} else if errors.As(err, &lim) {
		code = CodeLimit
	}
	e.problem(at, code, err.Error())
	var m *missing
	if errors.As(err, &m) {
		e.problems[len(e.problems)-1].SourceCR = m.sourceCR
	}
}
