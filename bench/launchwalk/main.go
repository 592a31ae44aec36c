// Command launchwalk plays the picker's launch against a backend, without
// a terminal: it starts `SCOUT backend` in the current directory, sends
// initialize, then project.files, and, when the snapshot is truncated,
// project.index from a fresh walk to its end, each request as soon as the
// answer before it is in (as cmd/scout/launch.go's early calls do). It
// prints the wall time to the last page and the entries walked; run under
// bench/sidebyside for CPU time (the backend child is waited for):
//
//	sidebyside -name launch/gotree -dir "$(go env GOROOT)/src" -runs 20 -- 'launchwalk scout-new' 'launchwalk scout-old'
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// answer is what launchwalk reads of a response; entries are counted by
// their number only.
type answer struct {
	Error  json.RawMessage `json:"error"`
	Result struct {
		Entries   []struct{} `json:"entries"`
		Truncated bool       `json:"truncated"`
		Cursor    *string    `json:"cursor"`
		Complete  bool       `json:"complete"`
	} `json:"result"`
	ID *string `json:"id"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: launchwalk SCOUT")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "launchwalk:", err)
		os.Exit(1)
	}
}

func run(scout string) error {
	start := time.Now()
	cmd := exec.Command(scout, "backend")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReaderSize(out, 1<<20)
	seq := 0
	call := func(method string, params any) (answer, error) {
		seq++
		id := fmt.Sprint("l", seq)
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := fmt.Fprintf(in, "%s\n", line); err != nil {
			return answer{}, err
		}
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return answer{}, fmt.Errorf("%s: %w", method, err)
			}
			var a answer
			if err := json.Unmarshal(line, &a); err != nil {
				return answer{}, err
			}
			if a.ID == nil || *a.ID != id {
				continue // a notification
			}
			if a.Error != nil {
				return a, fmt.Errorf("%s: %s", method, a.Error)
			}
			return a, nil
		}
	}
	if _, err := call("initialize", map[string]any{"protocol_version": 1, "required_capabilities": []string{"project.files", "project.index"}}); err != nil {
		return err
	}
	snap, err := call("project.files", map[string]any{})
	if err != nil {
		return err
	}
	walked := 0
	var cursor *string
	for snap.Result.Truncated {
		page, err := call("project.index", map[string]any{"cursor": cursor})
		if err != nil {
			return err
		}
		walked += len(page.Result.Entries)
		if page.Result.Complete {
			break
		}
		cursor = page.Result.Cursor
	}
	took := time.Since(start)
	in.Close()
	io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil {
		return err
	}
	fmt.Printf("snapshot %d entries, walk %d entries, %.1f ms\n", len(snap.Result.Entries), walked, float64(took.Microseconds())/1000)
	return nil
}
