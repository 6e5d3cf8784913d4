package manifest

// StreamName is the file name of the one stream a run reads instead of
// files (standard input, the KRM function's items, a reader the library is
// given): what its objects, positions and findings carry as File. It is no
// path on disk, so nothing resolves it, reads it again or links to it;
// callers that know a better name for the stream rename it on the way out.
const StreamName = "-"

// IsStream reports whether file, the name of a file as a position, a
// finding or Set.Files gives it, is the stream's rather than a file's.
func IsStream(file string) bool { return file == StreamName }
