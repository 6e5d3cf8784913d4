package manifest

import "bytes"

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
//   - a plain value is read up to the end of the line, a comment or a flow
//     indicator (, ] }): a kind name holds none of these, and a plain
//     scalar folded onto more lines gains a space, which no kind name has,
//     so the text read is the whole value whenever that value is a kind.
//
// Each value read is then judged by Needs.Has, which asks the loader's own
// Keeps: the test never holds a list of kinds of its own.
//
// u is how much of the unmodelled kinds the loader keeps (Options.Unmodelled).
func (n Needs) MayHold(data []byte, u Unmodelled) bool {
	if len(data) >= 2 && (data[0] == 0xFE && data[1] == 0xFF || data[0] == 0xFF && data[1] == 0xFE) {
		return true
	}
	if bytes.IndexByte(data, 0) >= 0 || bytes.IndexByte(data, '\\') >= 0 {
		return true
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	for i := 0; ; {
		at := bytes.Index(data[i:], kindKey)
		if at < 0 {
			return false
		}
		at += i
		i = at + len(kindKey)
		v, ok := kindValue(data, at)
		if !ok || n.Has(v, u) {
			return true
		}
	}
}

var (
	kindKey = []byte("kind")
	utf8BOM = []byte("\xEF\xBB\xBF")
)

// kindValue reads the value of the "kind" at data[at:], when that
// occurrence is a mapping key. ok is false when it may be a key whose
// value cannot be read for certain; an occurrence that is no key at all
// (part of a longer word, a value) gives "" and ok.
func kindValue(data []byte, at int) (value string, ok bool) {
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
			return "", false // an explicit key
		default:
			if isAnchorTail(data, j) {
				return "", false // &anchor kind: the key may be aliased
			}
			if quote == 0 {
				return "", true // inside a longer word or a value
			}
		}
	}
	k := end
	if quote != 0 {
		if k >= len(data) || data[k] != quote {
			return "", true
		}
		k++
	}
	for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
		k++
	}
	if k >= len(data) || data[k] != ':' {
		return "", true // not a key
	}
	k++
	if quote == 0 && k < len(data) && !isSpace(data[k]) {
		// "kind:x" is a plain scalar, not a key, in block context; in
		// JSON-like flow context a quoted key may be followed directly by
		// its value, which the quote case allows.
		return "", true
	}
	return readValue(data, k)
}

// readValue reads a scalar value starting at data[k] (after "kind:").
func readValue(data []byte, k int) (string, bool) {
	for {
		for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
			k++
		}
		if k >= len(data) || data[k] == '\n' || data[k] == '\r' || data[k] == '#' {
			return "", false // the value is on a later line
		}
		switch data[k] {
		case '&', '!':
			// An anchor or a tag before the value: skip the token.
			for k < len(data) && !isSpace(data[k]) {
				k++
			}
			continue
		case '*', '|', '>', '[', '{':
			return "", false
		case '"', '\'':
			q := data[k]
			rest := data[k+1:]
			for i := 0; i < len(rest); i++ {
				switch rest[i] {
				case '\n', '\r':
					return "", false // folded across lines
				case q:
					if q == '\'' && i+1 < len(rest) && rest[i+1] == '\'' {
						i++ // '' is a quote inside single quotes
						continue
					}
					return string(rest[:i]), true
				}
			}
			return "", false
		}
		start := k
		for k < len(data) {
			c := data[k]
			if c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' || (c == '#' && k > start && isSpace(data[k-1])) {
				break
			}
			k++
		}
		return string(bytes.TrimRight(data[start:k], " \t")), true
	}
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
