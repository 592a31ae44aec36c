package scouttest

import (
	"bufio"
	"errors"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// control is a control-mode client (tmux -C) of a test's server: the
// test's captures are commands on its stdin, answered between %begin and
// %end lines on its stdout, so no tmux process is started per capture;
// and the %output notifications it receives say when the pane has
// written something, which is what a wait for the screen waits for.
// A control client takes no part in the window's size (tmux 3.2 and
// later), so the window keeps the size the test gave it.
type control struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	mu      sync.Mutex // one command in flight
	replies chan controlReply
	output  chan struct{} // holds a token once the pane has written since it was last taken
	done    chan struct{} // closed when stdout ends
}

// controlReply is the text between a command's %begin and its %end (or
// %error, then failed is set).
type controlReply struct {
	text   string
	failed bool
}

// attachControl attaches a control client to the server at socket.
func attachControl(socket string) (*control, error) {
	cmd := exec.Command("tmux", "-S", socket, "-C", "attach-session", "-t", "0")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &control{cmd: cmd, stdin: stdin, replies: make(chan controlReply, 1), output: make(chan struct{}, 1), done: make(chan struct{})}
	go c.read(stdout)
	return c, nil
}

// read parses the client's stdout: replies to its own commands (flags 1
// on %begin) go to replies; a notification of the pane's output leaves a
// token in output; everything else is dropped.
func (c *control) read(stdout io.Reader) {
	defer close(c.done)
	r := bufio.NewReaderSize(stdout, 1<<16)
	var block strings.Builder
	inBlock, mine, end := false, false, ""
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case inBlock && (line == "%end"+end || line == "%error"+end):
			inBlock = false
			if mine {
				c.replies <- controlReply{text: block.String(), failed: strings.HasPrefix(line, "%error")}
			}
		case inBlock:
			block.WriteString(line)
			block.WriteByte('\n')
		case strings.HasPrefix(line, "%begin "):
			end = strings.TrimPrefix(line, "%begin") // " time number flags"
			mine = strings.HasSuffix(end, " 1")
			inBlock = true
			block.Reset()
		case strings.HasPrefix(line, "%output "), strings.HasPrefix(line, "%extended-output "):
			select {
			case c.output <- struct{}{}:
			default:
			}
		}
	}
}

// run sends one command and returns its output.
func (c *control) run(command string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.stdin, command+"\n"); err != nil {
		return "", err
	}
	select {
	case r := <-c.replies:
		if r.failed {
			return "", errors.New(strings.TrimSpace(r.text))
		}
		return r.text, nil
	case <-c.done:
		return "", errors.New("the control client has exited (the server is gone)")
	case <-time.After(DefaultTimeout):
		return "", errors.New("no answer from the server")
	}
}

// drainOutput forgets the output seen so far.
func (c *control) drainOutput() {
	select {
	case <-c.output:
	default:
	}
}

// awaitOutput waits up to d for output from the pane (or for the client's
// end) and reports whether there was any.
func (c *control) awaitOutput(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-c.output:
		return true
	case <-c.done:
		time.Sleep(d) // nothing more will come: wait as asked, do not spin
		return false
	case <-timer.C:
		return false
	}
}

// close ends the client (the server is killed first) and waits for it.
func (c *control) close() {
	_ = c.stdin.Close()
	select {
	case <-c.done:
	case <-time.After(DefaultTimeout):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
	_ = c.cmd.Wait()
}
