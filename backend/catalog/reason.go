package catalog

import (
	"errors"

	"github.com/scoutdev/scout/backend/wire"
)

// reasonError is a refresh failure reduced to its reason word. detail is for
// tests and diagnostics only and never holds a URL, body, path or key.
type reasonError struct {
	reason string
	detail string
}

func (e *reasonError) Error() string { return e.reason + ": " + e.detail }

// failure returns a refresh failure with reason (a wire.Reason constant).
func failure(reason, detail string) error { return &reasonError{reason: reason, detail: detail} }

// ReasonOf returns the refresh reason of err ("" when err carries none).
func ReasonOf(err error) string {
	var re *reasonError
	if errors.As(err, &re) {
		return re.reason
	}
	return ""
}

var (
	errEmpty = failure(wire.ReasonEmptyCatalog, "the provider lists no models")
	errLimit = failure(wire.ReasonCatalogLimit, "the catalog is over its bounds")
)
