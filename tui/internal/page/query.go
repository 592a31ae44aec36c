package page

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/tui/internal/display"
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

// QueryWidth is the width of a query field of prompt on a line of width
// cells that keeps room cells for the counts right of it. Below 40
// columns (narrower than scout is made for) the room shrinks to a third
// of the line, so the query stays readable: counts longer than the room
// take the field's padding (QueryLine), or give way.
func QueryWidth(width int, prompt string, room int) int {
	if width < 40 {
		room = min(room, width/3)
	}
	return max(width-display.Width(prompt)-room, 1)
}

// QueryLine lays out a page's first line in width cells: the query field
// on the left, right (the counts) flush right. The field's padding (the
// blank cells textinput draws after the value) gives way to counts longer
// than the room kept for them; when the text itself leaves no room, the
// field alone, cut to the width.
func QueryLine(width int, field, right string) string {
	gap := width - display.Width(field) - display.Width(right)
	if gap >= 1 {
		return field + strings.Repeat(" ", gap) + right
	}
	plain := ansi.Strip(field)
	if pad := len(plain) - len(strings.TrimRight(plain, " ")); pad >= 1-gap {
		return display.Truncate(field, width-display.Width(right)-1, "") + " " + right
	}
	return display.Truncate(field, width, "")
}

// QueryCursor is where the terminal's cursor goes in a query field made by
// QueryInput: after the prompt and the value's text before the cursor,
// measured in cells as the page draws them. textinput counts one cell a
// rune, which leaves the cursor inside text of wide characters ("日本" is
// four cells). A value wider than the field scrolls inside it, and then
// textinput's own place is kept.
func QueryCursor(in textinput.Model) (x, y int, ok bool) {
	c := in.Cursor()
	if c == nil {
		return 0, 0, false
	}
	v := []rune(in.Value())
	if in.Width() > 0 && display.Width(string(v)) > in.Width() {
		return c.X, c.Y, true
	}
	pos := min(max(in.Position(), 0), len(v))
	return display.Width(in.Prompt) + display.Width(string(v[:pos])), c.Y, true
}
