package manifest

import (
	"fmt"
	"path"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Fleets push mirror objects to their clusters through Red Hat Advanced
// Cluster Management policies: a Policy (policy.open-cluster-management.io)
// carries ConfigurationPolicy templates whose object-templates each hold
// an objectDefinition, the object the managed cluster gets. ZTP writes the
// same objects as PolicyGenTemplate (ran.openshift.io) entries, or as
// patches of a PolicyGenerator, over source CRs such as
// DisconnectedICSP.yaml. The loader reads the objects written out there
// in place, at their own lines, and records the Policy that delivers them
// (Object.DeliveredBy): the objects one Policy delivers reach the same
// clusters together. Of the kinds it does not model it reads only those
// that pull images, when the run keeps them (see wrapped).
//
// Values written as policy templates ({{hub … hub}} resolved on the hub,
// {{ … }} on each managed cluster) are known only there: an object holding
// one is not linted, and each template is reported (CodePolicyTemplate, a
// warning problem that the policy-template rule reports as info), so that
// it is neither an error nor silent.

// CodePolicyTemplate is the Problem code of a policy template.
const CodePolicyTemplate = "policy-template"

const policyGroup = "policy.open-cluster-management.io/"

func init() {
	for _, k := range []string{"Policy", "ConfigurationPolicy", "PolicyGenTemplate", "PolicyGenerator"} {
		wrapperKinds[k] = true
	}
}

// unwrapPolicy reads the objects a policy document delivers; false when the
// document is no policy.
func (fp *fileParse) unwrapPolicy(n *yaml.Node, doc int, apiVersion, kind string) bool {
	switch {
	case kind == "Policy" && strings.HasPrefix(apiVersion, policyGroup):
		group := "Policy/" + nsName(n)
		for _, t := range seqOf(mapValue(n, "spec"), "policy-templates") {
			def := deref(mapValue(deref(t), "objectDefinition"))
			if isConfigurationPolicy(typeMeta(orEmpty(def))) {
				fp.configurationPolicy(def, doc, group)
			}
		}
	case isConfigurationPolicy(apiVersion, kind):
		fp.configurationPolicy(n, doc, "ConfigurationPolicy/"+nsName(n))
	case kind == "PolicyGenTemplate" && strings.HasPrefix(apiVersion, "ran.openshift.io/"):
		if !fp.expandGenerator(n, doc) {
			fp.policyGenTemplateIf(n, doc, nil)
		}
	case kind == "PolicyGenerator" && strings.HasPrefix(apiVersion, policyGroup):
		if !fp.expandGenerator(n, doc) {
			fp.policyGeneratorIf(n, doc, nil)
		}
	default:
		return false
	}
	return true
}

// isConfigurationPolicy reports whether apiVersion and kind name an ACM
// ConfigurationPolicy.
func isConfigurationPolicy(apiVersion, kind string) bool {
	return kind == "ConfigurationPolicy" && strings.HasPrefix(apiVersion, policyGroup)
}

// configurationPolicy reads the objects of one ConfigurationPolicy.
func (fp *fileParse) configurationPolicy(cp *yaml.Node, doc int, group string) {
	fp.objectTemplates(deref(mapValue(cp, "spec")), doc, group)
}

// objectTemplates reads the object-templates and object-templates-raw of
// spec: a ConfigurationPolicy's spec, or a PolicyGenerator manifest that
// holds only object-templates-raw (the generator makes it the spec of a
// ConfigurationPolicy).
func (fp *fileParse) objectTemplates(spec *yaml.Node, doc int, group string) {
	for _, ot := range seqOf(spec, "object-templates") {
		ot = deref(ot)
		if scalarOf(ot, "complianceType") == "mustnothave" {
			continue // the object is to be absent, not delivered
		}
		fp.wrapped(deref(mapValue(ot, "objectDefinition")), doc, group)
	}
	raw := deref(mapValue(spec, "object-templates-raw"))
	if raw == nil || raw.Kind != yaml.ScalarNode {
		return
	}
	if hasTemplate(raw.Value) {
		if fp.rawMayDeliver(raw.Value) {
			at, text := fp.firstRawTemplate(raw)
			fp.templateNote(at, "the object-templates-raw of "+group, text, "its objects are")
		}
		return
	}
	// Without templates, the raw text is YAML: its object templates are
	// read where they are written (a literal block keeps the lines), in
	// the file the block sits in (a generator's manifest, for one).
	if raw.Style&yaml.LiteralStyle == 0 {
		return
	}
	var seqDoc yaml.Node
	if yaml.Unmarshal([]byte(raw.Value), &seqDoc) != nil || len(seqDoc.Content) == 0 {
		return
	}
	data := fp.data
	span, elsewhere := fp.spans[raw]
	if elsewhere {
		if span.src == nil {
			return // no text to place the block's lines in
		}
		data = span.src.data
		walkNodes(seqDoc.Content[0], func(n *yaml.Node) { fp.spans[n] = span })
	}
	shiftNodes(seqDoc.Content[0], raw.Line, BlockIndent(data, raw.Line))
	for _, ot := range seqDoc.Content[0].Content {
		ot = deref(ot)
		if scalarOf(ot, "complianceType") != "mustnothave" {
			fp.wrapped(deref(mapValue(ot, "objectDefinition")), doc, group)
		}
	}
}

// firstRawTemplate is where the first template of an object-templates-raw
// text sits and the text from it on: inside a literal block, its own line
// and column, so that the note points at the template it quotes rather
// than at the block's indicator.
func (fp *fileParse) firstRawTemplate(raw *yaml.Node) (*yaml.Node, string) {
	i := strings.Index(raw.Value, "{{")
	if raw.Style&yaml.LiteralStyle == 0 {
		return raw, raw.Value
	}
	data := fp.data
	span, elsewhere := fp.spans[raw]
	if elsewhere {
		if span.src == nil {
			return raw, raw.Value[i:]
		}
		data = span.src.data
	}
	before := raw.Value[:i]
	at := &yaml.Node{Kind: yaml.ScalarNode, Value: raw.Value[i:],
		Line:   raw.Line + 1 + strings.Count(before, "\n"),
		Column: BlockIndent(data, raw.Line) + len(before) - strings.LastIndexByte(before, '\n')}
	if elsewhere {
		fp.spans[at] = span
	}
	return at, at.Value
}

// rawMayDeliver reports whether the object templates of an
// object-templates-raw text may deliver an object the run reads: a kind
// it models or keeps the images of, or a kind it cannot read for certain
// (a template, a value the byte reading of the kinds cannot vouch for,
// no kind written at all). A block that delivers only other kinds holds
// nothing that would be linted, so its templates go unmentioned, as those
// of such an object written out in object-templates do.
func (fp *fileParse) rawMayDeliver(text string) bool {
	kinds, unsure := kindsIn([]byte(text))
	if unsure || len(kinds) == 0 {
		return true
	}
	for _, k := range kinds {
		k = strings.TrimSuffix(k, "List")
		if hasTemplate(k) {
			return true
		}
		if _, _, keep := classify(Kind(k).APIVersion(), k); keep {
			return true
		}
		if _, pulls := imageKinds[k]; pulls && fp.keep != UnmodelledNone {
			return true
		}
	}
	return false
}

// policyGenTemplateIf reads the sourceFiles entries of a PolicyGenTemplate
// that write a mirror object out: a known ZTP source CR (by file name)
// with a spec, when the template cannot be expanded with its source CRs
// (a stream), or for the entries only accepts (whose source CR is missing).
// The Policy generated for an entry is <template name>-<policyName>, in the
// template's namespace.
func (fp *fileParse) policyGenTemplateIf(n *yaml.Node, doc int, only func(fileName *yaml.Node) bool) {
	md := deref(mapValue(n, "metadata"))
	name, ns := scalarOf(md, "name"), scalarOf(md, "namespace")
	for _, e := range seqOf(mapValue(n, "spec"), "sourceFiles") {
		e = deref(e)
		if only != nil && !only(deref(mapValue(e, "fileName"))) {
			continue
		}
		group := "Policy/" + joinNS(ns, name+"-"+scalarOf(e, "policyName"))
		fp.sourceCR(e, scalarOf(e, "fileName"), mapValue(e, "fileName"), doc, group)
	}
}

// policyGeneratorIf reads the manifests of a PolicyGenerator whose path
// names a known ZTP source CR and whose patch writes the object's spec out,
// as policyGenTemplateIf does for templates.
func (fp *fileParse) policyGeneratorIf(n *yaml.Node, doc int, only func(path *yaml.Node) bool) {
	ns := scalarOf(deref(mapValue(n, "policyDefaults")), "namespace")
	for _, p := range seqOf(n, "policies") {
		p = deref(p)
		pns := ns
		if v := scalarOf(p, "namespace"); v != "" {
			pns = v
		}
		group := "Policy/" + joinNS(pns, scalarOf(p, "name"))
		for _, m := range seqOf(p, "manifests") {
			m = deref(m)
			if only != nil && !only(deref(mapValue(m, "path"))) {
				continue
			}
			for _, patch := range seqOf(m, "patches") {
				fp.sourceCR(deref(patch), scalarOf(m, "path"), mapValue(m, "path"), doc, group)
			}
		}
	}
}

// ztpMirrorCRs are the ZTP source CRs that hold a mirror object, by file
// name, with the kind and the name the source CR gives it (as the ZTP
// source-crs of openshift-kni/cnf-features-deploy and telco-reference
// write them).
var ztpMirrorCRs = map[string][2]string{
	"DisconnectedICSP.yaml": {string(KindICSP), "disconnected-internal-icsp"},
	"DisconnectedIDMS.yaml": {string(KindIDMS), "fec-disconnected-idms"},
}

// sourceCR reads one object written out over a source CR: e holds its
// metadata and spec, file names the source CR (its kind), at is where.
func (fp *fileParse) sourceCR(e *yaml.Node, file string, at *yaml.Node, doc int, group string) {
	cr, ok := ztpMirrorCRs[path.Base(file)]
	if !ok || e == nil || e.Kind != yaml.MappingNode || mapValue(e, "spec") == nil {
		return
	}
	kind := Kind(cr[0])
	if at == nil {
		at = e
	}
	scalar := func(v string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: at.Line, Column: at.Column}
	}
	obj := &yaml.Node{Kind: yaml.MappingNode, Line: e.Line, Column: e.Column}
	obj.Content = append(obj.Content, scalar("apiVersion"), scalar(kind.APIVersion()), scalar("kind"), scalar(string(kind)))
	md := deref(mapValue(e, "metadata"))
	if scalarOf(md, "name") == "" {
		// The source CR's own name stays.
		named := &yaml.Node{Kind: yaml.MappingNode, Line: at.Line, Column: at.Column}
		if md != nil && md.Kind == yaml.MappingNode {
			named.Content = append(named.Content, md.Content...)
		}
		named.Content = append(named.Content, scalar("name"), scalar(cr[1]))
		md = named
	}
	obj.Content = append(obj.Content, scalar("metadata"), md, scalar("spec"), mapValue(e, "spec"))
	fp.wrapped(obj, doc, group)
}

