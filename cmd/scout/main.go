// Command scout is a keyboard-first terminal picker for the project's files,
// the coding agent's sessions for this directory, and the model providers.
// Each subcommand wires packages together and does nothing else.
package main

import (
	"fmt"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the command line and returns the exit code.
func run(args []string) int {
	defer startProfile(args)()
	root := newRootCmd()
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		var ec exitCode
		if asExitCode(err, &ec) {
			return int(ec)
		}
		fmt.Fprintf(os.Stderr, "scout: %v\n", err)
		return 2
	}
	return 0
}
