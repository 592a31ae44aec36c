package sqlitefile

import (
	"testing"
)

// BenchmarkOpenScan opens a crush database of 60 sessions and 3,000
// messages (parts of up to 5 KB) and reads every message's session_id and
// role, as a listing does, leaving the parts unread.
func BenchmarkOpenScan(b *testing.B) {
	path := newDB(b, crushSchema+`
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 60)
INSERT INTO sessions(id, title, updated_at, created_at) SELECT 'ses-' || x, 'title ' || x, x, x FROM n;
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 3000)
INSERT INTO messages(id, session_id, role, parts, model, provider, created_at, updated_at)
SELECT 'msg-' || x, 'ses-' || (x % 60 + 1), 'user', printf('[{"text":"%.*c"}]', x % 5000, 'p'), 'gpt', 'openai', x, x FROM n;
`)
	b.ResetTimer()
	for b.Loop() {
		db := mustOpen(b, path)
		tb := mustTable(b, db, "messages")
		sid, role := tb.Column("session_id"), tb.Column("role")
		n := 0
		err := tb.Scan(func(r *Row) error {
			if _, err := r.Value(sid); err != nil {
				return err
			}
			if _, err := r.Value(role); err != nil {
				return err
			}
			n++
			return nil
		})
		if err != nil || n != 3000 {
			b.Fatalf("%d rows: %v", n, err)
		}
	}
}
