package policy

// How a pattern applies to the entries of one directory, decided once per
// directory from its path so that Check tests most patterns against the
// entry's name alone.
type mode uint8

const (
	// modeName: a simple pattern; only the entry's own name can match it
	// (as in git, a pattern never matches an entry through an ancestor:
	// an excluded ancestor is never entered, and "!dir" re-includes dir,
	// not what is inside it).
	modeName mode = iota
	// modePath: a pattern with a slash, matched on the whole path.
	modePath
)

type active struct {
	p    *pattern
	mode mode
}

// compileRules lists the patterns that can still decide an entry of the
// directory comps, first-deciding first: rules is in increasing precedence,
// so it is walked backwards.
func compileRules(rules []*pattern, comps []string, out []active) []active {
	for i := len(rules) - 1; i >= 0; i-- {
		p := rules[i]
		switch {
		case p.simple:
			out = append(out, active{p, modeName})
		case mayMatchBelow(p, comps):
			out = append(out, active{p, modePath})
		}
	}
	return out
}

// mayMatchBelow prunes path patterns that cannot match anything in the
// directory comps: the pattern's domain must be a prefix of comps, and it
// must still be able to match at this depth. The check is conservative:
// when unsure it keeps the pattern.
func mayMatchBelow(p *pattern, comps []string) bool {
	if len(comps) < p.domainLen {
		return false
	}
	below := comps[p.domainLen:]
	if len(p.base) > 0 {
		below = append(append([]string{}, p.base...), below...)
	}
	for k, lit := range p.lead {
		if k >= len(below) {
			break
		}
		if below[k] != lit {
			return false
		}
	}
	return true
}

// decide applies a compiled list to the entry name (path is its full
// component path, built only when a path pattern needs it).
func decide(list []active, f *Frame, name string, isDir bool, path *[]string) matchResult {
	for _, a := range list {
		var r matchResult
		switch a.mode {
		case modeName:
			r = a.p.matchName(name, isDir)
		case modePath:
			if *path == nil {
				*path = make([]string, len(f.comps)+1)
				copy(*path, f.comps)
				(*path)[len(f.comps)] = name
			}
			r = a.p.match(*path, isDir)
		}
		if r != noMatch {
			return r
		}
	}
	return noMatch
}
