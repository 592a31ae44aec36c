package sessions

import (
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// StoreDir is the session store inside the backend home.
const StoreDir = "sessions"

// scoutSource is scout's own store, the backend home's sessions/ (a flat
// directory of <id>.jsonl histories and <id>.lock locks), read by the
// strict rules of its history format (record.go, summary.go).
type scoutSource struct {
	home   string
	now    func() time.Time
	match  *cwdMatcher
	parser recordParser // one per scan: only one history is read at a time
}

func (s *scoutSource) agent() string        { return wire.AgentScout }
func (s *scoutSource) own() bool            { return true }
func (s *scoutSource) open() (*tree, error) { return openTree(s.home, StoreDir) }

// entry classifies a name of sessions/: <id>.jsonl is a primary history,
// <id>.lock its lock; subdirectories (archive/), subagent histories
// (<id>.subagent-N.jsonl fails the id grammar, which has no dot) and
// everything else are never sessions.
func (s *scoutSource) entry(f *frame, name string) entry {
	if f.depth > 0 {
		return entry{}
	}
	if id, ok := strings.CutSuffix(name, ".jsonl"); ok && wire.ValidSessionID(id) {
		return entry{kind: entryHistory}
	}
	if id, ok := strings.CutSuffix(name, ".lock"); ok && wire.ValidSessionID(id) {
		return entry{kind: entryLock}
	}
	return entry{}
}

func (s *scoutSource) history(f *frame, name string) history {
	return &scoutHistory{id: strings.TrimSuffix(name, ".jsonl"), parser: &s.parser, match: s.match}
}

func (s *scoutSource) candidate(name, id string) bool { return name == id+".jsonl" }

func (s *scoutSource) busy(f *frame, id string) bool { return busy(f.dir, id, s.now()) }

// scoutHistory is one history of scout's store being read.
type scoutHistory struct {
	id     string
	parser *recordParser
	match  *cwdMatcher
	sum    summary
}

func (h *scoutHistory) record(line []byte) error {
	rec, err := h.parser.parse(line)
	if err != nil {
		return err
	}
	return h.sum.apply(&rec, h.match)
}

func (h *scoutHistory) result() (wire.SessionRow, error) { return h.sum.row(h.id) }
