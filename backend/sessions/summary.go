package sessions

import (
	"errors"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// maxTitleBytes bounds the title kept while a history is read: a row whose
// title is longer cannot fit a page (PageBytes) anyway, so a longer one is
// only remembered as too long.
const maxTitleBytes = PageBytes

var (
	// errForeign: the history recorded a cwd that is not the workspace.
	errForeign = errors.New("sessions: history of another directory")
	// errNoTime: the history has no record with a "ts".
	errNoTime = errors.New("sessions: history without timestamps")
	// errRowTooLarge: the row cannot fit a page (a huge title).
	errRowTooLarge = errors.New("sessions: row larger than a page")
)

// summary accumulates what a row needs while a history is read record by
// record; it holds no record text beyond the bounded title and the first
// user text's 80 characters.
type summary struct {
	records      int64
	first, last  time.Time
	hasTS        bool
	sawCwd       bool
	title        []byte
	hasTitle     bool
	titleTooLong bool
	userText     []byte
	hasUser      bool
	scratch      []byte // the previous title's buffer, reused
}

// apply adds one parsed record. It returns errForeign as soon as a recorded
// cwd is not the workspace, so the rest of the history is never read.
func (s *summary) apply(rec *Record, m *cwdMatcher) error {
	s.records++
	if !rec.Known {
		return nil // unknown types are skipped (counted as records only)
	}
	if len(rec.Cwd) > 0 {
		if !m.matches(rec.Cwd) {
			return errForeign
		}
		s.sawCwd = true
	}
	if rec.HasTS {
		if !s.hasTS {
			s.first, s.hasTS = rec.TS, true
		}
		s.last = rec.TS
	}
	switch {
	case rec.Type == TypeTitle && rec.Title != nil:
		s.setTitle(rec.Title)
	case rec.Type == TypeUser && rec.Text != nil && !s.hasUser:
		s.setUserText(rec.Text)
	}
	return nil
}

// setTitle keeps the title of a title record unless it is empty once
// sanitized (an empty title record does not clear an earlier title).
func (s *summary) setTitle(lit []byte) {
	t, n, cut := appendSanitized(s.scratch[:0], lit, 0, maxTitleBytes)
	if n == 0 && !cut {
		return
	}
	s.scratch = s.title[:0]
	s.title, s.hasTitle, s.titleTooLong = t, true, cut
}

// setUserText keeps the first 80 characters of the first user text that is
// not empty once sanitized.
func (s *summary) setUserText(lit []byte) {
	t, n, _ := appendSanitized(nil, lit, MaxTitleRunes, maxTitleBytes)
	if n > 0 {
		s.userText, s.hasUser = t, true
	}
}

// row builds the session row of a history read in full.
func (s *summary) row(id string) (wire.SessionRow, error) {
	if !s.hasTS {
		return wire.SessionRow{}, errNoTime
	}
	if s.titleTooLong {
		return wire.SessionRow{}, errRowTooLarge
	}
	title := s.userText
	if s.hasTitle {
		title = s.title
	}
	cwd := wire.CwdUnverified
	if s.sawCwd {
		cwd = wire.CwdVerified
	}
	row := wire.SessionRow{
		ID: id, Title: string(title), Cwd: cwd, Records: s.records,
		CreatedAt: formatTime(s.first), UpdatedAt: formatTime(s.last),
	}
	return row, fitsPage(row)
}

// fitsPage is errRowTooLarge when row alone cannot fit a page: a title
// shorter than maxTitleBytes still can, with the row's other members and
// its escapes. session.list and session.open refuse such a row as
// session.discover does, since their rows are the same.
func fitsPage(row wire.SessionRow) error {
	_, err := newPage().add(row)
	return err
}

// formatTime writes a history time as every protocol time: UTC, RFC 3339
// with milliseconds (sub-millisecond digits are truncated).
func formatTime(t time.Time) string { return wire.Timestamp(t) }
