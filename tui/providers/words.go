package providers

import (
	"context"
	"errors"
	"strings"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/internal/display"
)

// This file turns the protocol's words into people's: a provider's catalog
// status and key, the recovery it needs, a refresh's reason, and the
// errors of loading. The status never names a provider's environment
// variable, so no sentence does; a sentence that asks for a change of
// configuration names the file to edit (config, the path of config.toml).

// catalogWord is a catalog status in a table cell (at most 12 cells).
func catalogWord(status string) string {
	switch status {
	case wire.CatalogAvailable:
		return "available"
	case wire.CatalogMissingCache:
		return "no catalog"
	case wire.CatalogEmptyCache:
		return "empty"
	case wire.CatalogInvalidFormat:
		return "damaged"
	case wire.CatalogInvalidSchema:
		return "invalid"
	case wire.CatalogIncompatibleFingerprint:
		return "other source"
	}
	return status
}

// authWord is an authentication state in a table cell.
func authWord(auth string) string {
	switch auth {
	case wire.AuthReady:
		return "key ready"
	case wire.AuthUnavailable:
		return "no key"
	case wire.AuthNotChecked:
		return "not checked"
	}
	return auth
}

// keylessWord is the key cell of a provider that needs no key.
const keylessWord = "no key needed"

// recovery is what to do for a provider: a short sentence for its row and
// a whole one for the detail under the table. config names config.toml.
func recovery(ps wire.ProviderStatus, config string) (short, long string) {
	switch ps.Recovery {
	case wire.RecoveryConfigureAuthentication:
		return "Configure its key; restart (R).",
			"No API key is available for this provider. Set its key variable and start scout again, or set api_key_env or credential_file in its entry in " + config + " and restart (R)."
	case wire.RecoveryRefreshCatalog:
		return refreshRecovery(ps.CatalogStatus)
	case wire.RecoveryEnableModelsAndRestart:
		return "Enable a model: Enter, space.",
			"No model of this provider is enabled. Enter shows its models; space enables the focused one (the backend restarts to apply it)."
	case wire.RecoveryNone:
		return "Ready.", "Its model list is available and it is ready to use; r fetches the list again."
	}
	return "Recovery: " + ps.Recovery + ".", "The backend asks for recovery “" + ps.Recovery + "”."
}

func refreshRecovery(status string) (short, long string) {
	short = "Press r to fetch its model list."
	switch status {
	case wire.CatalogMissingCache:
		return short, "No model list has been fetched yet. Press r to fetch this provider's model list."
	case wire.CatalogEmptyCache:
		return short, "Its cached model list is empty. Press r to fetch this provider's model list again."
	case wire.CatalogInvalidFormat:
		return short, "Its cached model list is damaged. Press r to fetch this provider's model list again."
	case wire.CatalogInvalidSchema:
		return short, "Its cached model list is not valid. Press r to fetch this provider's model list again."
	case wire.CatalogIncompatibleFingerprint:
		return short, "Its cached model list was fetched for another type or endpoint. Press r to fetch this provider's model list again."
	}
	return short, "Press r to fetch this provider's model list."
}

// noListWhy says why a provider has no model list to show.
func noListWhy(ps wire.ProviderStatus) string {
	switch ps.CatalogStatus {
	case wire.CatalogMissingCache:
		return "no model list was fetched yet; press r to fetch it."
	case wire.CatalogEmptyCache:
		return "its fetched model list is empty; press r to fetch it again."
	case wire.CatalogInvalidFormat:
		return "its cached model list is damaged; press r to fetch it again."
	case wire.CatalogInvalidSchema:
		return "its cached model list is not valid; press r to fetch it again."
	case wire.CatalogIncompatibleFingerprint:
		return "its cached model list was fetched for another type or endpoint; press r to fetch it again."
	}
	return "its model list has no model."
}

// reasonText says why a refresh failed and what to do, one sentence per
// reason of docs/protocol.md §7; config names config.toml.
func reasonText(reason, config string) string {
	switch reason {
	case wire.ReasonAuthenticationUnavailable:
		return "no API key is available for it (its variable is unset or its credential file is missing or unreadable); set it and start scout again, or configure it in " + config + " and restart (R)"
	case wire.ReasonAuthenticationRejected:
		return "the provider rejected the API key; check the key, then restart (R)"
	case wire.ReasonConfigurationInvalid:
		return "its configuration is invalid or its models endpoint does not exist; fix its type and base_url in " + config + " (or its base-URL variable), then restart (R)"
	case wire.ReasonRemoteUnavailable:
		return "the provider could not be reached or answered with an error; try again later"
	case wire.ReasonRemoteTimeout:
		return "the provider did not answer in time; try again later"
	case wire.ReasonRateLimited:
		return "the provider is rate limiting; try again later"
	case wire.ReasonEmptyCatalog:
		return "the provider lists no models; the previous catalog was kept"
	case wire.ReasonInvalidCatalog:
		return "the provider's answer is not a model list scout can read; the previous catalog was kept"
	case wire.ReasonCatalogLimit:
		return "the provider's model list is over scout's bounds (2 MiB, 2,048 models); the previous catalog was kept"
	case wire.ReasonCacheWriteFailed:
		return "the model list could not be saved in scout's home; check that it is writable and has room"
	}
	return "the backend gave the reason “" + reason + "”"
}

// catalogErrorText says why the caches could not be read back after a
// refresh.
func catalogErrorText(code string) string {
	switch wire.Code(code) {
	case wire.CodeCatalogUnavailable:
		return "a catalog cache in scout's home is unsafe or unreadable"
	case wire.CodeCatalogLimit:
		return "a catalog cache is over its 1 MiB bound"
	}
	return "the catalog could not be read back (" + code + ")"
}

// loadError says why the catalog could not be read and what to do.
func loadError(err error) string {
	switch bridge.Code(err) {
	case wire.CodeCatalogUnavailable:
		return "A catalog cache in scout's home is unsafe or unreadable (a symlink, not a regular file, or not readable), so the catalog cannot be shown. Fix or remove it, then press Ctrl-R."
	case wire.CodeCatalogLimit:
		return "A catalog cache in scout's home is over its 1 MiB bound, so the catalog cannot be shown. Remove it, then press Ctrl-R."
	case wire.CodeStaleRevision:
		return "The catalog kept changing while it was read. Press Ctrl-R to read it again."
	case wire.CodeBusy:
		return "The backend is busy reading catalogs. Press Ctrl-R in a moment."
	case wire.CodeUnsupportedCapability:
		return "This backend does not offer provider status."
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "The backend did not answer in time. Press Ctrl-R to try again."
	}
	return display.Capitalize(bridge.Describe(err)) + ". Press Ctrl-R to try again."
}

// joinModels lists model ids for a sentence, at most max of them.
func joinModels(ids []string, most int) string {
	if len(ids) <= most {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:most], ", ") + " and " + itoa(len(ids)-most) + " more"
}
