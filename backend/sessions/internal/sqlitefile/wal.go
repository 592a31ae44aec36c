package sqlitefile

import (
	"bytes"
	"encoding/binary"
)

// The -shm file's checkpoint counters (WalCkptInfo after the two copies
// of the wal-index header): nBackfill, and nBackfillAttempted, which a
// checkpoint sets before it copies pages and nBackfill after.
const (
	shmBackfill          = 96
	shmBackfillAttempted = 128
)

// walChecksum continues SQLite's WAL checksum s over b (a multiple of 8
// bytes), its 32-bit words big-endian when big else little-endian.
func walChecksum(s [2]uint32, b []byte, big bool) [2]uint32 {
	s0, s1 := s[0], s[1]
	for i := 0; i+8 <= len(b); i += 8 {
		var x0, x1 uint32
		if big {
			x0, x1 = binary.BigEndian.Uint32(b[i:]), binary.BigEndian.Uint32(b[i+4:])
		} else {
			x0, x1 = binary.LittleEndian.Uint32(b[i:]), binary.LittleEndian.Uint32(b[i+4:])
		}
		s0 += x0 + s1
		s1 += x1 + s0
	}
	return [2]uint32{s0, s1}
}

// readWAL reads the -shm checkpoint counters, then the WAL header and its
// frames up to the last valid commit. A WAL without a valid header (empty,
// or being restarted) holds nothing, as SQLite would read it. walHdr keeps
// the header's 32 bytes as read (nil: the WAL was shorter), for Stable.
func (db *DB) readWAL() error {
	db.shmCk, db.shmOK = db.readSHM()
	f := db.f
	if f.WALSize < walHdrSize {
		return nil
	}
	hdr := make([]byte, walHdrSize)
	if err := readFull(f.WAL, hdr, 0); err != nil {
		return err
	}
	db.walHdr = hdr
	m := binary.BigEndian.Uint32(hdr)
	if m&^1 != 0x377f0682 || binary.BigEndian.Uint32(hdr[4:]) != 3007000 {
		return nil
	}
	big := m&1 == 1
	sum := walChecksum([2]uint32{}, hdr[:24], big)
	if sum[0] != binary.BigEndian.Uint32(hdr[24:]) || sum[1] != binary.BigEndian.Uint32(hdr[28:]) {
		return nil
	}
	ps := int(binary.BigEndian.Uint32(hdr[8:]))
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return nil // SQLite ignores such a WAL too
	}
	if db.pageSize != 0 && ps != db.pageSize {
		return malformed("WAL page size differs from the database's")
	}
	salt1, salt2 := binary.BigEndian.Uint32(hdr[16:]), binary.BigEndian.Uint32(hdr[20:])
	frameLen := int64(frameHdrLen + ps)
	buf := make([]byte, frameLen)
	pending := map[uint32]int64{}
	committed := map[uint32]int64{}
	var last Version
	var dbSize uint32
	for i := int64(0); walHdrSize+(i+1)*frameLen <= f.WALSize; i++ {
		at := walHdrSize + i*frameLen
		if err := readFull(f.WAL, buf, at); err != nil {
			return err
		}
		if binary.BigEndian.Uint32(buf[8:]) != salt1 || binary.BigEndian.Uint32(buf[12:]) != salt2 {
			break
		}
		next := walChecksum(sum, buf[:8], big)
		next = walChecksum(next, buf[frameHdrLen:], big)
		if next[0] != binary.BigEndian.Uint32(buf[16:]) || next[1] != binary.BigEndian.Uint32(buf[20:]) {
			break
		}
		sum = next
		pgno := binary.BigEndian.Uint32(buf)
		if pgno == 0 {
			break
		}
		pending[pgno] = at + frameHdrLen
		if size := binary.BigEndian.Uint32(buf[4:]); size != 0 {
			for p, o := range pending {
				committed[p] = o
			}
			clear(pending)
			dbSize = size
			last = Version{Salt1: salt1, Salt2: salt2, Frame: uint32(i + 1), Checksum1: sum[0], Checksum2: sum[1]}
		}
	}
	if last.Frame == 0 {
		return nil
	}
	db.pageSize = ps
	db.frames = committed
	db.version = last
	db.nPages = dbSize
	return nil
}

// readSHM reads the -shm checkpoint counters, as raw bytes (the file is in
// the writer's byte order): ok false when there is no -shm or it is short.
func (db *DB) readSHM() (ck [8]byte, ok bool) {
	if db.f.SHM == nil {
		return ck, false
	}
	if _, err := db.f.SHM.ReadAt(ck[:4], shmBackfill); err != nil {
		return ck, false
	}
	if _, err := db.f.SHM.ReadAt(ck[4:], shmBackfillAttempted); err != nil {
		return ck, false
	}
	return ck, true
}

// Stable reports whether the snapshot Open took still holds: no
// checkpoint copied into the main file a page of a commit after the
// snapshot's, and the WAL was not restarted since. With a WAL, its
// 32-byte header must be the same (a WAL empty at Open that has a header
// now counts as a change) and, when Files has a -shm and its checkpoint
// counters moved, the -shm's nBackfillAttempted (in the writer's byte
// order, this machine's) must not be past the snapshot's last commit
// frame; without a -shm, a checkpoint that leaves the WAL
// header alone (PASSIVE, FULL) goes unseen. Without a WAL, the main
// file's 100-byte header must be the same: that catches every
// rollback-mode commit (the change counter), but a checkpoint of a WAL
// the caller did not give may leave it alone, so a caller reading a
// database at rest also compares the main file's size and modification
// time, or opens again with the -wal once one appears.
//
// A caller that read a live database checks Stable after reading, and
// reads again from a new Open when it is false: what it read may mix two
// states (ErrChanged is the error to say so).
func (db *DB) Stable() bool {
	if db.f.WAL == nil {
		var h [headerSize]byte
		return readFull(db.f.Main, h[:], 0) == nil && h == db.mainHdr
	}
	hdr := make([]byte, walHdrSize)
	if n, _ := db.f.WAL.ReadAt(hdr, 0); n < walHdrSize {
		hdr = nil
	}
	if !bytes.Equal(hdr, db.walHdr) {
		return false
	}
	if db.f.SHM != nil {
		ck, ok := db.readSHM()
		if ok != db.shmOK {
			return false
		}
		// A checkpoint of the same WAL copies frames up to the
		// nBackfillAttempted it sets before copying. Only frames after
		// the snapshot's last commit bring the main file pages the
		// snapshot does not read from the WAL; the others are pages it
		// takes from the WAL anyway.
		if ok && ck != db.shmCk && binary.NativeEndian.Uint32(ck[4:]) > db.version.Frame {
			return false
		}
	}
	return true
}
