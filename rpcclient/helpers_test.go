package rpcclient_test

import (
	"syscall"
	"testing"

	"github.com/scoutdev/scout/rpcclient"
)

func childPID(t *testing.T, c *rpcclient.Client) int { return c.PID() }

func killPID(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
