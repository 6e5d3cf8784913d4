package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// maxAliasExpansion bounds how many nodes may be reached through YAML
// aliases when an object is turned into plain data. Node trees share aliased
// subtrees, so a "billion laughs" document is small as nodes; only expanding
// it (Content, JSON) explodes. Real manifests use few anchors, if any.
const maxAliasExpansion = 100_000

// readBufs recycles read buffers between files: the YAML parser copies
// everything it keeps, so a buffer is free again once a file is parsed
// (objects that keep the text take a copy, see fileParse.source).
var readBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer keeps one odd large file from pinning its buffer.
const maxPooledBuffer = 1 << 20

func releaseBuffer(b *bytes.Buffer) {
	if b != nil && b.Cap() <= maxPooledBuffer {
		b.Reset()
		readBufs.Put(b)
	}
}

// readInput reads a file (or stdin) but never more than max+1 bytes, so a
// huge file, or one that grows while we read it, cannot exhaust memory.
// Files are read through the access layer: regular files only (a link to
// /dev/zero or a FIFO is refused, never opened for reading), inside the
// root when one is set. The caller releases the returned buffer.
func readInput(it walkItem, max int64, access *safefs.Root, stdin io.Reader) (*bytes.Buffer, *Problem) {
	pos := Position{File: it.name}
	buf := readBufs.Get().(*bytes.Buffer)
	if !it.stdin {
		if err := access.ReadInto(it.osPath, buf, max); err != nil {
			releaseBuffer(buf)
			return nil, refusedRead(pos, err, max)
		}
		return buf, nil
	}
	n, err := buf.ReadFrom(io.LimitReader(stdin, max+1))
	if err != nil {
		releaseBuffer(buf)
		return nil, &Problem{Pos: pos, Code: "read-error", Message: fsMessage(err)}
	}
	if n > max {
		releaseBuffer(buf)
		return nil, tooLarge(pos, n, max, true, true)
	}
	return buf, nil
}

// refusedRead words a read the access layer refused, or failed.
func refusedRead(pos Position, err error, max int64) *Problem {
	var r *safefs.Refusal
	if !errors.As(err, &r) {
		return &Problem{Pos: pos, Code: "read-error", Message: fsMessage(err)}
	}
	switch {
	case errors.Is(err, safefs.ErrTooLarge):
		return tooLarge(pos, r.Size, max, r.Size < 0, false)
	case errors.Is(err, safefs.ErrNotRegular):
		return &Problem{Pos: pos, Code: "not-regular", Warning: true, Message: pos.File + " is not a regular file (a device, FIFO or socket); not read"}
	case errors.Is(err, safefs.ErrOutside):
		return &Problem{Pos: pos, Code: "outside-repository", Message: r.Error() + ": only the repository and the paths the command line names are read"}
	}
	return &Problem{Pos: pos, Code: "read-refused", Message: r.Error()}
}

// tooLarge words the size-cap problem. It stays an error (not a Warning):
// the unread file may hold objects the cluster gets. A stream cannot be
// excluded by a glob, so its advice differs.
func tooLarge(pos Position, size, max int64, atLeast, stream bool) *Problem {
	what := fmt.Sprintf("%d bytes (%s)", size, humanBytes(size))
	if atLeast || size < 0 {
		what = "more than " + fmt.Sprintf("%d bytes", max)
	}
	subject, advice := "file", "Raise the limit with --max-file-size or exclude the file"
	if stream {
		subject, advice = "input", "Raise the limit with --max-file-size, or pass the files as paths instead of one stream"
	}
	return &Problem{Pos: pos, Code: "file-too-large", Message: fmt.Sprintf(
		"%s is %s, over the %d-byte (%s) limit; not read. %s",
		subject, what, max, humanBytes(max), advice)}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// checkText rejects input that is not UTF-8 text before the YAML parser sees
// it: the parser's own messages for these cases carry no position, and a NUL
// almost always means the file is not a manifest at all.
func checkText(name string, data []byte) *Problem {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		line, col := offsetPosition(data, i)
		return &Problem{Pos: Position{File: name, Line: line, Column: col}, Code: "binary-file",
			Message: fmt.Sprintf("binary data (NUL byte at offset %d); not a YAML or JSON manifest (UTF-16 files must be converted to UTF-8)", i)}
	}
	if utf8.Valid(data) {
		return nil
	}
	i := 0
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	line, col := offsetPosition(data, i)
	return &Problem{Pos: Position{File: name, Line: line, Column: col}, Code: CodeParseError,
		Message: fmt.Sprintf("invalid UTF-8 (byte 0x%02x); YAML manifests must be UTF-8, so the file was not read", data[i])}
}

// offsetPosition converts a byte offset to the 1-based line and column the
// YAML parser would report: lines break at LF, CRLF, lone CR, NEL, LS and
// PS, columns count characters, and a leading BOM takes no column.
func offsetPosition(data []byte, off int) (line, col int) {
	line, col = 1, 1
	i := 0
	if bytes.HasPrefix(data, bom) {
		i = len(bom)
	}
	for i < off && i < len(data) {
		if n := lineBreakLen(data[i:]); n > 0 {
			line++
			col = 1
			i += n
			continue
		}
		_, size := utf8.DecodeRune(data[i:])
		i += size
		col++
	}
	return line, col
}

var bom = []byte("\xef\xbb\xbf")

// lineBreakLen returns the length of the line break starting b, 0 if none.
func lineBreakLen(b []byte) int {
	switch {
	case len(b) == 0:
		return 0
	case b[0] == '\n':
		return 1
	case b[0] == '\r':
		if len(b) > 1 && b[1] == '\n' {
			return 2
		}
		return 1
	case b[0] == 0xc2 && len(b) > 1 && b[1] == 0x85: // NEL
		return 2
	case b[0] == 0xe2 && len(b) > 2 && b[1] == 0x80 && (b[2] == 0xa8 || b[2] == 0xa9): // LS, PS
		return 3
	}
	return 0
}
