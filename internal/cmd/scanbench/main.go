// Command scanbench runs one project.files scan of a directory, with the
// full default policy (ignore rules, built-in protections, name safety),
// and writes the report as JSON to stdout, as a process that can be timed
// side by side with fd (see docs/performance.md).
//
//	go build -o /tmp/scanbench ./internal/cmd/scanbench
//	hyperfine -N '/tmp/scanbench DIR' 'fdfind -H -I . DIR'
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"

	"github.com/scoutdev/scout/backend/files"
	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: scanbench DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "scanbench:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	pol, err := policy.New(1, dir, policy.Rules{RespectIgnore: true})
	if err != nil {
		return err
	}
	res, err := files.Scan(context.Background(), root, pol, files.DefaultLimits)
	if err != nil {
		return err
	}
	rep, err := files.Report("bench", 1, res, wire.DefaultFilesExtension.ReportBytes)
	if err != nil {
		return err
	}
	b, err := wire.Marshal(rep)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(os.Stdout)
	w.Write(b)
	w.WriteByte('\n')
	return w.Flush()
}
