package check

import (
	"sync"

	"github.com/containers/image/v5/pkg/sysregistriesv2"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

// Context is what a rule sees: one cluster, its render, and a way to report.
type Context struct {
	Cluster  *cluster.Cluster
	Settings cluster.Settings
	// Input is what the renderer was given; Plan is what MCO decides from
	// it (the mirror sets, registry entries, payload rule and signature
	// policies, each with where it was written), computed once and read by
	// the rules; Rendered holds the files written from the plan, nil when
	// MCO refuses (Refusal then says why).
	Input    *Input
	Plan     *mco.Plan
	Rendered *render.Output
	Refusal  *render.Refusal
	// Unfilled are the cluster's objects that still hold placeholders,
	// left out of Cluster.Objects and of the render.
	Unfilled []*manifest.Object

	memoMu sync.Mutex
	memo   map[any]*memoCell
}

// NewContext renders the cluster once; rules share the result. The
// cluster's settings are taken as settled (see cluster.Settings): rules,
// policies and the render all read the same version.
func NewContext(cl *cluster.Cluster) *Context {
	c := &Context{Cluster: withoutUnfilled(cl), Settings: cl.Settings}
	for _, o := range cl.Objects {
		if len(o.Placeholders) > 0 {
			c.Unfilled = append(c.Unfilled, o)
		}
	}
	c.Input = BuildInput(cl.Objects, cl.Settings)
	c.Plan = mco.NewPlan(c.Input.Input)
	out, err := c.Plan.Render()
	if err != nil {
		if r, ok := err.(*render.Refusal); ok {
			c.Refusal = r
		} else {
			c.Refusal = &render.Refusal{Reason: err.Error()}
		}
	} else {
		c.Rendered = out
	}
	return c
}

// withoutUnfilled is the cluster the rules see: the objects still holding
// placeholders are left out (the placeholder rule reports them, from
// Input.Unfilled), since every other finding on them would only repeat
// that they were not filled in.
func withoutUnfilled(cl *cluster.Cluster) *cluster.Cluster {
	var kept []*manifest.Object
	for _, o := range cl.Objects {
		if len(o.Placeholders) == 0 {
			kept = append(kept, o)
		}
	}
	if len(kept) == len(cl.Objects) {
		return cl
	}
	return cl.WithObjects(kept)
}

// Objects returns the known objects of one kind, in load order.
func (c *Context) Objects(kind manifest.Kind) []*manifest.Object {
	var out []*manifest.Object
	for _, o := range c.Cluster.Objects {
		if o.Known && o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// SubjectObject maps a render subject back to the object it names.
func (c *Context) SubjectObject(s render.Subject) *manifest.Object {
	return c.Input.Object(s)
}

// Registries is the cluster's rendered registries.conf decoded as the node
// reads it, decoded once per cluster for every rule and policy that needs
// it; nil when MCO refuses to render (or, which render's fuzz target rules
// out, the file does not decode).
func (c *Context) Registries() *sysregistriesv2.V2RegistriesConf {
	return registriesMemo.Get(c)
}

var registriesMemo = NewMemo("check.registries", func(c *Context) *sysregistriesv2.V2RegistriesConf {
	if c.Rendered == nil {
		return nil
	}
	if c.Plan != nil {
		// The value the file was encoded from, when it decodes back to
		// exactly that (mco.Plan.WrittenRegistries): no need to parse it.
		if w := c.Plan.WrittenRegistries(); w != nil {
			return w
		}
	}
	conf, err := nodefiles.Decode(c.Rendered.RegistriesConf)
	if err != nil {
		return nil
	}
	return &conf
})
