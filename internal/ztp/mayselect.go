package ztp

import "slices"

// MaySelect tells whether the selector may select the managed cluster
// name when its labels are unknown but for the one every managed cluster
// has, name=<name> (ACM's import sets it): false only when a requirement
// on name, or the names it is limited to, leave the cluster out, or when
// the selector cannot be evaluated at all.
func (s Selector) MaySelect(name string) bool {
	if s.Unknown != "" || s.Names != nil && !slices.Contains(s.Names, name) {
		return false
	}
	known := map[string]string{"name": name}
	for _, r := range s.Requirements {
		if r.Key == "name" && !r.holds(known) {
			return false
		}
	}
	return true
}
