package demo

import (
	"time"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
)

// provider is one provider of the demo's config.toml: the fake server's
// scenario behind its base URL and the fake key set in the backend's
// environment. The configuration itself is assets/demo/config.toml.tmpl;
// its comments say what each provider shows.
type provider struct {
	id       string
	scenario *fakeprovider.Scenario // nil: the base URL is a closed port
	keyEnv   string                 // "" when the provider takes no key
	key      string                 // the value set in the child's environment
}

// expectedKey is the key the rejected-key scenario wants; the demo sets
// another one.
const expectedKey = "sk-demo-expected"

// slowDelay is how long the slow provider takes to answer: long enough to
// press Esc, short enough to see it succeed when waited for.
const slowDelay = 25 * time.Second

// providers are the demo's providers, one per refresh outcome, in the
// order of config.toml.
func providers() []provider {
	works := fakeprovider.Scenario{
		Models: []fakeprovider.Model{{ID: "demo-large", Name: "Demo Large"}, {ID: "demo-small", Name: "Demo Small"}, {ID: "demo-tiny", Name: "Demo Tiny"}},
		Key:    "sk-demo-works",
	}
	rejected := fakeprovider.Success("claude-demo")
	rejected.Key = expectedKey
	slow := fakeprovider.Slow(slowDelay, "slow-model")
	return []provider{
		{id: "works", scenario: &works, keyEnv: "SCOUT_DEMO_WORKS_KEY", key: "sk-demo-works"},
		{id: "rate-limited", scenario: &fakeprovider.RateLimited, keyEnv: "SCOUT_DEMO_RATE_LIMITED_KEY", key: "sk-demo-rate-limited"},
		{id: "rejected-key", scenario: &rejected, keyEnv: "SCOUT_DEMO_REJECTED_KEY", key: "sk-demo-revoked"},
		{id: "slow", scenario: &slow},
		{id: "unreachable", keyEnv: "SCOUT_DEMO_UNREACHABLE_KEY", key: "sk-demo-unreachable"},
		{id: "empty", scenario: &fakeprovider.Empty},
		{id: "invalid", scenario: &fakeprovider.InvalidJSON, keyEnv: "SCOUT_DEMO_INVALID_KEY", key: "sk-demo-invalid"},
		// Configured with SCOUT_DEMO_NO_KEY_KEY, which the demo removes from
		// the child's environment.
		{id: "no-key", scenario: &fakeprovider.Unauthorized, keyEnv: "SCOUT_DEMO_NO_KEY_KEY"},
	}
}
