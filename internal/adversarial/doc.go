// Package adversarial is scout's hostile end-to-end suite: it drives the
// real `scout backend` (and the rpcclient) through faults from every side
// — a filesystem mutating under a running scan, a history store and
// catalog caches changing while they are read, provider servers that drip,
// flood, cut, redirect or bloat their answers, clients that write one byte
// at a time, flood, or vanish mid-request, and a child killed with SIGKILL
// in the middle of each kind of request — and checks that every answer
// still obeys docs/protocol.md, that nothing hangs, that nothing in the backend
// home is left half-written, and, through internal/leakscan, that no line
// the backend wrote carries a path, a protected name, file content, a key,
// a URL or raw OS error text.
//
// Everything listens on and connects to 127.0.0.1 only. The package holds
// tests only; docs/hostile.md lists each fault and what the backend
// answered.
package adversarial
