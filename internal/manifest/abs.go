package manifest

import "github.com/mirrorlint/mirrorlint/internal/safefs"

// Abs is filepath.Abs without a working-directory lookup per name (see
// safefs.Abs, which the access layer resolves every read with).
func Abs(name string) (string, error) { return safefs.Abs(name) }
