package mcp

import "unicode/utf8"

// cutTail is the length of an incomplete UTF-8 sequence at the end of b,
// so that cutting there does not split a character.
func cutTail(b []byte) int {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-i:]) {
				return 0
			}
			return i
		}
	}
	return 0
}

// cutHead is the number of continuation bytes at the start of b (at most
// three): the rest of a character whose start was cut away.
func cutHead(b []byte) int {
	n := 0
	for n < len(b) && n < utf8.UTFMax-1 && !utf8.RuneStart(b[n]) {
		n++
	}
	return n
}
