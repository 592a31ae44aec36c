package wire

// MethodProjectIndex is project.index (docs/protocol.md §5): the whole tree, page
// by page.
const MethodProjectIndex = "project.index"

// ProgressExamineWork is project.index's progress word for a step that
// read its 50,000 names.
const ProgressExamineWork = "examine_work"

// IndexExtension describes project.index's bounds.
type IndexExtension struct {
	PageEntries  int `json:"page_entries"`
	PageBytes    int `json:"page_bytes"`
	StepExamined int `json:"step_examined"`
	StepMS       int `json:"step_ms"`
	MaxDepth     int `json:"max_depth"`
	PathBytes    int `json:"path_bytes"`
}

// DefaultIndexExtension is project.index's extension of docs/protocol.md §5.
var DefaultIndexExtension = IndexExtension{PageEntries: 10000, PageBytes: 1 << 20, StepExamined: 50000, StepMS: 250, MaxDepth: 64, PathBytes: 4096}

// ProjectIndexResult is one page of project.index. Cursor is null exactly
// when Complete is true.
type ProjectIndexResult struct {
	Generation int64       `json:"generation"`
	Entries    []FileEntry `json:"entries"`
	Cursor     *string     `json:"cursor"`
	Complete   bool        `json:"complete"`
	Progress   string      `json:"progress"`
	Stamp
}
