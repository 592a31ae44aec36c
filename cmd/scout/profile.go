package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
)

// profileEnv names a directory into which every scout process (the
// command and the backend child it starts, which inherits it) writes a
// CPU profile of its whole run, <first argument>-<pid>.pprof, for `go
// tool pprof`: how the time of `scout filter` over a big tree splits
// between the two processes (docs/performance.md). A debugging aid, read
// by nothing else; a directory that cannot be written is said on stderr
// and the command runs unprofiled.
const profileEnv = "SCOUT_DEBUG_CPUPROFILE"

// startProfile starts the CPU profile profileEnv asks for and returns
// what stops it.
func startProfile(args []string) (stop func()) {
	dir := os.Getenv(profileEnv)
	if dir == "" {
		return func() {}
	}
	name := "scout"
	if len(args) > 0 {
		name = filepath.Base(args[0])
	}
	f, err := os.Create(filepath.Join(dir, name+"-"+strconv.Itoa(os.Getpid())+".pprof"))
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "scout: %s: cannot write a profile there\n", profileEnv)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
