package manifest

import (
	"bufio"
	"bytes"
)

// IgnoreMarker starts an inline suppression comment
// ("# mirrorlint:ignore <rule-id> <reason>", package check). The loader
// notes the lines of a file that hold it while it has the text, so that
// matching suppressions never reads the file again.
const IgnoreMarker = "mirrorlint:ignore"

// MarkedLine is a line of a file holding IgnoreMarker: its number
// (1-based) and its text without the line break.
type MarkedLine struct {
	Line int
	Text string
}

// marks are the marked lines of one file, shared by its objects.
type marks struct{ lines []MarkedLine }

// noMarks stands for a file the loader read that holds no marker.
var noMarks = &marks{}

// FindMarked returns the lines of data holding IgnoreMarker, split as
// bufio.Scanner splits lines (a line longer than 16 MiB ends the scan).
func FindMarked(data []byte) []MarkedLine {
	if !bytes.Contains(data, []byte(IgnoreMarker)) {
		return nil
	}
	var out []MarkedLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		if bytes.Contains(sc.Bytes(), []byte(IgnoreMarker)) {
			out = append(out, MarkedLine{Line: n, Text: sc.Text()})
		}
	}
	return out
}

func marksOf(data []byte) *marks {
	if l := FindMarked(data); l != nil {
		return &marks{lines: l}
	}
	return noMarks
}

// Marked returns the lines of the object's file holding IgnoreMarker as
// the loader read it, and false when the object was not read from its
// file as it stands (built in memory, or by kustomize).
func (o *Object) Marked() ([]MarkedLine, bool) {
	if o.marks == nil {
		return nil, false
	}
	return o.marks.lines, true
}
