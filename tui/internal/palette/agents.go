package palette

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/scoutdev/scout/backend/wire"
)

// agentColors are the colours of the agents' tags on the Sessions page,
// [dark, light], each near its agent's own colour (scout's is the accent).
var agentColors = map[string][2]string{
	wire.AgentClaudeCode: {"#E8916F", "#B04A26"},
	wire.AgentCodex:      {"#5FD7D7", "#00727A"},
	wire.AgentGemini:     {"#7FA8FF", "#1A56C8"},
	wire.AgentOpenCode:   {"#C8C8C8", "#555555"},
	wire.AgentCrush:      {"#E3A8FF", "#8A2BE2"},
}

// Agent returns the colour of agent's tag on a dark (isDark) or light
// background; scout's own sessions take the accent.
func Agent(isDark bool, agent string) color.Color {
	c, ok := agentColors[agent]
	if !ok {
		return For(isDark).Accent
	}
	return lipgloss.LightDark(isDark)(lipgloss.Color(c[1]), lipgloss.Color(c[0]))
}
