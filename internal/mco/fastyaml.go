package mco

import "slices"

// fastSigstoreYAML writes the registries.d document exactly as yaml.v2
// (MCO's encoder) does, without reflection, for key sets where yaml.v2's
// choices are certain: every key is a plain scalar that reads back as a
// string (ASCII, starts with a letter, contains a "." or "/" so that it is
// no YAML 1.1 boolean or null, only letters, digits and "._-/:@", at most
// 128 bytes so that it stays a simple key). Keys are sorted with yaml.v2's
// "natural" order (naturalCompare). Any other key set (a wildcard scope, a
// numeric host) declines (ok false) and goes through yaml.v2 itself. The
// equivalence is checked by TestFastSigstoreYAMLMatchesYAMLv2.
//
// list holds distinct keys in that order (see uniqueNatural).
func fastSigstoreYAML(list []string) ([]byte, bool) {
	size := 8
	for _, k := range list {
		if !plainYAMLKey(k) {
			return nil, false
		}
		size += len(k) + 40
	}
	b := make([]byte, 0, size)
	b = append(b, "docker:\n"...)
	for _, k := range list {
		b = append(b, "  "...)
		b = append(b, k...)
		b = append(b, ":\n    use-sigstore-attachments: true\n"...)
	}
	return b, true
}

// uniqueNatural sorts keys in yaml.v2's order (in place) and drops
// repeats.
func uniqueNatural(keys []string) []string {
	slices.SortFunc(keys, naturalCompare)
	return slices.Compact(keys)
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

// naturalCompare is yaml.v2's order of string map keys, for ASCII keys, as
// a three-way comparison: at the first difference, letters sort after
// everything else and among themselves by code point; otherwise the runs
// of digits starting there are compared as numbers (a run continuing
// digits before the difference counts those digits when the differing
// digit is a zero), then the shorter run first, then the byte itself. A key
// that is a prefix of the other sorts first. Being decided at the first
// difference, it is antisymmetric; 0 only for equal keys.
func naturalCompare(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	// Skip the common prefix eight bytes at a time (string equality is a
	// vectorised memory comparison), then byte by byte.
	for i+8 <= n && a[i:i+8] == b[i:i+8] {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		switch {
		case len(a) < len(b):
			return -1
		case len(a) > len(b):
			return 1
		}
		return 0
	}
	ca, cb := a[i], b[i]
	la, lb := isASCIILetter(ca), isASCIILetter(cb)
	switch {
	case la && lb:
		return order(ca < cb)
	case la || lb:
		return order(lb)
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
	switch {
	case an != bn:
		return order(an < bn)
	case ai != bi:
		return order(ai < bi)
	}
	return order(ca < cb)
}

// order is -1 when less, else 1.
func order(less bool) int {
	if less {
		return -1
	}
	return 1
}
