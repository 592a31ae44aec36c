package policy

// matchResult is how one ignore or deny pattern decides an entry. Patterns are
// asked in decreasing precedence; the first that is not noMatch decides.
type matchResult uint8

const (
	// noMatch: the pattern says nothing about the entry.
	noMatch matchResult = iota
	// exclude: the entry is ignored (or, for a deny glob, protected).
	exclude
	// include: a "!" pattern re-includes the entry.
	include
)

// String names the result, for test failures.
func (m matchResult) String() string {
	switch m {
	case exclude:
		return "exclude"
	case include:
		return "include"
	}
	return "no match"
}
