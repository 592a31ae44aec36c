package tui_test

import (
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui/bridge"
)

func eventOfOldChild() bridge.EventMsg {
	return bridge.EventMsg{Child: 1, Exit: &rpcclient.ExitError{State: "exit status 1"}}
}
