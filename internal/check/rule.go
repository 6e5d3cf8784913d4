package check

import (
	"fmt"
	"sort"
)

// Origin says who acts on what a rule detects.
type Origin string

const (
	OriginAPI      Origin = "api-server" // the API server rejects the object
	OriginMCO      Origin = "mco"        // MCO refuses to render (and only logs it)
	OriginNode     Origin = "node"       // containers/image on the node rejects the file
	OriginSurprise Origin = "surprise"   // accepted, but does something unexpected
	OriginPolicy   Origin = "policy"     // this project's or the team's stance
	OriginTool     Origin = "mirrorlint" // about mirrorlint's own input
)

// Rule is one check. Every built-in rule lives in its own file in package
// rules, with fixtures under testdata/rules/<id>/.
type Rule struct {
	ID       string
	Severity Severity // default severity
	Origin   Origin
	// Summary is one line; Doc is Markdown: why it matters, what the
	// cluster does, how to fix, an example.
	Summary string
	Doc     string
	// Check inspects one cluster and reports through its own pass; it
	// reads the shared Context through p and must not change it, since
	// other rules read it at the same time.
	Check func(p *Pass)
	// Reads lists the object kinds Check reads; nil means any kind, so
	// while the rule is enabled no file is left unparsed (see
	// Registry.Needs and manifest.Options.Prefilter). Built-in rules
	// write it in their literal; a test fails for one that does not.
	Reads []string
	// Judges lists the kinds of Reads the rule judges one object at a
	// time: each object of these kinds is compared with the rest of the
	// cluster, never with another object of a judged kind, and a finding
	// about it is placed on it, naming besides (Finding.Related) only
	// objects of the rule's other Reads. A run that reports only on some
	// files (the pre-commit path) then needs these kinds only from those
	// files, unless one of them holds an object such a finding may name
	// (see Registry.Judged).
	Judges []string
	// Covers names rules whose finding this rule's finding at the same
	// place replaces: a mirror input's check says, in its component's
	// words, what a rule on the objects derived from that input would
	// repeat at the same value.
	Covers []string
}

// Registry holds rules by id.
type Registry struct {
	byID  map[string]*Rule
	order []*Rule
}

// NewRegistry indexes rules, refusing duplicate or empty ids.
func NewRegistry(rules ...*Rule) (*Registry, error) {
	r := &Registry{byID: map[string]*Rule{}}
	for _, rule := range rules {
		if err := r.Add(rule); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add registers one more rule.
func (r *Registry) Add(rule *Rule) error {
	if rule.ID == "" {
		return fmt.Errorf("rule without id")
	}
	if _, dup := r.byID[rule.ID]; dup {
		return fmt.Errorf("rule %q registered twice", rule.ID)
	}
	r.byID[rule.ID] = rule
	r.order = append(r.order, rule)
	return nil
}

// Replace returns a copy of r in which rule takes the place of the rule with
// the same id (or is added): a run that needs a rule built for it (one that
// compares with a base revision, say) leaves the shared registry untouched.
func (r *Registry) Replace(rule *Rule) *Registry {
	out := &Registry{byID: make(map[string]*Rule, len(r.byID)+1), order: make([]*Rule, 0, len(r.order)+1)}
	replaced := false
	for _, x := range r.order {
		if x.ID == rule.ID {
			x, replaced = rule, true
		}
		out.byID[x.ID] = x
		out.order = append(out.order, x)
	}
	if !replaced {
		out.byID[rule.ID] = rule
		out.order = append(out.order, rule)
	}
	return out
}

// Get returns the rule with id, or nil.
func (r *Registry) Get(id string) *Rule { return r.byID[id] }

// All returns the rules sorted by id.
func (r *Registry) All() []*Rule {
	out := append([]*Rule(nil), r.order...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
