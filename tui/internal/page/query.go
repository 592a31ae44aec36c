package page

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"
)

// QueryInput is a page's focused query field: the "> " prompt, the
// placeholder shown while it is empty, the real terminal cursor (the root
// places it), and value typed in already with the cursor at its end.
func QueryInput(placeholder, value string) textinput.Model {
	in := textinput.New()
	in.Prompt = "> "
	in.Placeholder = placeholder
	in.SetVirtualCursor(false)
	in.SetValue(value)
	in.CursorEnd()
	_ = in.Focus()
	return in
}

// QueryLine lays out a page's first line in width cells: the query field
// on the left, right (the counts) flush right; when both do not fit, the
// field alone, cut to the width.
func QueryLine(width int, field, right string) string {
	gap := width - ansi.StringWidth(field) - ansi.StringWidth(right)
	if gap < 1 {
		return ansi.Truncate(field, width, "")
	}
	return field + strings.Repeat(" ", gap) + right
}