// wrapped reads one delivered object, unless it holds policy templates.
// Of the kinds the loader does not model it reads only those that pull
// images (a workload, CatalogSource, ClusterCatalog), when the run keeps
// such objects, as it reads one written out: what a policy makes its
// managed clusters pull is then judged against the mirrors they get with
// it, on a site with the mirrors of every policy placed there. Other kinds
// a policy delivers (the hub's own mirror inputs among them: a ConfigMap or
// a ClusterInstance inside a policy is applied on the managed cluster, not
// read by the hub's installer) stay out.
func (fp *fileParse) wrapped(n *yaml.Node, doc int, group string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	av, k := typeMeta(n)
	read, scope, notLinted := fp.object, n, "the object is"
	if _, _, keep := classify(av, k); !keep {
		f, ok := imageFieldsOf(av, k)
		if !ok || fp.keep == UnmodelledNone {
			return
		}
		read, notLinted = fp.unmodelled, "the images it pulls are"
		// A template outside what is kept (a label, an argument) does
		// not hide the images.
		if fp.keep != UnmodelledAll {
			scope = partialNode(n, f)
		}
	}
	if t := firstTemplate(scope); t != nil {
		what := k
		if name := scalarOf(deref(mapValue(n, "metadata")), "name"); name != "" {
			what += "/" + name
		}
		fp.templateNote(t, what+" in "+group, t.Value, notLinted)
		return
	}
	before := len(fp.res.objects)
	fp.wrapSeq++
	read(n, doc, wrappedItem+fp.wrapSeq, av, k, false)
	for _, o := range fp.res.objects[before:] {
		o.DeliveredBy = group
	}
}

