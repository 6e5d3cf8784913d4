package check

import "sync"

// Memo is a value several rules derive from the same cluster, derived once
// per Context and shared by every rule that reads it. The computation is
// bound to the memo where it is declared, so every reader gets the same
// value of the same type:
//
//	var entriesMemo = check.NewMemo("rules.entries", flattenEntries)
//	...
//	for _, e := range entriesMemo.Get(c) { … }
//
// The value is shared by rules that may run at the same time: treat it as
// read-only.
type Memo[T any] struct {
	name    string
	compute func(*Context) T
}

// NewMemo declares a memo; name only labels it (in a panic, say).
func NewMemo[T any](name string, compute func(*Context) T) *Memo[T] {
	return &Memo[T]{name: name, compute: compute}
}

// memoCell holds one memo's value in one context; once makes concurrent
// readers wait for the first computation instead of repeating it.
type memoCell struct {
	once sync.Once
	v    any
}

// Get returns the memo's value for c, computing it on first use. The
// computation may read other memos (not itself).
func (m *Memo[T]) Get(c *Context) T {
	c.memoMu.Lock()
	if c.memo == nil {
		c.memo = map[any]*memoCell{}
	}
	cell, ok := c.memo[m]
	if !ok {
		cell = &memoCell{}
		c.memo[m] = cell
	}
	c.memoMu.Unlock()
	cell.once.Do(func() { cell.v = m.compute(c) })
	// A computation that panicked (the rule that ran it reports the panic)
	// leaves the zero value for the others.
	v, _ := cell.v.(T)
	return v
}

// String names the memo.
func (m *Memo[T]) String() string { return m.name }
