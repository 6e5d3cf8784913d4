package check

import "github.com/mirrorlint/mirrorlint/internal/manifest"

// namespaced are the kinds read here that live in a namespace; the others
// are cluster-scoped, so a namespace written on them does not tell two
// objects apart (the API server clears it).
var namespaced = map[manifest.Kind]bool{"ImagePolicy": true}

// Identity is what makes an object one object in a cluster: its kind (the
// API group is implied by the served apiVersion, the only one a known
// object has), its namespace for a namespaced kind, and its name.
type Identity struct {
	Kind      manifest.Kind
	Namespace string
	Name      string
}

// IdentityOf returns o's identity.
func IdentityOf(o *manifest.Object) Identity {
	id := Identity{Kind: o.Kind, Name: o.Name}
	if namespaced[o.Kind] {
		md, _ := o.Content["metadata"].(map[string]any)
		id.Namespace, _ = md["namespace"].(string)
	}
	return id
}

// Duplicates groups the known objects that share an identity, each group
// in load order (the order `oc apply -f DIR` and Argo CD apply them, so
// the last one is what the cluster keeps). Objects alone under their
// identity are left out.
func Duplicates(objs []*manifest.Object) [][]*manifest.Object {
	byID := map[Identity][]*manifest.Object{}
	var order []Identity
	for _, o := range objs {
		if !o.Known || o.Name == "" {
			continue
		}
		id := IdentityOf(o)
		if byID[id] == nil {
			order = append(order, id)
		}
		byID[id] = append(byID[id], o)
	}
	var out [][]*manifest.Object
	for _, id := range order {
		if g := byID[id]; len(g) > 1 {
			out = append(out, g)
		}
	}
	return out
}

// Applied returns the known objects the cluster ends up holding, in load
// order: of several objects sharing an identity only the last one, which
// replaces the others when they are applied in order.
func Applied(objs []*manifest.Object) []*manifest.Object {
	replaced := map[*manifest.Object]bool{}
	for _, g := range Duplicates(objs) {
		for _, o := range g[:len(g)-1] {
			replaced[o] = true
		}
	}
	out := make([]*manifest.Object, 0, len(objs))
	for _, o := range objs {
		if o.Known && !replaced[o] {
			out = append(out, o)
		}
	}
	return out
}

// Applied returns the known objects of kind that the cluster keeps (see
// the function Applied), in load order: what MCO renders from. Objects
// returns every known object, replaced ones included, for the checks the
// API server makes on each apply.
func (c *Context) Applied(kind manifest.Kind) []*manifest.Object {
	all := appliedMemo.Get(c)
	var out []*manifest.Object
	for _, o := range all {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

var appliedMemo = NewMemo("check.applied", func(c *Context) []*manifest.Object { return Applied(c.Cluster.Objects) })
