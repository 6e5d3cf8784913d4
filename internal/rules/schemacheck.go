package rules

import (
	"runtime"
	"sync"
	"weak"

	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/rules/schema"
)

// Several rules report different kinds of schema error of the same object;
// validating once per object instead of once per rule keeps linting cost
// independent of how the schema checks are split into rules. The cache is
// keyed weakly, so it never keeps an object (or its file's nodes) alive.
var schemaCache sync.Map // weak.Pointer[manifest.Object] -> []schema.Error

func schemaErrors(o *manifest.Object) []schema.Error {
	key := weak.Make(o)
	if v, ok := schemaCache.Load(key); ok {
		return v.([]schema.Error)
	}
	errs := schema.Validate(string(o.Kind), o.Content)
	if _, loaded := schemaCache.LoadOrStore(key, errs); !loaded {
		runtime.AddCleanup(o, func(k weak.Pointer[manifest.Object]) { schemaCache.Delete(k) }, key)
	}
	return errs
}

// schemaKinds are the kinds validated against a CRD: the API server serves
// MachineConfig from a CRD too, but mirrorlint only reads one path of it.
var schemaKinds = []manifest.Kind{manifest.KindICSP, manifest.KindIDMS, manifest.KindITMS, manifest.KindImage}

// eachSchemaError calls fn for every schema error of every known object of
// the four mirror kinds. Objects under a wrong apiVersion are left to
// api-version-kind: the API server never gets as far as their schema.
func eachSchemaError(c *lint.Context, fn func(o *manifest.Object, e schema.Error)) {
	for _, k := range schemaKinds {
		for _, o := range c.Objects(k) {
			if o.Content == nil {
				continue
			}
			for _, e := range schemaErrors(o) {
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
