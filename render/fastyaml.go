package render

import "slices"

// fastSigstoreYAML writes the registries.d document exactly as yaml.v2
// (MCO's encoder) does, without reflection, for key sets where yaml.v2's
// choices are certain: every key is a plain scalar that reads back as a
// string (ASCII, starts with a letter, contains a "." or "/" so that it is
// no YAML 1.1 boolean or null, only letters, digits and "._-/:@", at most
// 128 bytes so that it stays a simple key). Keys are sorted with yaml.v2's
// "natural" order (naturalLess). Any other key set (a wildcard scope, a
// numeric host) declines (ok false) and goes through yaml.v2 itself. The
// equivalence is checked by TestFastSigstoreYAMLMatchesYAMLv2.
func fastSigstoreYAML(keys map[string]bool) ([]byte, bool) {
	list := make([]string, 0, len(keys))
	size := 8
	for k := range keys {
		if !plainYAMLKey(k) {
			return nil, false
		}
		list = append(list, k)
		size += len(k) + 40
	}
	slices.SortFunc(list, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case naturalLess(a, b):
			return -1
		}
		return 1
	})
	b := make([]byte, 0, size)
	b = append(b, "docker:\n"...)
	for _, k := range list {
		b = append(b, "  "...)
		b = append(b, k...)
		b = append(b, ":\n    use-sigstore-attachments: true\n"...)
	}
	return b, true
}

func plainYAMLKey(k string) bool {
	if len(k) == 0 || len(k) > 128 || !isASCIILetter(k[0]) {
		return false
	}
	sep := false
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case isASCIILetter(c) || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '@':
		case c == '.' || c == '/':
			sep = true
		case c == ':':
			if i == len(k)-1 {
				return false // ": " at the end of a key is an indicator
			}
		default:
			return false
		}
	}
	return sep
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// naturalLess is yaml.v2's order of string map keys, for ASCII keys: at
// the first difference, letters sort after everything else and among
// themselves by code point; otherwise the runs of digits starting there
// are compared as numbers (a run continuing digits before the difference
// counts those digits when the differing digit is a zero), then the
// shorter run first, then the byte itself. A key that is a prefix of the
// other sorts first.
func naturalLess(a, b string) bool {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		la, lb := isASCIILetter(ca), isASCIILetter(cb)
		if la && lb {
			return ca < cb
		}
		if la || lb {
			return lb
		}
		var an, bn int64
		if ca == '0' || cb == '0' {
			for j := i - 1; j >= 0 && isDigit(a[j]); j-- {
				if a[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(a) && isDigit(a[ai]); ai++ {
			an = an*10 + int64(a[ai]-'0')
		}
		for ; bi < len(b) && isDigit(b[bi]); bi++ {
			bn = bn*10 + int64(b[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ca < cb
	}
	return len(a) < len(b)
}
