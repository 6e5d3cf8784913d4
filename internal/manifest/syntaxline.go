package manifest

import (
	"bytes"
	"errors"
	"io"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// yaml.v3 reports the line of a syntax error in its message, 1-based for
// the scanner's errors but 0-based for the parser's (it adds one only for
// the scanner), so a parser error names the line before the one it means.
// And for the parser errors that have a context (the collection being
// parsed), the line is where that collection starts, not where it went
// wrong: a misindented key deep in a mapping is reported at the mapping's
// first key. parserProblems are the parser's messages, each mapped to
// whether it is placed at its context.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   false,
	"did not find expected <document start>": false,
	"found duplicate %YAML directive":        false,
	"found incompatible YAML document":       false,
	"found duplicate %TAG directive":         false,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
}

// syntaxLine is the 1-based line of a syntax error that yaml.v3 reported
// at line with problem (both from its message). A parser error placed at
// its context is moved to the first line at which the text stops parsing
// with the same problem, which is where a reader looks for the mistake;
// the search is bounded (maxSyntaxSearch), and without a result the
// context's line stays. An error at the end of the stream (a collection
// left open) is placed on the last line that holds anything, not on the
// empty end the stream's last newline opens.
func syntaxLine(data []byte, line int, problem string) int {
	ends := lineEnds(data)
	if atContext, parser := parserProblems[problem]; parser {
		line++
		if atContext && len(data) <= maxSyntaxSearchBytes {
			for l := line; l <= len(ends) && l < line+maxSyntaxSearch; l++ {
				if prefixFails(data[:ends[l-1]], problem) {
					line = l
					break
				}
			}
		}
	}
	return min(line, lastContentLine(data, ends))
}

// lastContentLine is the last line of data holding a character other
// than white space, 1 for a blank text.
func lastContentLine(data []byte, ends []int) int {
	for l := len(ends); l > 0; l-- {
		start := 0
		if l > 1 {
			start = ends[l-2]
		}
		if len(bytes.TrimSpace(data[start:ends[l-1]])) > 0 {
			return l
		}
	}
	return 1
}

// The bounds of syntaxLine's search: each step parses the text up to a
// line again, so it is kept to files and distances a person edits.
const (
	maxSyntaxSearch      = 400
	maxSyntaxSearchBytes = 256 << 10
)

// lineEnds are the offsets just past each line's end.
func lineEnds(data []byte) []int {
	var ends []int
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			ends = append(ends, len(data))
			break
		}
		i += j + 1
		ends = append(ends, i)
	}
	return ends
}

// prefixFails reports whether text, decoded document by document, fails
// with problem.
func prefixFails(text []byte, problem string) bool {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil {
			m := lineErrRE.FindStringSubmatch(err.Error())
			return (m != nil && m[2] == problem) || err.Error() == "yaml: "+problem
		}
	}
}
