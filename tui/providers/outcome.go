package providers

import (
	"github.com/scoutdev/scout/backend/wire"
)

// outcome is what the last refresh of a provider did, as its row says it
// until the next refresh of it or a restart of the backend: the catalog
// status of a row is the cache's, which a failed refresh leaves as it was,
// so without this a 401 would leave "key ready" and a 429 "press r" on the
// row that just failed.
type outcome struct {
	word string // for the row's last column
	bad  bool
	// key replaces the key cell when the refresh learnt something about
	// the key ("" leaves it).
	key string
	// reason is a failed refresh's reason, whose sentence then replaces
	// the provider's recovery under the table.
	reason string
}

// outcomeOf words a refresh result for the row.
func outcomeOf(res wire.RefreshResult) outcome {
	if res.Outcome == wire.OutcomeRefreshed {
		if res.CatalogError != nil {
			return outcome{word: "refreshed · cache unreadable", bad: true}
		}
		return outcome{word: "refreshed"}
	}
	reason := ""
	if res.Reason != nil {
		reason = *res.Reason
	}
	o := outcome{word: reasonWord(reason), bad: true, reason: reason}
	switch reason {
	case wire.ReasonAuthenticationRejected:
		o.key = "key rejected"
	case wire.ReasonAuthenticationUnavailable:
		o.key = authWord(wire.AuthUnavailable)
	}
	return o
}

// reasonWord is a refresh reason in a table cell (at most 26 cells): what
// happened, and what to do when it is not in the word already.
func reasonWord(reason string) string {
	switch reason {
	case wire.ReasonAuthenticationUnavailable:
		return "no key · set it, restart"
	case wire.ReasonAuthenticationRejected:
		return "key rejected · check it"
	case wire.ReasonConfigurationInvalid:
		return "bad endpoint · fix config"
	case wire.ReasonRemoteUnavailable:
		return "unreachable · try later"
	case wire.ReasonRemoteTimeout:
		return "timed out · try later"
	case wire.ReasonRateLimited:
		return "rate limited · try later"
	case wire.ReasonEmptyCatalog:
		return "lists no models"
	case wire.ReasonInvalidCatalog:
		return "unreadable answer"
	case wire.ReasonCatalogLimit:
		return "list over scout's bounds"
	case wire.ReasonCacheWriteFailed:
		return "not saved · check home"
	}
	return "failed: " + reason
}

// Outcomes of a refresh that did not run to its end.
var (
	outcomeCancelled  = outcome{word: "refresh cancelled"}
	outcomeUnfinished = outcome{word: "did not finish", bad: true}
)
