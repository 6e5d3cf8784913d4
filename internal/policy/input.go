package policy

import (
	"context"
	"math"
	"slices"
	"strconv"

	"github.com/containers/image/v5/pkg/sysregistriesv2"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// buildInput makes the input document for one cluster directly as an OPA
// value: each object's Content is converted once (no JSON round trip), and
// its spec and metadata are the same terms, shared rather than copied.
//
//	{
//	  "objects":  [{kind, apiVersion, name, namespace, file, line, column, doc, known, content, spec, metadata}],
//	               (with user policies, every object of the cluster when the load kept them all; known is false for a kind mirrorlint has no rules for)
//	  "rendered": {generated, refused, reason, registriesConf, unqualified-search-registries, registries: [...]},
//	  "settings": {openshiftVersion, version: {major, minor, patch}, releaseImage},
//	  "cluster":  {name}
//	}
//
// It stops, false, once ctx is done (the heap watch cancels it): the
// input of a tree of a hundred thousand objects is hundreds of MB.
//
// With kinds, objects holds only the objects of those kinds: the library
// alone reads no other (policies.Reads), and a cluster's ConfigMaps and
// other inputs converted for nothing were a third of its evaluation. With
// fields, the document holds only those members besides objects: the
// library alone reads no other (policies.Fields), and input.rendered, the
// render converted entry by entry, was a third of the library's
// evaluation on a 10,000-object cluster.
func buildInput(ctx context.Context, c *check.Context, kinds map[string]bool, fields []string) (ast.Value, bool) {
	objs := make([]*ast.Term, 0, len(c.Cluster.Objects))
	for i, o := range c.Cluster.Objects {
		if i%256 == 255 && ctx.Err() != nil {
			return nil, false
		}
		if o.Partial {
			continue // kept for the rules about pulls, not whole: no policy reads it
		}
		if kinds != nil && !kinds[string(o.Kind)] {
			continue
		}
		objs = append(objs, ast.NewTerm(objectValue(o)))
	}
	holds := func(member string) bool { return fields == nil || slices.Contains(fields, member) }
	members := [][2]*ast.Term{item("objects", ast.NewArray(objs...))}
	if holds("rendered") {
		members = append(members, item("rendered", renderedValue(c)))
	}
	if holds("settings") {
		members = append(members, item("settings", settingsValue(c.Settings)))
	}
	if holds("cluster") {
		members = append(members, item("cluster", ast.NewObject(item("name", ast.String(c.Cluster.Name)))))
	}
	return ast.NewObject(members...), true
}

func objectValue(o *manifest.Object) ast.Value {
	content := toValue(o.Content)
	get := func(key string) ast.Value {
		if obj, ok := content.(ast.Object); ok {
			if t := obj.Get(ast.StringTerm(key)); t != nil {
				return t.Value
			}
		}
		return ast.NewObject()
	}
	meta := get("metadata")
	namespace := ast.Value(ast.String(""))
	if m, ok := meta.(ast.Object); ok {
		if t := m.Get(ast.StringTerm("namespace")); t != nil {
			namespace = t.Value
		}
	}
	pos := o.Position()
	return ast.NewObject(
		item("kind", ast.String(o.Kind)),
		item("apiVersion", ast.String(o.APIVersion)),
		item("name", ast.String(o.Name)),
		item("namespace", namespace),
		item("file", ast.String(o.File)),
		item("line", intValue(pos.Line)),
		item("column", intValue(pos.Column)),
		item("doc", intValue(o.Doc)),
		item("known", ast.Boolean(o.Known)),
		item("content", content),
		item("spec", get("spec")),
		item("metadata", meta),
	)
}

// renderedValue is registries.conf as data, with the TOML key spellings,
// or refused/reason when MCO would not render.
func renderedValue(c *check.Context) ast.Value {
	refused, reason := false, ""
	var conf *sysregistriesv2.V2RegistriesConf
	generated := false
	text := ""
	switch {
	case c.Refusal != nil:
		refused, reason = true, c.Refusal.Error()
	case c.Rendered != nil:
		conf = c.Registries()
		generated = c.Rendered.Generated
		text = string(c.Rendered.RegistriesConf)
	}
	search := []*ast.Term{}
	regs := []*ast.Term{}
	if conf != nil {
		for _, s := range conf.UnqualifiedSearchRegistries {
			search = append(search, ast.StringTerm(s))
		}
		for _, r := range conf.Registries {
			mirrors := make([]*ast.Term, 0, len(r.Mirrors))
			for _, m := range r.Mirrors {
				mirrors = append(mirrors, ast.NewTerm(ast.NewObject(
					item("location", ast.String(m.Location)),
					item("insecure", ast.Boolean(m.Insecure)),
					item("pull-from-mirror", ast.String(m.PullFromMirror)),
				)))
			}
			// containers/image reads a missing prefix as the location;
			// policies get the scope the entry really applies to.
			prefix := r.Prefix
			if prefix == "" {
				prefix = r.Location
			}
			regs = append(regs, ast.NewTerm(ast.NewObject(
				item("prefix", ast.String(prefix)),
				item("location", ast.String(r.Location)),
				item("insecure", ast.Boolean(r.Insecure)),
				item("blocked", ast.Boolean(r.Blocked)),
				item("mirror-by-digest-only", ast.Boolean(r.MirrorByDigestOnly)),
				item("mirrors", ast.NewArray(mirrors...)),
			)))
		}
	}
	fields := [][2]*ast.Term{
		item("generated", ast.Boolean(generated)),
		item("refused", ast.Boolean(refused)),
		item("reason", ast.String(reason)),
		item("registriesConf", ast.String(text)),
		item("unqualified-search-registries", ast.NewArray(search...)),
		item("registries", ast.NewArray(regs...)),
	}
	if c.Refusal != nil && c.Input != nil {
		if o := c.SubjectObject(c.Refusal.Subject); o != nil {
			fields = append(fields, item("subject", ast.NewObject(
				item("kind", ast.String(o.Kind)),
				item("name", ast.String(o.Name)),
				item("file", ast.String(o.File)),
				item("path", ast.String(c.Refusal.Subject.Path)),
			)))
		}
	}
	return ast.NewObject(fields...)
}

func settingsValue(s cluster.Settings) ast.Value {
	v := s.Version // check.NewContext made a zero version render.Newest
	return ast.NewObject(
		item("openshiftVersion", ast.String(v.String())),
		item("version", ast.NewObject(
			item("major", intValue(4)),
			item("minor", intValue(v.Minor)),
			item("patch", intValue(v.Patch)),
		)),
		item("releaseImage", ast.String(s.ReleaseImage)),
	)
}

func item(key string, v ast.Value) [2]*ast.Term {
	return ast.Item(ast.StringTerm(key), ast.NewTerm(v))
}

func intValue(i int) ast.Value { return ast.Number(strconv.Itoa(i)) }

// toValue converts decoded YAML content. It handles the types the manifest
// loader produces without reflection; infinities and NaN (legal YAML, not
// JSON) become their YAML spelling as strings, since OPA numbers cannot
// hold them.
func toValue(x any) ast.Value {
	switch v := x.(type) {
	case nil:
		return ast.Null{}
	case bool:
		return ast.Boolean(v)
	case string:
		return ast.String(v)
	case int:
		return ast.Number(strconv.Itoa(v))
	case int64:
		return ast.Number(strconv.FormatInt(v, 10))
	case float64:
		switch {
		case math.IsInf(v, 1):
			return ast.String(".inf")
		case math.IsInf(v, -1):
			return ast.String("-.inf")
		case math.IsNaN(v):
			return ast.String(".nan")
		}
		return ast.Number(strconv.FormatFloat(v, 'g', -1, 64))
	case map[string]any:
		items := make([][2]*ast.Term, 0, len(v))
		for k, e := range v {
			items = append(items, ast.Item(ast.StringTerm(k), ast.NewTerm(toValue(e))))
		}
		return ast.NewObject(items...)
	case []any:
		terms := make([]*ast.Term, len(v))
		for i, e := range v {
			terms[i] = ast.NewTerm(toValue(e))
		}
		return ast.NewArray(terms...)
	}
	if val, err := ast.InterfaceToValue(x); err == nil {
		return val
	}
	return ast.Null{}
}