// wrappedItem offsets Object.Item for objects read inside a policy, so
// that several objects of one document stay apart.
const wrappedItem = 1 << 20

// templateNote reports a policy template: where it is resolved (by the
// first template of text, the one shown), and that what it holds is not
// linted.
func (fp *fileParse) templateNote(n *yaml.Node, what, text, notLinted string) {
	kind, where := "a managed-cluster template ({{ … }})", "on each managed cluster when the policy is applied"
	if i := strings.Index(text, "{{"); i >= 0 && strings.HasPrefix(text[i:], "{{hub") {
		kind, where = "a hub template ({{hub … hub}})", "on the hub when the policy is propagated"
	}
	shown := strings.TrimSpace(text)
	if line, _, more := strings.Cut(shown, "\n"); more || len(line) > 80 {
		shown = strings.TrimSpace(line)
		if len(shown) > 80 {
			shown = shown[:77] + "..."
		}
		shown += " …"
	}
	fp.res.problems = append(fp.res.problems, Problem{
		Pos:  fp.posOf(n),
		Code: CodePolicyTemplate, Warning: true,
		Message: fmt.Sprintf("%s holds %s, `%s`, resolved %s: %s not linted, since only the cluster knows the value (lint what the template gives, or write the value out)",
			what, kind, shown, where, notLinted),
	})
}

