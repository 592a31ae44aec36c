package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/assets"
)

func newShellCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "shell bash|zsh|fish",
		Short: "Print key bindings for a shell: Ctrl-T inserts picked files, Alt-C changes folder, Alt-S inserts a session's resume command",
		Long: "Print key bindings to load in your shell's startup file:\n\n" +
			"  bash  (~/.bashrc)                    eval \"$(scout shell bash)\"\n" +
			"  zsh   (~/.zshrc)                     eval \"$(scout shell zsh)\"\n" +
			"  fish  (~/.config/fish/config.fish)   scout shell fish | source\n\n" +
			"Ctrl-T opens the file picker (Tab marks several) and inserts the chosen paths\n" +
			"at the cursor, each quoted for the shell. Alt-C opens the folder picker and\n" +
			"changes into the chosen folder. Both open under the prompt (--height 40%;\n" +
			"SCOUT_CTRL_T_OPTS and SCOUT_ALT_C_OPTS replace that, empty for the full screen).\n" +
			"Alt-S opens a picker of this directory's sessions (every agent's) and inserts\n" +
			"the command that resumes the chosen one (claude --resume ID, codex resume ID,\n" +
			"...; scout's own: the id). The bindings run this scout by its absolute\n" +
			"path (the scout on PATH when this one is a temporary `go run` build).",
		Args:      cobra.ExactArgs(1),
		ValidArgs: assets.Shells,
		RunE: func(cmd *cobra.Command, args []string) error {
			script, err := shellScript(args[0], scoutCommand())
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(script)
			return err
		},
	}
}

// binPlaceholder is where the scripts of assets/shell take the scout to run.
const binPlaceholder = "@SCOUT_BIN@"

// shellScript is the key bindings script for shell, running bin.
func shellScript(shell, bin string) ([]byte, error) {
	if !slices.Contains(assets.Shells, shell) {
		return nil, fmt.Errorf("unknown shell %q: want one of %s", shell, strings.Join(assets.Shells, ", "))
	}
	script, err := assets.Shell(shell)
	if err != nil {
		return nil, err
	}
	quote := posixQuote
	if shell == "fish" {
		quote = fishQuote
	}
	return bytes.ReplaceAll(script, []byte(binPlaceholder), []byte(quote(bin))), nil
}

// scoutCommand is the scout the key bindings run: this executable, or
// "scout" (found on PATH) when this one is a temporary `go run` build that
// is deleted as soon as it exits.
func scoutCommand() string {
	exe, err := os.Executable()
	if err != nil || isGoRunBuild(exe) {
		return "scout"
	}
	return exe
}

// isGoRunBuild reports whether exe is a build of `go run`: in a go
// command's temporary build directory ($TMPDIR/go-buildNNN/.../exe/), or,
// since Go 1.24, in its build cache ($GOCACHE/xx/<xx...: 64 hex>-d/exe),
// which `go clean -cache` or the cache's own trimming deletes.
func isGoRunBuild(exe string) bool {
	parts := strings.Split(filepath.ToSlash(exe), "/")
	for _, part := range parts {
		digits, ok := strings.CutPrefix(part, "go-build")
		if ok && digits != "" && strings.Trim(digits, "0123456789") == "" {
			return true
		}
	}
	if n := len(parts); n >= 3 {
		shard, entry := parts[n-3], parts[n-2]
		hash, ok := strings.CutSuffix(entry, "-d")
		return ok && len(shard) == 2 && len(hash) == 64 && isLowerHex(hash) && hash[:2] == shard
	}
	return false
}

// isLowerHex reports whether s is lower-case hexadecimal digits only.
func isLowerHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

// posixQuote quotes s for sh, bash and zsh: in single quotes, where a
// quote of s closes them, adds an escaped quote and opens them again.
func posixQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fishQuote quotes s for fish: single quotes, in which only \\ and \' are
// escapes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
