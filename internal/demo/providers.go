package demo

import (
	"time"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
)

// provider is one provider of the demo: the fake server's scenario behind
// its base URL and the fake key set in the backend's environment. Most are
// entries of the demo's config.toml (assets/demo/config.toml.tmpl, whose
// comments say what each shows); the built-in ones are found the way a
// user's are, from the key and base-URL variables of the child's
// environment (baseEnv).
type provider struct {
	id       string
	scenario *fakeprovider.Scenario // nil: the base URL is a closed port
	keyEnv   string                 // "" when the provider takes no key
	key      string                 // the value set in the child's environment
	// baseEnv is the variable carrying a built-in's base URL (baseValue
	// turns the fake's URL into its value); "" for an entry of config.toml.
	baseEnv   string
	baseValue func(url string) string
	// entry is set for a provider with an entry in config.toml (a built-in
	// may have one overriding it).
	entry bool
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
	// The built-in openai, detected from OPENAI_API_KEY, lists models the
	// OpenAI way (ids only); the enrichment document names them.
	openai := fakeprovider.Success("gpt-demo", "gpt-demo-mini", "gpt-demo-nano")
	openai.Key = "sk-demo-openai"
	ollama := fakeprovider.Success("llama-demo:8b", "qwen-demo:7b")
	lmstudio := fakeprovider.Success("local-demo-model")
	enrichment := fakeprovider.Enrichment(enrichmentDoc)
	return []provider{
		{id: "openai", scenario: &openai, keyEnv: "OPENAI_API_KEY", key: "sk-demo-openai",
			baseEnv: "OPENAI_BASE_URL", baseValue: func(u string) string { return u + "/v1" }},
		{id: "works", scenario: &works, keyEnv: "SCOUT_DEMO_WORKS_KEY", key: "sk-demo-works", entry: true},
		{id: "rate-limited", scenario: &fakeprovider.RateLimited, keyEnv: "SCOUT_DEMO_RATE_LIMITED_KEY", key: "sk-demo-rate-limited", entry: true},
		{id: "rejected-key", scenario: &rejected, keyEnv: "SCOUT_DEMO_REJECTED_KEY", key: "sk-demo-revoked", entry: true},
		{id: "slow", scenario: &slow, entry: true},
		{id: "unreachable", keyEnv: "SCOUT_DEMO_UNREACHABLE_KEY", key: "sk-demo-unreachable", entry: true},
		{id: "empty", scenario: &fakeprovider.Empty, entry: true},
		{id: "invalid", scenario: &fakeprovider.InvalidJSON, keyEnv: "SCOUT_DEMO_INVALID_KEY", key: "sk-demo-invalid", entry: true},
		// Configured with SCOUT_DEMO_NO_KEY_KEY, which the demo removes from
		// the child's environment.
		{id: "no-key", scenario: &fakeprovider.Unauthorized, keyEnv: "SCOUT_DEMO_NO_KEY_KEY", entry: true},
		// The keyless built-ins: ollama moved by OLLAMA_HOST, lmstudio by
		// an overriding entry (it has no variable).
		{id: "ollama", scenario: &ollama, baseEnv: "OLLAMA_HOST", baseValue: func(u string) string { return u }},
		{id: "lmstudio", scenario: &lmstudio, entry: true},
		// Not a provider: the models.dev-shaped enrichment document.
		{id: "models-dev", scenario: &enrichment},
	}
}

// enrichmentDoc is the demo's models.dev: names, efforts and context
// windows of the built-in openai's models.
const enrichmentDoc = `{"openai":{"models":{
"gpt-demo":{"name":"GPT Demo","reasoning":true,"limit":{"context":400000}},
"gpt-demo-mini":{"name":"GPT Demo Mini","reasoning":["minimal","low","medium","high"],"limit":{"context":400000}},
"gpt-demo-nano":{"name":"GPT Demo Nano","reasoning":false,"limit":{"context":128000}}}}}`
