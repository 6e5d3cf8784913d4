//go:build !unix

package safefs

// noFollowNoBlock is nothing where the system has neither flag (Windows):
// the release builds for it too, and the Stat of the opened file still
// refuses what is not a regular file.
const noFollowNoBlock = 0
