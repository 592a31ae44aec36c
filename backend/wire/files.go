package wire

import (
	"errors"
)

// Entry kinds in a project.files report.
const (
	KindFile      = "file"
	KindDirectory = "directory"
)

// FileEntry is one entry of a project.files report.
type FileEntry struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// ProjectFilesResult is the project.files report.
type ProjectFilesResult struct {
	CommandID  string      `json:"command_id"`
	Generation int64       `json:"generation"`
	Entries    []FileEntry `json:"entries"`
	Truncated  bool        `json:"truncated"`
	Stamp
}

// InvalidatedParams is the params of project_files.invalidated.
type InvalidatedParams struct {
	Generation int64 `json:"generation"`
	Stamp
}

// RootRef names the workspace root in project.list.
const RootRef = "root"

// RefLength is the length of every minted id.
const RefLength = 43

// ValidRef reports whether ref is 43 characters of [A-Za-z0-9_-].
func ValidRef(ref string) bool { return alnumRun(ref, RefLength, RefLength, "_-") }

// Listing types in project.list.
const (
	TypeDir  = "dir"
	TypeFile = "file"
)

// ListParams is the params of project.list.
type ListParams struct {
	Ref   *string `json:"ref"`
	Limit *int    `json:"limit,omitzero"`
}

// Validate requires ref ("root" or an id) and a limit of 1..1000.
func (p *ListParams) Validate() error {
	if p.Ref == nil || (*p.Ref != RootRef && !ValidRef(*p.Ref)) {
		return errors.New(`params.ref must be "root" or a 43-character id.`)
	}
	if p.Limit != nil && (*p.Limit < 1 || *p.Limit > DefaultListExtension.PageEntriesMax) {
		return errors.New("params.limit must be between 1 and 1000.")
	}
	return nil
}

// ListEntry is one entry of a project.list page.
type ListEntry struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Type  string `json:"type"`
	Size  int64  `json:"size"`
	Mtime string `json:"mtime"`
}

// ListResult is one page of project.list. NextRef is present only when more
// entries remain.
type ListResult struct {
	Generation int64       `json:"generation"`
	Entries    []ListEntry `json:"entries"`
	NextRef    string      `json:"next_ref,omitzero"`
	Stamp
}

// MaxReadBytes bounds project.read's max_bytes; DefaultReadBytes is its default.
const (
	MaxReadBytes     = 131072
	DefaultReadBytes = 65536
)

// ReadParams is the params of project.read.
type ReadParams struct {
	Ref      *string `json:"ref"`
	MaxBytes *int    `json:"max_bytes,omitzero"`
}

// Validate requires a 43-character ref and max_bytes of 1..131072.
func (p *ReadParams) Validate() error {
	if p.Ref == nil || !ValidRef(*p.Ref) {
		return errors.New("params.ref must be a 43-character file id.")
	}
	if p.MaxBytes != nil && (*p.MaxBytes < 1 || *p.MaxBytes > MaxReadBytes) {
		return errors.New("params.max_bytes must be between 1 and 131072.")
	}
	return nil
}

// ReadResult is the result of project.read.
type ReadResult struct {
	Generation int64  `json:"generation"`
	Size       int64  `json:"size"`
	Binary     bool   `json:"binary"`
	Truncated  bool   `json:"truncated"`
	Content    string `json:"content"`
	Stamp
}

// ConfigurationReloadRestart tells the client to restart the child to pick up
// configuration.
const ConfigurationReloadRestart = "restart_child"

// TrustResult is the result of workspace.trust.
type TrustResult struct {
	Generation          int64  `json:"generation"`
	Trust               string `json:"trust"`
	ConfigurationReload string `json:"configuration_reload,omitzero"`
	Stamp
}
