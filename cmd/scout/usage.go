package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// usageError is a command line scout does not accept. It says what is
// wrong in plain words and how the command is used, on one line.
type usageError struct {
	cmd *cobra.Command
	msg string
}

func (e usageError) Error() string {
	if !e.cmd.HasParent() && e.cmd.HasAvailableSubCommands() && strings.HasPrefix(e.msg, "unknown command") {
		return e.msg + "; scout --help lists the commands"
	}
	return fmt.Sprintf("%s (usage: %s)", e.msg, e.cmd.UseLine())
}

// checkUsage makes every command's argument and flag errors usage errors
// in plain words: cobra's own say "unknown command" for an argument of a
// command that takes none, and strconv's for a flag's bad number.
func checkUsage(root *cobra.Command) {
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError{cmd, flagMessage(err)}
	})
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if args := c.Args; args != nil {
			c.Args = func(cmd *cobra.Command, a []string) error {
				if err := args(cmd, a); err != nil {
					return usageError{cmd, argsMessage(cmd, a)}
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	strictHelp(root)
}

// strictHelp makes `scout help TOPIC` a usage error when TOPIC is not a
// command (cobra would print the root's help and exit 0).
func strictHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		if c.Name() != "help" || c.Run == nil {
			continue
		}
		run := c.Run
		c.Run = nil
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if target, _, err := root.Find(args); err != nil || target == root && len(args) > 0 {
				return usageError{cmd, fmt.Sprintf("unknown help topic %q", strings.Join(args, " "))}
			}
			run(cmd, args)
			return nil
		}
	}
}

// argsMessage says what is wrong with the arguments a of cmd.
func argsMessage(cmd *cobra.Command, a []string) string {
	switch {
	case !strings.Contains(cmd.Use, " ") && !cmd.HasParent():
		return fmt.Sprintf("unknown command %q", a[0])
	case !strings.Contains(cmd.Use, " "):
		return fmt.Sprintf("unexpected argument %q", a[0])
	case len(a) == 0:
		return "missing " + strings.SplitN(cmd.Use, " ", 2)[1]
	default:
		return fmt.Sprintf("one argument expected, got %d", len(a))
	}
}

// flagMessage is err, a flag parsing error, with a number parsing cause
// said in words instead of strconv's.
func flagMessage(err error) string {
	msg := err.Error()
	var num *strconv.NumError
	if errors.As(err, &num) {
		why := "not a whole number"
		switch {
		case num.Func == "ParseBool":
			why = "want true or false"
		case errors.Is(num.Err, strconv.ErrRange):
			why = "out of range"
		}
		if i := strings.LastIndex(msg, ": "+num.Error()); i >= 0 {
			msg = msg[:i]
		}
		msg += ": " + why
	}
	return msg
}
