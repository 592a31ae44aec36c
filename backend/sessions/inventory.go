package sessions

import (
	"crypto/sha256"
	"encoding/binary"
	"io/fs"

	"github.com/scoutdev/scout/backend/fsguard"
)

// signature is an order-independent digest of a store's inventory: the sum
// (mod 2^64, two lanes) of a SHA-256 of each relevant entry, plus the
// count, plus the bytes of the histories of other agents' stores.
//
//   - scout's histories (any type) contribute name, identity, type and
//     permissions, length, modification and change time; its lock files
//     their name only, so renewing a lock is not a change but one
//     appearing or disappearing is.
//   - another agent's histories contribute path, identity, type and
//     permissions, and their length to the bytes lane: live agents append
//     to them, and a history that only grew is no change, while one that
//     appeared, disappeared or was replaced is (the bytes lane catches a
//     store that shrank: the second pass must see at least the bytes the
//     first one read).
//   - histories of other directories that are only counted (other
//     projects' directories) contribute their path and whether they are
//     regular files; unsafe entries of the layout their path and type.
//
// Names that are never sessions are left out (an agent appending to a
// subagent history does not invalidate discovery; a name created or
// removed still changes its directory's change time).
type signature struct {
	count uint64
	a, b  uint64
	bytes uint64
}

// same reports whether second, the validation pass's signature, shows the
// inventory first was computed over (histories may have grown).
func (first signature) same(second signature) bool {
	return first.count == second.count && first.a == second.a && first.b == second.b && second.bytes >= first.bytes
}

func (s *signature) addHistory(name string, info fsguard.Info) {
	var buf [8 * 6]byte
	binary.LittleEndian.PutUint64(buf[0:], info.Dev)
	binary.LittleEndian.PutUint64(buf[8:], info.Ino)
	binary.LittleEndian.PutUint64(buf[16:], uint64(info.Mode.Perm())|uint64(info.Mode.Type()))
	binary.LittleEndian.PutUint64(buf[24:], uint64(info.Size))
	binary.LittleEndian.PutUint64(buf[32:], uint64(info.ModTime.UnixNano()))
	binary.LittleEndian.PutUint64(buf[40:], uint64(info.ChangeTime.UnixNano()))
	s.add('h', name, buf[:])
}

func (s *signature) addLock(name string) { s.add('l', name, nil) }

// addGrowing adds a history of another agent's store: its identity, and
// size (what was read, or what is there now) to the bytes lane.
func (s *signature) addGrowing(path string, info fsguard.Info, size int64) {
	var buf [8 * 3]byte
	binary.LittleEndian.PutUint64(buf[0:], info.Dev)
	binary.LittleEndian.PutUint64(buf[8:], info.Ino)
	binary.LittleEndian.PutUint64(buf[16:], uint64(info.Mode.Perm())|uint64(info.Mode.Type()))
	s.add('g', path, buf[:])
	s.bytes += uint64(max(size, 0))
}

// addCounted adds a history of another directory that is counted by name.
func (s *signature) addCounted(path string, typ fs.FileMode) {
	s.add('c', path, typeBytes(typ))
}

// addUnsafe adds an entry of the layout's shape that is unsafe.
func (s *signature) addUnsafe(path string, typ fs.FileMode) {
	s.add('u', path, typeBytes(typ))
}

func typeBytes(typ fs.FileMode) []byte {
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(typ.Type()))
	return buf[:]
}

func (s *signature) add(kind byte, name string, fields []byte) {
	h := sha256.New()
	h.Write([]byte{kind})
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(fields)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	s.count++
	s.a += binary.LittleEndian.Uint64(sum[0:])
	s.b += binary.LittleEndian.Uint64(sum[8:])
}
