package wire

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Method names of docs/protocol.md.
const (
	MethodInitialize         = "initialize"
	MethodStatus             = "status"
	MethodShutdown           = "shutdown"
	MethodCancel             = "operation.cancel"
	MethodProjectFiles       = "project.files"
	MethodProjectList        = "project.list"
	MethodProjectRead        = "project.read"
	MethodWorkspaceTrust     = "workspace.trust"
	MethodSessionList        = "session.list"
	MethodSessionDiscover    = "session.discover"
	MethodSessionOpen        = "session.open"
	MethodSessionNew         = "session.new"
	MethodModelCatalog       = "model.catalog"
	MethodModelCatalogStatus = "model.catalog.status"
	MethodModelRefresh       = "model.refresh"
	MethodModelSelect        = "model.select"
	MethodModelEnable        = "model.enable"
	// MethodModelCatalogModels is scout's own catalog read (docs/protocol.md
	// §10.8.6): every model of the valid caches with its enabled state.
	MethodModelCatalogModels = "model.catalog.models"
)

// Notification methods written by the backend.
const (
	NotifyCommandStarted     = "rpc.command.started"
	NotifyProjectInvalidated = "project_files.invalidated"
)

// AllCapabilities is every capability of docs/protocol.md in its canonical order,
// with scout's own model.catalog.models after model.enable; the backend
// offers the subset it implements, in this order.
var AllCapabilities = []string{
	MethodProjectFiles, MethodProjectIndex, MethodProjectList, MethodProjectRead, MethodWorkspaceTrust,
	MethodSessionList, MethodSessionDiscover, MethodSessionOpen, MethodSessionNew,
	MethodModelCatalog, MethodModelCatalogStatus, MethodModelRefresh, MethodModelSelect,
	MethodModelEnable, MethodModelCatalogModels, MethodCancel,
}

// MaxRequiredCapabilities bounds initialize.required_capabilities.
const MaxRequiredCapabilities = 16

// ClientInfo names the client in initialize.
type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// UnmarshalJSONFrom decodes client with its closed schema: both name and
// version are required strings, and nothing else is allowed.
func (c *ClientInfo) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	var aux struct {
		Name    *string `json:"name"`
		Version *string `json:"version"`
	}
	// The inner error is not returned: its member pointer is relative to
	// client, and the caller names client itself.
	err = json.Unmarshal(raw, &aux, json.RejectUnknownMembers(true))
	if err != nil || aux.Name == nil || aux.Version == nil {
		return errors.New("client must be exactly {name, version} of strings")
	}
	c.Name, c.Version = *aux.Name, *aux.Version
	return nil
}

// VersionNumber is initialize's protocol_version: any JSON integer (a number
// without fraction or exponent). An integer too large for an int decodes as
// -1: it is not a version this backend speaks, like any other integer but 1,
// and is answered unsupported_protocol_version rather than invalid_params.
type VersionNumber int

// UnmarshalJSONFrom accepts an integer literal only.
func (v *VersionNumber) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	lit := strings.TrimPrefix(tok.String(), "-")
	if tok.Kind() != '0' || strings.ContainsAny(lit, ".eE") {
		return errors.New("protocol_version must be an integer")
	}
	n, err := strconv.Atoi(tok.String())
	if err != nil {
		n = -1
	}
	*v = VersionNumber(n)
	return nil
}

// InitializeParams is the params of initialize.
type InitializeParams struct {
	ProtocolVersion      *VersionNumber `json:"protocol_version"`
	Client               *ClientInfo    `json:"client,omitzero"`
	RequiredCapabilities []string       `json:"required_capabilities,omitzero"`
}

// Validate requires protocol_version and 0..16 unique capability names.
func (p *InitializeParams) Validate() error {
	if p.ProtocolVersion == nil {
		return errors.New("params.protocol_version is required.")
	}
	if len(p.RequiredCapabilities) > MaxRequiredCapabilities {
		return fmt.Errorf("params.required_capabilities has more than %d names.", MaxRequiredCapabilities)
	}
	seen := map[string]bool{}
	for _, c := range p.RequiredCapabilities {
		if seen[c] {
			return errors.New("params.required_capabilities names a capability twice.")
		}
		seen[c] = true
	}
	return nil
}

// ServerInfo names the backend.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Limits are the backend's fixed bounds; members never change meaning.
type Limits struct {
	FrameBytes         int `json:"frame_bytes"`
	RequestsPerChild   int `json:"requests_per_child"`
	Outstanding        int `json:"outstanding"`
	DiscoverySessions  int `json:"discovery_sessions"`
	CatalogPageEntries int `json:"catalog_page_entries"`
	CatalogPageBytes   int `json:"catalog_page_bytes"`
}

// DefaultLimits are the limits of docs/protocol.md.
var DefaultLimits = Limits{
	FrameBytes:         MaxFrameBytes,
	RequestsPerChild:   4096,
	Outstanding:        8,
	DiscoverySessions:  256,
	CatalogPageEntries: 100,
	CatalogPageBytes:   32768,
}

// Extensions holds an entry only for negotiated capabilities that have one.
type Extensions struct {
	SessionDiscover *DiscoverExtension `json:"session.discover,omitzero"`
	ModelRefresh    *RefreshExtension  `json:"model.refresh,omitzero"`
	ProjectFiles    *FilesExtension    `json:"project.files,omitzero"`
	ProjectIndex    *IndexExtension    `json:"project.index,omitzero"`
	ProjectList     *ListExtension     `json:"project.list,omitzero"`
}

