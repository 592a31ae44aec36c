package providers

import (
	"testing"

	"github.com/scoutdev/scout/backend/wire"
)

// Every word of the protocol gets its own words: none falls through to
// the protocol's spelling, and no two share a sentence.
func TestEveryWordHasItsOwnWords(t *testing.T) {
	distinct := func(what string, words []string, say func(string) string) {
		seen := map[string]string{}
		for _, w := range words {
			got := say(w)
			if got == w || got == "" {
				t.Errorf("%s %q is not put in words: %q", what, w, got)
			}
			if prev, ok := seen[got]; ok {
				t.Errorf("%s %q and %q are both %q", what, prev, w, got)
			}
			seen[got] = w
		}
	}
	distinct("reason", []string{
		wire.ReasonAuthenticationUnavailable, wire.ReasonAuthenticationRejected, wire.ReasonConfigurationInvalid,
		wire.ReasonRemoteUnavailable, wire.ReasonRemoteTimeout, wire.ReasonRateLimited, wire.ReasonEmptyCatalog,
		wire.ReasonInvalidCatalog, wire.ReasonCatalogLimit, wire.ReasonCacheWriteFailed,
	}, reasonText)
	distinct("catalog status", []string{
		wire.CatalogMissingCache, wire.CatalogEmptyCache, wire.CatalogInvalidFormat,
		wire.CatalogInvalidSchema, wire.CatalogIncompatibleFingerprint,
	}, catalogWord)
	distinct("authentication", []string{wire.AuthReady, wire.AuthUnavailable, wire.AuthNotChecked}, authWord)
	distinct("recovery", []string{
		wire.RecoveryConfigureAuthentication, wire.RecoveryRefreshCatalog, wire.RecoveryEnableModelsAndRestart, wire.RecoveryNone,
	}, func(r string) string {
		_, long := recovery(wire.ProviderStatus{Recovery: r, CatalogStatus: wire.CatalogMissingCache})
		return long
	})
	distinct("stale catalog", []string{
		wire.CatalogMissingCache, wire.CatalogEmptyCache, wire.CatalogInvalidFormat,
		wire.CatalogInvalidSchema, wire.CatalogIncompatibleFingerprint,
	}, func(s string) string { _, long := refreshRecovery(s); return long })
	for _, r := range []string{wire.RecoveryConfigureAuthentication, wire.RecoveryRefreshCatalog, wire.RecoveryEnableModelsAndRestart, wire.RecoveryNone} {
		if short, _ := recovery(wire.ProviderStatus{Recovery: r}); len(short) > 36 {
			t.Errorf("the short recovery %q does not fit the 80-column table", short)
		}
	}
}

func TestChangesSaysWhatARefreshAddedAndRemoved(t *testing.T) {
	for _, tc := range []struct {
		before, after []string
		want          string
	}{
		{nil, []string{"a", "b"}, "new models: a, b"},
		{[]string{"a", "b"}, []string{"a"}, "models removed: b"},
		{[]string{"a"}, []string{"b"}, "new models: b; removed: a"},
		{[]string{"a"}, []string{"a"}, "no change to its 1 enabled model"},
		{nil, []string{"1", "2", "3", "4", "5", "6", "7", "8"}, "new models: 1, 2, 3, 4, 5, 6 and 2 more"},
	} {
		if got := changes(tc.before, tc.after); got != tc.want {
			t.Errorf("changes(%q, %q) = %q, want %q", tc.before, tc.after, got, tc.want)
		}
	}
}
