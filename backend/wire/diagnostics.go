package wire

// DiagnosticPrefix starts every line the backend writes on stderr for a
// person to read (docs/protocol.md §5, "Workspace that cannot be used").
const DiagnosticPrefix = "scout backend: "

// UnservedNote ends the diagnostic the backend writes when it can serve
// nothing of the workspace (a broken config.toml, a workspace or backend
// home it cannot open): project.files then answers no entries, and a
// client tells that apart from an empty project by this note, which
// follows the reason: "scout backend: REASON; serving an empty workspace
// until it is fixed".
const UnservedNote = "; serving an empty workspace until it is fixed"