// DiscoverExtension describes session.discover's bounds.
type DiscoverExtension struct {
	Consistency          string `json:"consistency"`
	Ordering             string `json:"ordering"`
	StepDirectoryEntries int    `json:"step_directory_entries"`
	StepLines            int    `json:"step_lines"`
	StepBytes            int    `json:"step_bytes"`
	RecordBytes          int    `json:"record_bytes"`
	StepMS               int    `json:"step_ms"`
	PageEntries          int    `json:"page_entries"`
	PageBytes            int    `json:"page_bytes"`
}

// DefaultDiscoverExtension is session.discover's extension of docs/protocol.md §3.
var DefaultDiscoverExtension = DiscoverExtension{
	Consistency: "provisional_until_complete", Ordering: "directory",
	StepDirectoryEntries: 256, StepLines: 10000, StepBytes: 8 << 20, RecordBytes: 8 << 20,
	StepMS: 2000, PageEntries: 100, PageBytes: 32768,
}

// RefreshExtension describes model.refresh's bounds.
type RefreshExtension struct {
	ProvidersPerRequest int    `json:"providers_per_request"`
	CacheBytes          int    `json:"cache_bytes"`
	Models              int    `json:"models"`
	Preferences         string `json:"preferences"`
}

// DefaultRefreshExtension is model.refresh's extension of docs/protocol.md §3.
var DefaultRefreshExtension = RefreshExtension{ProvidersPerRequest: 1, CacheBytes: 1 << 20, Models: 2048, Preferences: "unchanged"}

// FilesExtension describes project.files's bounds.
type FilesExtension struct {
	MaxEntries  int `json:"max_entries"`
	MaxDepth    int `json:"max_depth"`
	MaxExamined int `json:"max_examined"`
	DeadlineMS  int `json:"deadline_ms"`
	ReportBytes int `json:"report_bytes"`
}

// DefaultFilesExtension is project.files's extension of docs/protocol.md §3.
var DefaultFilesExtension = FilesExtension{MaxEntries: 10000, MaxDepth: 12, MaxExamined: 50000, DeadlineMS: 2500, ReportBytes: 1 << 20}

// ListExtension describes project.list's bounds.
type ListExtension struct {
	PageEntriesMax     int `json:"page_entries_max"`
	PageEntriesDefault int `json:"page_entries_default"`
	PageBytes          int `json:"page_bytes"`
	RefTTLMS           int `json:"ref_ttl_ms"`
	RefsMax            int `json:"refs_max"`
}

// DefaultListExtension is project.list's extension of docs/protocol.md §3.
var DefaultListExtension = ListExtension{PageEntriesMax: 1000, PageEntriesDefault: 200, PageBytes: 1 << 20, RefTTLMS: 900000, RefsMax: 20000}

// Trust states of the workspace's project configuration.
const (
	TrustNoLocalConfig = "no_local_config"
	TrustUntrusted     = "untrusted"
	TrustTrusted       = "trusted"
)

// Workspace is the policy generation and the trust state.
type Workspace struct {
	Generation int64  `json:"generation"`
	Trust      string `json:"trust"`
}

// InitializeResult is the result of initialize.
type InitializeResult struct {
	ProtocolVersion int        `json:"protocol_version"`
	Server          ServerInfo `json:"server"`
	Capabilities    []string   `json:"capabilities"`
	Negotiated      []string   `json:"negotiated"`
	Limits          Limits     `json:"limits"`
	Extensions      Extensions `json:"extensions"`
	Workspace       Workspace  `json:"workspace"`
	Stamp
}

// Backend states in status.
const (
	StateReady    = "ready"
	StateStopping = "stopping"
	StateStopped  = "stopped"
)

// ActiveRequest is one admitted request that has not been answered yet.
type ActiveRequest struct {
	RequestID string `json:"request_id"`
	Method    string `json:"method"`
}

// Attachment is the session the backend is attached to, and the agent
// whose session it is (scout for an unsaved handle).
type Attachment struct {
	SessionID string `json:"session_id"`
	Agent     string `json:"agent"`
	Saved     bool   `json:"saved"`
}

// StatusResult is the result of status.
type StatusResult struct {
	State            string          `json:"state"`
	Generation       int64           `json:"generation"`
	Active           []ActiveRequest `json:"active"`
	RequestsAdmitted int             `json:"requests_admitted"`
	Attachment       *Attachment     `json:"attachment"`
	Stamp
}

// ShutdownResult is the result of shutdown.
type ShutdownResult struct {
	State string `json:"state"`
	Stamp
}

// CancelParams is the params of operation.cancel.
type CancelParams struct {
	RequestID *string `json:"request_id"`
}

// Validate requires request_id in the id grammar.
func (p *CancelParams) Validate() error {
	if p.RequestID == nil || !ValidID(*p.RequestID) {
		return errors.New("params.request_id must be a request id (1 to 64 characters from A-Z a-z 0-9 . _ : -).")
	}
	return nil
}

// CancelResult acknowledges operation.cancel; it is not completion.
type CancelResult struct {
	State     string `json:"state"`
	RequestID string `json:"request_id"`
	Stamp
}

// CommandStartedParams is the params of rpc.command.started.
type CommandStartedParams struct {
	CommandID string `json:"command_id"`
	Method    string `json:"method"`
	Stamp
}
