package policy

// matchGlob reports whether name, one path component, matches the glob pat
// (one component of an ignore pattern) as git's wildmatch matches it: byte
// by byte, "*" (and "**" inside a component) any run of bytes, "?" one
// byte, "\" escapes the next byte, and a bracket expression one byte, with
// git's rules for it — "!" or "^" negates, a "]" first is a member, a "-"
// first or last is a member, ranges, and the POSIX classes ("[:alpha:]").
// A malformed pattern (an unclosed bracket, a trailing backslash, an
// unknown class) matches nothing.
func matchGlob(pat, name string) bool {
	return wildmatch(pat, name) == wmMatch
}

// splitPattern splits a path pattern into its components at each "/"
// outside a bracket expression: "[a/b]" is one component, a class that (like
// every class in git's path matching) never matches "/". An escaped "/"
// matches a "/" in git, so it separates components too: "a\\/b" is a/b.
func splitPattern(body string) []string {
	var out []string
	start := 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			if i+1 < len(body) && body[i+1] == '/' {
				out = append(out, body[start:i])
				start = i + 2
			}
			i++
		case '[':
			if rest, _, ok := matchClass(body[i+1:], 0); ok {
				i = len(body) - len(rest) // the closing "]"
			}
		case '/':
			out = append(out, body[start:i])
			start = i + 1
		}
	}
	return append(out, body[start:])
}

// Results of wildmatch, as in git: wmAbortAll means no shorter match of an
// enclosing "*" can succeed either.
const (
	wmNoMatch = iota
	wmMatch
	wmAbortAll
)

// wildmatch is git's dowild (wildmatch.c) for text without a "/".
func wildmatch(p, t string) int {
	for ; len(p) > 0; p, t = p[1:], t[1:] {
		if len(t) == 0 && p[0] != '*' {
			return wmAbortAll
		}
		switch p[0] {
		case '\\':
			p = p[1:]
			if len(p) == 0 || t[0] != p[0] {
				return wmNoMatch
			}
		case '?':
		case '*':
			for len(p) > 1 && p[1] == '*' {
				p = p[1:]
			}
			p = p[1:]
			if len(p) == 0 {
				return wmMatch
			}
			for ; len(t) > 0; t = t[1:] {
				if r := wildmatch(p, t); r != wmNoMatch {
					return r
				}
			}
			return wmAbortAll
		case '[':
			rest, matched, ok := matchClass(p[1:], t[0])
			if !ok {
				return wmAbortAll
			}
			if !matched {
				return wmNoMatch
			}
			p = rest // at the closing "]"
		default:
			if t[0] != p[0] {
				return wmNoMatch
			}
		}
	}
	if len(t) == 0 {
		return wmMatch
	}
	return wmNoMatch
}

// matchClass matches the byte c against the bracket expression that p
// starts just after its "[". It returns p from the closing "]" on, whether
// c is (or, negated, is not) a member, and false when the expression is
// malformed.
func matchClass(p string, c byte) (rest string, matched, ok bool) {
	if len(p) == 0 {
		return "", false, false
	}
	negated := p[0] == '!' || p[0] == '^'
	if negated {
		p = p[1:]
	}
	var prev byte // the previous member, 0 after a range or class
	for first := true; first || (len(p) > 0 && p[0] != ']'); first = false {
		if len(p) == 0 {
			return "", false, false
		}
		pc := p[0]
		switch {
		case pc == '\\':
			p = p[1:]
			if len(p) == 0 {
				return "", false, false
			}
			pc = p[0]
			matched = matched || c == pc
		case pc == '-' && prev != 0 && len(p) > 1 && p[1] != ']':
			p = p[1:]
			hi := p[0]
			if hi == '\\' {
				p = p[1:]
				if len(p) == 0 {
					return "", false, false
				}
				hi = p[0]
			}
			matched = matched || (prev <= c && c <= hi)
			pc = 0
		case pc == '[' && len(p) > 1 && p[1] == ':':
			end := 2
			for end < len(p) && p[end] != ']' {
				end++
			}
			if end == len(p) {
				return "", false, false
			}
			if end < 3 || p[end-1] != ':' {
				// No ":]": "[" is a plain member.
				matched = matched || c == '['
				break
			}
			in, known := posixClass(p[2:end-1], c)
			if !known {
				return "", false, false
			}
			matched = matched || in
			p = p[end:]
			pc = 0
		default:
			matched = matched || c == pc
		}
		prev = pc
		p = p[1:]
	}
	if len(p) == 0 {
		return "", false, false
	}
	return p, matched != negated, true
}

// posixClass reports whether c is in the named class, as git's sane ctype
// (ASCII only) says, and whether the name is a class at all.
func posixClass(name string, c byte) (in, known bool) {
	upper := 'A' <= c && c <= 'Z'
	lower := 'a' <= c && c <= 'z'
	digit := '0' <= c && c <= '9'
	print := 0x20 <= c && c <= 0x7e
	space := c == ' ' || c == '\t' || c == '\n' || c == '\r'
	switch name {
	case "alnum":
		return upper || lower || digit, true
	case "alpha":
		return upper || lower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return print && c != ' ', true
	case "lower":
		return lower, true
	case "print":
		return print, true
	case "punct":
		return print && !upper && !lower && !digit && c != ' ', true
	case "space":
		return space, true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}
