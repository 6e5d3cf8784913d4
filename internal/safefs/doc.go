// Package safefs is the one way mirrorlint reads the files of a tree: the
// walker, suppression comments, kustomize's filesystem, patch and origin
// lookups, config and policy data and the --base snapshot all go through a
// Root. A Root reads regular files only (never a device, FIFO or socket),
// inside its directories once every symlink is resolved (containment is
// checked on the real path, not on the spelling), never more than the size
// cap per file nor more than the run's byte budget in all.
//
// The package sits at the bottom of the layout: it imports nothing of
// mirrorlint, so every reader can use it.
package safefs