func hasTemplate(s string) bool {
	i := strings.Index(s, "{{")
	return i >= 0 && strings.Contains(s[i:], "}}")
}

// firstTemplate returns the first scalar of n holding a policy template.
func firstTemplate(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode && hasTemplate(n.Value) {
		return n
	}
	if n.Kind == yaml.AliasNode {
		return nil
	}
	for _, c := range n.Content {
		if t := firstTemplate(c); t != nil {
			return t
		}
	}
	return nil
}

// shiftNodes moves the positions of a tree parsed from a literal block
// scalar to where its text sits in the file: the block's lines start on
// the line after its indicator and are indented by indent.
func shiftNodes(n *yaml.Node, indicatorLine, indent int) {
	if n == nil {
		return
	}
	n.Line += indicatorLine
	n.Column += indent
	for _, c := range n.Content {
		shiftNodes(c, indicatorLine, indent)
	}
}

func nsName(n *yaml.Node) string {
	md := deref(mapValue(n, "metadata"))
	return joinNS(scalarOf(md, "namespace"), scalarOf(md, "name"))
}

func joinNS(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

func scalarOf(m *yaml.Node, key string) string {
	if v := deref(mapValue(m, key)); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

func seqOf(m *yaml.Node, key string) []*yaml.Node {
	if v := deref(mapValue(deref(m), key)); v != nil && v.Kind == yaml.SequenceNode {
		return v.Content
	}
	return nil
}

func orEmpty(n *yaml.Node) *yaml.Node {
	if n == nil {
		return &yaml.Node{Kind: yaml.MappingNode}
	}
	return n
}
