package catalog

import (
	"errors"
	"slices"

	"github.com/go-json-experiment/json"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// enabled.json (docs/protocol.md §10.8.6): the models enabled or disabled
// with model.enable, merged over the configuration's enabled_models when a
// child starts. config.toml is never rewritten.
const (
	enabledFile   = "enabled.json"
	enabledFormat = "scout.enabled.v1"
	// maxEnabledBytes bounds enabled.json.
	maxEnabledBytes = 1 << 20
	// MaxEnabledChanges bounds its entries: enough for every model of
	// dozens of full catalogs.
	MaxEnabledChanges = 8192
)

// EnabledChange is one model.enable decision: provider's model enabled or
// disabled.
type EnabledChange struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Enabled  bool   `json:"enabled"`
}

// enabledDoc is enabled.json: the decisions in the order they were last
// made, each (provider, model) at most once.
type enabledDoc struct {
	Format string          `json:"format"`
	Models []EnabledChange `json:"models"`
}

// ParseEnabled parses the bytes of enabled.json: one strict
// scout.enabled.v1 document (valid UTF-8, no duplicate or unknown member,
// nothing after it) of at most MaxEnabledChanges decisions, each naming a
// safe provider id and a safe model id, no pair twice. ok is false for
// anything else; such a file is not applied.
func ParseEnabled(data []byte) (changes []EnabledChange, ok bool) {
	var doc enabledDoc
	if len(data) > maxEnabledBytes || json.Unmarshal(data, &doc, json.RejectUnknownMembers(true)) != nil ||
		doc.Format != enabledFormat || doc.Models == nil || len(doc.Models) > MaxEnabledChanges {
		return nil, false
	}
	seen := make(map[[2]string]bool, len(doc.Models))
	for _, c := range doc.Models {
		key := [2]string{c.Provider, c.Model}
		if !wire.ValidProviderID(c.Provider) || !ValidModelID(c.Model) || seen[key] {
			return nil, false
		}
		seen[key] = true
	}
	return doc.Models, true
}

// EncodeEnabled serializes decisions as enabled.json.
func EncodeEnabled(changes []EnabledChange) ([]byte, error) {
	if changes == nil {
		changes = []EnabledChange{}
	}
	data, err := json.Marshal(&enabledDoc{Format: enabledFormat, Models: changes})
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// withChange returns changes with c as the newest decision for its pair.
func withChange(changes []EnabledChange, c EnabledChange) []EnabledChange {
	out := slices.DeleteFunc(slices.Clone(changes), func(o EnabledChange) bool {
		return o.Provider == c.Provider && o.Model == c.Model
	})
	return append(out, c)
}

// mergeEnabled applies the decisions to a provider's enabled models: a
// disabled model leaves the list, an enabled one missing from it is added
// at the end, in the order of the decisions.
func mergeEnabled(id string, models []string, changes []EnabledChange) []string {
	out := slices.Clone(models)
	for _, c := range changes {
		if c.Provider != id {
			continue
		}
		if c.Enabled && !slices.Contains(out, c.Model) {
			out = append(out, c.Model)
		} else if !c.Enabled {
			out = slices.DeleteFunc(out, func(m string) bool { return m == c.Model })
		}
	}
	return out
}

// errEnabledUnusable marks an enabled.json that exists but cannot be
// applied (unsafe, unreadable, malformed).
var errEnabledUnusable = errors.New("enabled.json cannot be used")

// readEnabled reads enabled.json from root (nil: no home). A missing file
// holds no decision; any other failure is errEnabledUnusable with no
// decision.
func readEnabled(root *fsguard.Root) ([]EnabledChange, error) {
	if root == nil {
		return nil, nil
	}
	data, _, err := root.ReadFile(enabledFile, maxEnabledBytes)
	if errors.Is(err, fsguard.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, errEnabledUnusable
	}
	changes, ok := ParseEnabled(data)
	if !ok {
		return nil, errEnabledUnusable
	}
	return changes, nil
}

// applyEnabled merges enabled.json over the providers' enabled models, at
// the start of the child. An unusable file is reported and not applied.
func (s *Service) applyEnabled() {
	root, err := s.home.open()
	if err != nil {
		s.logf("the backend home cannot be opened (%v); enabled.json is not applied", err)
		return
	}
	if root == nil {
		return
	}
	defer root.Close()
	changes, err := readEnabled(root)
	if err != nil {
		s.logf("enabled.json is unsafe, unreadable or malformed; it is not applied (the next model.enable rewrites it)")
		return
	}
	for i := range s.providers {
		p := &s.providers[i]
		p.EnabledModels = mergeEnabled(p.ID, p.EnabledModels, changes)
	}
}

// saveEnabled records decision c in enabled.json atomically (temp file,
// fsync, rename, directory fsync), creating the home when needed. The file
// is read again first, so decisions made by other children since this one
// started are kept; an unusable file is replaced.
func (h Home) saveEnabled(c EnabledChange) error {
	root, err := h.create()
	if err != nil {
		return err
	}
	defer root.Close()
	changes, err := readEnabled(root)
	if err != nil {
		changes = nil
	}
	changes = withChange(changes, c)
	if len(changes) > MaxEnabledChanges {
		return errors.New("enabled.json would hold too many decisions")
	}
	data, err := EncodeEnabled(changes)
	if err != nil {
		return err
	}
	if len(data) > maxEnabledBytes {
		return errors.New("enabled.json would be over its bound")
	}
	return root.WriteFileAtomic(enabledFile, data, filePerm)
}
