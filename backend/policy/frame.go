package policy

import "github.com/go-git/go-git/v5/plumbing/format/gitignore"

// How a pattern applies to the entries of one directory, decided once per
// directory from its path so that Check tests most patterns against the
// entry's name alone.
type mode uint8

const (
	// modeAll: the pattern matched an ancestor component (go-git matches
	// simple patterns against every component), so it matches every entry.
	modeAll mode = iota
	// modeName: a simple pattern that matched no ancestor; only the entry's
	// own name can match it.
	modeName
	// modePath: a pattern with a slash, matched on the whole path.
	modePath
)

type active struct {
	p    *pattern
	mode mode
}

// compileRules lists the patterns that can still decide an entry of the
// directory comps, first-deciding first: rules is in increasing precedence,
// so it is walked backwards. A pattern that matches every entry ends the
// list, since nothing after it is ever consulted.
func compileRules(rules []*pattern, comps []string, out []active) []active {
	for i := len(rules) - 1; i >= 0; i-- {
		p := rules[i]
		if !p.simple {
			if mayMatchBelow(p, comps) {
				out = append(out, active{p, modePath})
			}
			continue
		}
		if ancestorMatches(p, comps) {
			return append(out, active{p, modeAll})
		}
		out = append(out, active{p, modeName})
	}
	return out
}

// ancestorMatches reports whether a simple pattern matches one of the
// directory components below its domain (all directories).
func ancestorMatches(p *pattern, comps []string) bool {
	for _, c := range comps[min(p.domainLen, len(comps)):] {
		if p.matchName(c, true) != gitignore.NoMatch {
			return true
		}
	}
	return false
}

// mayMatchBelow prunes path patterns that cannot match anything in the
// directory comps: go-git requires the domain as a prefix, and the pattern
// must still be able to match at this depth. The check is conservative:
// when unsure it keeps the pattern.
func mayMatchBelow(p *pattern, comps []string) bool {
	if len(comps) < p.domainLen {
		return false
	}
	below := comps[p.domainLen:]
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
func decide(list []active, f *Frame, name string, isDir bool, path *[]string) gitignore.MatchResult {
	for _, a := range list {
		var r gitignore.MatchResult
		switch a.mode {
		case modeAll:
			return a.p.result
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
		if r != gitignore.NoMatch {
			return r
		}
	}
	return gitignore.NoMatch
}
