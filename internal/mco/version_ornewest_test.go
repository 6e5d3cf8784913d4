package mco

import "testing"

// A version never set stands for the newest modelled release; a given one
// stays what it is.
func TestOrNewest(t *testing.T) {
	if got := (Version{}).OrNewest(); got != Newest {
		t.Errorf("zero version: %v, want %v", got, Newest)
	}
	v, err := ParseVersion("4.14.2")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.OrNewest(); got != v {
		t.Errorf("4.14.2: %v, want it unchanged", got)
	}
}
