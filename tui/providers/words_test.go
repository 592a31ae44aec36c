package providers

import (
	"strings"
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
	}, func(r string) string { return reasonText(r, testConfig) })
	distinct("reason word", []string{
		wire.ReasonAuthenticationUnavailable, wire.ReasonAuthenticationRejected, wire.ReasonConfigurationInvalid,
		wire.ReasonRemoteUnavailable, wire.ReasonRemoteTimeout, wire.ReasonRateLimited, wire.ReasonEmptyCatalog,
		wire.ReasonInvalidCatalog, wire.ReasonCatalogLimit, wire.ReasonCacheWriteFailed,
	}, reasonWord)
	distinct("catalog status", []string{
		wire.CatalogMissingCache, wire.CatalogEmptyCache, wire.CatalogInvalidFormat,
		wire.CatalogInvalidSchema, wire.CatalogIncompatibleFingerprint,
	}, catalogWord)
	distinct("authentication", []string{wire.AuthReady, wire.AuthUnavailable, wire.AuthNotChecked}, authWord)
	distinct("recovery", []string{
		wire.RecoveryConfigureAuthentication, wire.RecoveryRefreshCatalog, wire.RecoveryEnableModelsAndRestart, wire.RecoveryNone,
	}, func(r string) string {
		_, long := recovery(wire.ProviderStatus{Recovery: r, CatalogStatus: wire.CatalogMissingCache}, testConfig)
		return long
	})
	distinct("stale catalog", []string{
		wire.CatalogMissingCache, wire.CatalogEmptyCache, wire.CatalogInvalidFormat,
		wire.CatalogInvalidSchema, wire.CatalogIncompatibleFingerprint,
	}, func(s string) string { _, long := refreshRecovery(s); return long })
	for _, r := range []string{wire.RecoveryConfigureAuthentication, wire.RecoveryRefreshCatalog, wire.RecoveryEnableModelsAndRestart, wire.RecoveryNone} {
		if short, _ := recovery(wire.ProviderStatus{Recovery: r}, testConfig); len(short) > 36 {
			t.Errorf("the short recovery %q does not fit the 80-column table", short)
		}
	}
}

// testConfig is the config.toml path the sentences are given.
const testConfig = "/home/u/.local/share/scout/config.toml"

// A sentence that asks for a change of configuration names the file: its
// path, never a bare "config.toml".
func TestConfigurationSentencesNameTheFile(t *testing.T) {
	var sentences []string
	for _, r := range []string{wire.ReasonAuthenticationUnavailable, wire.ReasonConfigurationInvalid} {
		sentences = append(sentences, reasonText(r, testConfig))
	}
	_, long := recovery(wire.ProviderStatus{Recovery: wire.RecoveryConfigureAuthentication}, testConfig)
	sentences = append(sentences, long, missingText("p", []string{"m3"}, testConfig))
	for _, s := range sentences {
		if !strings.Contains(s, testConfig) {
			t.Errorf("%q does not name %s", s, testConfig)
		}
	}
	if got := missingText("p", []string{"m3", "m4"}, testConfig); !strings.HasPrefix(got, "m3, m4 are enabled but not in p's fetched list") {
		t.Errorf("two missing models: %q", got)
	}
}

// Every refresh outcome words its row, and fits the last column of an
// 80-column table.
func TestOutcomeWordsFit(t *testing.T) {
	for _, r := range []string{
		wire.ReasonAuthenticationUnavailable, wire.ReasonAuthenticationRejected, wire.ReasonConfigurationInvalid,
		wire.ReasonRemoteUnavailable, wire.ReasonRemoteTimeout, wire.ReasonRateLimited, wire.ReasonEmptyCatalog,
		wire.ReasonInvalidCatalog, wire.ReasonCatalogLimit, wire.ReasonCacheWriteFailed,
	} {
		reason := r
		o := outcomeOf(wire.RefreshResult{Outcome: wire.OutcomeFailed, Reason: &reason})
		if !o.bad || len(o.word) > 26 {
			t.Errorf("%s: %+v", r, o)
		}
	}
	if o := outcomeOf(wire.RefreshResult{Outcome: wire.OutcomeRefreshed}); o.bad || o.word != "refreshed" {
		t.Errorf("refreshed: %+v", o)
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
