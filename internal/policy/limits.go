package policy

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// OPA has no memory limit, and --policy-timeout is only checked between
// evaluation steps: one builtin call such as numbers.range(1, 1e9) or
// net.cidr_expand("0.0.0.0/0") allocates gigabytes before the clock is
// read again. The builtins that can build far more than their operands
// hold are replaced, process-wide, by versions that first work out how
// much the call would build and refuse it above these fixed limits; below
// them the original OPA implementation runs, unchanged.
const (
	// MaxBuiltinElements is what one call may put in an array or set
	// (numbers.range, net.cidr_expand, split, array.flatten, …).
	MaxBuiltinElements = 1 << 20
	// MaxBuiltinBytes is how long a string one call builds may be
	// (concat, sprintf, replace, json.marshal, …).
	MaxBuiltinBytes = 16 << 20
	// MaxBuiltinBits is the size of a number bits.lsh may build: printing
	// a number of a billion bits in decimal alone takes minutes.
	MaxBuiltinBits = 1 << 16
	// maxRefusals stops an evaluation that keeps calling refused builtins
	// (in a loop over the input) instead of recording every refusal.
	maxRefusals = 1000
)

// limitUnit says what a limit counts.
type limitUnit int

const (
	unitElements limitUnit = iota
	unitBytes
	unitBits
)

func (u limitUnit) max() int64 {
	switch u {
	case unitElements:
		return MaxBuiltinElements
	case unitBits:
		return MaxBuiltinBits
	}
	return MaxBuiltinBytes
}

func (u limitUnit) String() string {
	return [...]string{"elements", "bytes", "bits"}[u]
}

// LimitError is a builtin call refused at one of the limits above. The
// call is undefined, like any builtin that fails, and Evaluate reports it
// as a limit-exceeded finding at the call.
type LimitError struct {
	Builtin string
	Unit    limitUnit
	Size    int64 // what the call would build, at least; -1 when unknown
}

func (e *LimitError) Error() string {
	would := "more than that"
	if e.Size >= 0 {
		would = fmt.Sprintf("%d %s", e.Size, e.Unit)
	}
	return fmt.Sprintf("%s would build %s; one policy builtin call may build at most %d %s, so the call was refused (it is undefined: the policy's results are incomplete). The limit is fixed, so that no policy can exhaust the run's memory: build less in one call",
		e.Builtin, would, e.Unit.max(), e.Unit)
}

// predictor works out, without building it, how much a call would build:
// the size and its unit, or ok false when the operands are not what the
// builtin accepts (the original then reports its own error).
type predictor func(bctx topdown.BuiltinContext, ops []*ast.Term) (size int64, unit limitUnit, ok bool)

// uncapped are OPA's own implementations of the capped builtins.
var uncapped = map[string]topdown.BuiltinFunc{}

func init() {
	for name, predict := range predictors {
		orig := topdown.GetBuiltin(name)
		if orig == nil {
			panic("policy: OPA has no builtin " + name + " to cap")
		}
		uncapped[name] = orig
		topdown.RegisterBuiltinFunc(name, capped(name, predict, orig))
	}
}

// capped runs orig when predict says the call stays within its limit.
func capped(name string, predict predictor, orig topdown.BuiltinFunc) topdown.BuiltinFunc {
	return func(bctx topdown.BuiltinContext, ops []*ast.Term, iter func(*ast.Term) error) error {
		size, unit, ok := predict(bctx, ops)
		if !ok || size <= unit.max() {
			return orig(bctx, ops, iter)
		}
		err := &LimitError{Builtin: name, Unit: unit, Size: size}
		if log, _ := bctx.Context.Value(limitLogKey{}).(*limitLog); log != nil && log.record(err, bctx.Location) {
			return topdown.Halt{Err: errTooManyRefusals}
		}
		return err
	}
}

var errTooManyRefusals = fmt.Errorf("policy evaluation stopped after %d refused builtin calls", maxRefusals)

// limitLog collects the refusals of one evaluation, once per call site.
type limitLog struct {
	mu    sync.Mutex
	count int
	sites map[string]limitHit
	trip  *ast.Location // the call that made one refusal too many
}

type limitHit struct {
	err *LimitError
	loc *ast.Location
}

type limitLogKey struct{}

func withLimitLog(ctx context.Context) (context.Context, *limitLog) {
	log := &limitLog{sites: map[string]limitHit{}}
	return context.WithValue(ctx, limitLogKey{}, log), log
}

// record keeps the first refusal at each call site; true once there were
// too many refusals to go on.
func (l *limitLog) record(err *LimitError, loc *ast.Location) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.count++
	key := err.Builtin
	if loc != nil {
		key = fmt.Sprintf("%s:%d:%d", loc.File, loc.Row, loc.Col)
	}
	if _, ok := l.sites[key]; !ok {
		l.sites[key] = limitHit{err: err, loc: loc}
	}
	if l.count == maxRefusals+1 {
		l.trip = loc
	}
	return l.count > maxRefusals
}

func (l *limitLog) halted() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count > maxRefusals
}

// findings are the refusals as error findings at the calls, in file order.
func (l *limitLog) findings() []check.Finding {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]check.Finding, 0, len(l.sites))
	for _, h := range l.sites {
		f := check.Finding{Rule: check.LimitRule.ID, Severity: check.Error, Message: "policy builtin " + h.err.Error()}
		if h.loc != nil {
			f.Position = manifest.Position{File: h.loc.File, Line: h.loc.Row, Column: h.loc.Col}
		}
		out = append(out, f)
	}
	if l.count > maxRefusals {
		f := check.Finding{Rule: check.LimitRule.ID, Severity: check.Error,
			Message: errTooManyRefusals.Error() + " (the last one here): the policies' other results for this cluster are missing"}
		if l.trip != nil {
			f.Position = manifest.Position{File: l.trip.File, Line: l.trip.Row, Column: l.trip.Col}
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Position, out[j].Position
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return out
}

// withoutLimitErrors drops the refusals from OPA's builtin error list:
// they are reported as findings of their own, also under --strict.
func withoutLimitErrors(errs []topdown.Error) []topdown.Error {
	out := errs[:0]
	for i := range errs {
		var le *LimitError
		if errors.As(&errs[i], &le) {
			continue
		}
		out = append(out, errs[i])
	}
	return out
}
