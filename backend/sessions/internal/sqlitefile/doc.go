// Package sqlitefile reads SQLite databases from their files, without
// SQLite: a small, read-only reader of the SQLite file format
// (https://www.sqlite.org/fileformat2.html) for the session databases of
// the agents scout lists, which other processes write while it reads.
//
// # What is read
//
// The main file's header; the write-ahead log (-wal) when the caller
// gives one, up to its last valid commit (frames whose salts match the
// WAL header and whose cumulative checksums hold, in either byte order);
// the schema (sqlite_schema); the table b-trees of rowid tables, in
// rowid order or by rowid; the index b-trees of plain indexes, to find
// rows by equality on an index's first column; records of every serial
// type, with overflow pages read only when a value asked for lies in
// them; columns added by ALTER TABLE ADD COLUMN (their constant DEFAULT
// for older, shorter records); the INTEGER PRIMARY KEY rowid alias.
//
// # What is not
//
// Nothing is ever written: no file is created, no lock is taken, the
// -shm file is only read (never initialised, never recovered). A
// rollback journal is not recovered: a hot journal is ignored, as
// SQLite's immutable mode would, so a database left by a crashed
// rollback-mode writer reads as its main file says. UTF-16 databases,
// WITHOUT ROWID tables, virtual tables and tables with generated
// columns are refused with ErrUnsupported; indexes on expressions, with
// a collation other than BINARY, descending or partial are never
// offered by Table.Index (the caller scans instead).
//
// # Live databases
//
// Open takes a snapshot: the pages of the WAL's committed frames found
// then, and the main file for every other page. Pages are read lazily,
// so a writer can invalidate the snapshot while it is read: a
// checkpoint copies into the main file pages of commits the snapshot
// does not have, and a WAL restart overwrites old frames. DB.Stable says
// whether neither happened since Open (by the WAL header and, with the
// -shm file, its checkpoint counter nBackfillAttempted against the
// snapshot's last commit frame: a checkpoint of frames the snapshot has
// changes no page it reads; without a WAL, by the main header). A caller reads, then asks Stable, and reads
// again from a new Open when it is false (ErrChanged names that case).
// Commits made after Open are not seen; DB.Version names the commit
// seen, so two snapshots can be compared.
//
// # Limits
//
// Every pointer is checked against the page count; b-trees deeper than
// 20 levels or visiting a page twice, overflow chains that end early or
// loop, bad varints and records that overrun their payload are
// ErrMalformed: a hostile or torn file ends in an error, never a panic, a
// hang or an allocation larger than the files. A DB is safe for concurrent use
// when its io.ReaderAt files are (as *os.File is).
package sqlitefile
