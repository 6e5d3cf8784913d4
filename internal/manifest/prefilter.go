package manifest

import (
	"bytes"
	"slices"
	"strings"
)

// MayHold reports whether data (a whole file, or one document of it) may
// hold an object of a needed kind; false means it certainly cannot, so the
// file need not be parsed. It is a byte-level test, and conservative by
// construction:
//
//   - the loader recognises an object only by a mapping key written
//     exactly "kind" (typeMeta; a typed list names its items' kind in its
//     own "kind"), so a file holding a needed object holds the four bytes
//     "kind" at such a key, with the kind's name as its value;
//   - every occurrence of "kind" whose value MayHold cannot read for
//     certain keeps the file: a value on a later line, a block scalar, an
//     alias, a flow collection, an unterminated quote, an anchor on the
//     key itself, an explicit "? kind" key;
//   - a file with a backslash anywhere keeps it (a double-quoted scalar
//     may spell "kind" or the kind with escapes, \u006b), as does one with
//     a NUL byte or a UTF-16/32 byte-order mark (YAML read in another
//     encoding);
//   - a plain value is read up to the end of the line or a comment, and
//     also up to the first flow indicator (, ] }), since the key may sit
//     in a flow mapping: both readings are judged, one of them is the
//     value; a plain scalar folded onto more lines gains a space, which no
//     kind the loader keeps has, so the text read is the whole value
//     whenever that value is a kind; a value that may go on below, on a
//     line indented deeper than the key, keeps the file.
//
// Each value read is then judged by Needs.Has, which asks the loader's own
// Keeps: the test never holds a list of kinds of its own.
//
// u is how much of the unmodelled kinds the loader keeps (Options.Unmodelled).
func (n Needs) MayHold(data []byte, u Unmodelled) bool {
	kinds, unsure := kindsIn(data)
	return n.mayHoldKinds(kinds, unsure, u)
}

// MayHoldKinds reports whether data may hold an object of one of kinds,
// or a typed list of them, read as MayHold reads it; unlike MayHold it
// asks nothing of the loader (a kind it keeps only to report it is not
// one of kinds).
func MayHoldKinds(data []byte, kinds []string) bool {
	found, unsure := kindsIn(data)
	if unsure {
		return true
	}
	for _, k := range found {
		if slices.Contains(kinds, strings.TrimSuffix(k, "List")) || slices.Contains(kinds, k) {
			return true
		}
	}
	return false
}

// mayHoldKinds is MayHold's verdict from what kindsIn read.
func (n Needs) mayHoldKinds(kinds []string, unsure bool, u Unmodelled) bool {
	if unsure {
		return true
	}
	for _, v := range kinds {
		if n.Has(v, u) {
			return true
		}
	}
	return false
}

