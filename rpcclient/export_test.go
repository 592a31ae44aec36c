package rpcclient

// PID is the current child's process id (tests only).
func (c *Client) PID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cn.cmd.Process.Pid
}

// MaxResultLine is the longest result line (tests only).
var MaxResultLine = maxResultLine
