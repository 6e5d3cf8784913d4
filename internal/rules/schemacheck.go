package rules

import (
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
)

// Several rules report different kinds of schema error of the same object;
// validating once per object instead of once per rule keeps linting cost
// independent of how the schema checks are split into rules. The results
// live in the context's memo, so they die with it.
func schemaErrors(c *check.Context, o *manifest.Object) []schema.Error {
	cache := schemaMemo.Get(c)
	cache.mu.Lock()
	defer cache.mu.Unlock()
	errs, ok := cache.byObject[o]
	if !ok {
		errs = schema.Validate(string(o.Kind), o.Content)
		cache.byObject[o] = errs
	}
	return errs
}

var schemaMemo = check.NewMemo("rules.schemaErrors", func(*check.Context) *schemaCache {
	return &schemaCache{byObject: map[*manifest.Object][]schema.Error{}}
})

type schemaCache struct {
	mu       sync.Mutex
	byObject map[*manifest.Object][]schema.Error
}

// schemaKinds are the kinds validated against a CRD: the API server serves
// MachineConfig from a CRD too, but mirrorlint only reads one path of it.
var schemaKinds = []manifest.Kind{manifest.KindICSP, manifest.KindIDMS, manifest.KindITMS, manifest.KindImage}

// eachSchemaError calls fn for every schema error of every known object of
// the four mirror kinds. Objects under a wrong apiVersion are left to
// api-version-kind: the API server never gets as far as their schema.
func eachSchemaError(c *check.Context, fn func(o *manifest.Object, e schema.Error)) {
	for _, k := range schemaKinds {
		for _, o := range c.Objects(k) {
			if o.Content == nil {
				continue
			}
			for _, e := range schemaErrors(c, o) {
				fn(o, e)
			}
		}
	}
}

// lastField is the name of the last mapping key in p ("" if none).
func lastField(p manifest.Path) string {
	for i := len(p) - 1; i >= 0; i-- {
		if s, ok := p[i].(string); ok {
			return s
		}
	}
	return ""
}