// kindsIn reads the values of every "kind" key of data, in order, and
// whether one of them (or the whole text) could not be read for certain:
// everything MayHold judges, independent of what is needed, so that a
// stored file result can be judged again for another run's needs.
func kindsIn(data []byte) (kinds []string, unsure bool) {
	if len(data) >= 2 && (data[0] == 0xFE && data[1] == 0xFF || data[0] == 0xFF && data[1] == 0xFE) {
		return nil, true
	}
	if bytes.IndexByte(data, 0) >= 0 || bytes.IndexByte(data, '\\') >= 0 {
		return nil, true
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	for i := 0; ; {
		at := bytes.Index(data[i:], kindKey)
		if at < 0 {
			return kinds, false
		}
		at += i
		i = at + len(kindKey)
		vs, ok := kindValue(data, at)
		if !ok {
			return nil, true
		}
		kinds = append(kinds, vs...)
	}
}

var (
	kindKey = []byte("kind")
	utf8BOM = []byte("\xEF\xBB\xBF")
)

// kindValue reads the values the "kind" at data[at:] may have, when that
// occurrence is a mapping key. ok is false when it may be a key whose
// value cannot be read for certain; an occurrence that is no key at all
// (part of a longer word, a value) gives nothing and ok.
func kindValue(data []byte, at int) (values []string, ok bool) {
	end := at + len(kindKey)
	// What precedes: the start of a line or a flow collection, a quote.
	quote := byte(0)
	j := at - 1
	if j >= 0 && (data[j] == '"' || data[j] == '\'') {
		quote = data[j]
		j--
	}
	for j >= 0 && (data[j] == ' ' || data[j] == '\t') {
		j--
	}
	if j >= 0 {
		switch c := data[j]; c {
		case '\n', '\r', '{', ',', '[', '-', ':':
		case '?':
			return nil, false // an explicit key
		default:
			if isAnchorTail(data, j) {
				return nil, false // &anchor kind: the key may be aliased
			}
			if quote == 0 {
				return nil, true // inside a longer word or a value
			}
		}
	}
	k := end
	if quote != 0 {
		if k >= len(data) || data[k] != quote {
			return nil, true
		}
		k++
	}
	for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
		k++
	}
	if k >= len(data) || data[k] != ':' {
		return nil, true // not a key
	}
	k++
	if quote == 0 && k < len(data) && !isSpace(data[k]) {
		// "kind:x" is a plain scalar, not a key, in block context; in
		// JSON-like flow context a quoted key may be followed directly by
		// its value, which the quote case allows.
		return nil, true
	}
	keyCol := at - bytes.LastIndexByte(data[:at], '\n') - 1
	if quote != 0 {
		keyCol--
	}
	return readValue(data, k, keyCol)
}

// readValue reads the values a scalar starting at data[k] (after "kind:",
// a key at column keyCol) may have.
func readValue(data []byte, k, keyCol int) ([]string, bool) {
	for {
		for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
			k++
		}
		if k >= len(data) || data[k] == '\n' || data[k] == '\r' || data[k] == '#' {
			return nil, false // the value is on a later line
		}
		switch data[k] {
		case '&', '!':
			// An anchor or a tag before the value: skip the token.
			for k < len(data) && !isSpace(data[k]) {
				k++
			}
			continue
		case '*', '|', '>', '[', '{':
			return nil, false
		case '"', '\'':
			q := data[k]
			rest := data[k+1:]
			for i := 0; i < len(rest); i++ {
				switch rest[i] {
				case '\n', '\r':
					return nil, false // folded across lines
				case q:
					if q == '\'' && i+1 < len(rest) && rest[i+1] == '\'' {
						i++ // '' is a quote inside single quotes
						continue
					}
					return []string{string(rest[:i])}, true
				}
			}
			return nil, false
		}
		start, flow := k, -1
		for k < len(data) {
			c := data[k]
			if c == '\n' || c == '\r' || (c == '#' && k > start && isSpace(data[k-1])) {
				break
			}
			if flow < 0 && (c == ',' || c == ']' || c == '}') {
				flow = k
			}
			k++
		}
		line := string(bytes.TrimRight(data[start:k], " \t"))
		if continues(data, k, keyCol) {
			return nil, false // a plain scalar may fold the next lines in
		}
		if flow < 0 {
			return []string{line}, true
		}
		return []string{string(bytes.TrimRight(data[start:flow], " \t")), line}, true
	}
}

// continues reports whether the line after the one ending at data[k] (blank
// lines skipped) is indented deeper than keyCol: a plain scalar may go on
// there.
func continues(data []byte, k, keyCol int) bool {
	for k < len(data) {
		nl := bytes.IndexByte(data[k:], '\n')
		if nl < 0 {
			return false
		}
		k += nl + 1
		line := data[k:]
		if end := bytes.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
		}
		trimmed := bytes.TrimLeft(line, " \t")
		if len(bytes.TrimRight(trimmed, "\r")) == 0 {
			continue // blank: a plain scalar folds it in and goes on
		}
		return len(line)-len(trimmed) > keyCol
	}
	return false
}

// isAnchorTail reports whether data[j] ends a token starting with '&' on
// the same line: "&a kind:".
func isAnchorTail(data []byte, j int) bool {
	for ; j >= 0 && !isSpace(data[j]); j-- {
		if data[j] == '&' {
			return true
		}
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
