package deckhand

import (
	"os"
	"reflect"
	"runtime"
	"strings"
)

// LocalModel is the built-in model that runs in the extension's worker: no network, no key.
const LocalModel = "deckhand/local"

var knownProviders = []string{"openai", "anthropic", "google", "vertex", "azure", "bedrock"}

func fromEnv(names []string) string {
	for _, n := range names {
		if v := os.Getenv(n); strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// DefaultModel is a provider's default model when its key is in the environment, else LocalModel.
func DefaultModel() string {
	switch {
	case fromEnv(envKeys["openai"]) != "":
		return "openai/gpt-4.1-mini"
	case fromEnv(envKeys["anthropic"]) != "":
		return "anthropic/claude-sonnet-4-5"
	case fromEnv(envKeys["google"]) != "":
		return "google/gemini-2.5-flash"
	}
	return LocalModel
}

func callbackName(fn any) string {
	f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
	if f == nil {
		return "callback"
	}
	name := f.Name()
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	if name == "" || strings.HasPrefix(name, "func") && strings.Trim(name[4:], "0123456789") == "" {
		return "callback"
	}
	return name
}

func sameURL(a, b string) bool {
	n := func(s string) string { return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), "/")) }
	return n(a) == n(b)
}

// resolveModel is the wire form (ResolvedModel) of a model configuration.
func resolveModel(c *ModelConfig) (*resolvedModel, error) {
	if c == nil {
		c = &ModelConfig{ModelName: DefaultModel()}
	}
	if c.ModelName == "" {
		return nil, newError(CodeInvalidArgument, "invalid model configuration: modelName must not be empty")
	}
	if c.ModelName == LocalModel && c.Provider == "" && c.APIKey == "" && c.BaseURL == "" && c.Headers == nil && c.OpenAIEndpointFormat == "" {
		return &resolvedModel{Kind: "local", Name: LocalModel}, nil
	}
	if f := c.OpenAIEndpointFormat; f != "" && f != "chat" && f != "responses" {
		return nil, newError(CodeInvalidArgument, "invalid model configuration: openaiEndpointFormat must be 'chat' or 'responses', got '%s'", f)
	}
	provider, modelID := strings.ToLower(c.Provider), c.ModelName
	if i := strings.Index(c.ModelName, "/"); i > 0 && i < len(c.ModelName)-1 {
		p := strings.ToLower(c.ModelName[:i])
		if provider == "" {
			provider = p
		}
		if p == provider && isKnown(p) {
			modelID = c.ModelName[i+1:]
		}
	}
	known := isKnown(provider)
	if !known && c.BaseURL == "" {
		return nil, newError(CodeInvalidArgument, "unknown model provider in '%s': name a model as provider/model with one of %s, or give BaseURL for an OpenAI-compatible endpoint", c.ModelName, strings.Join(knownProviders, ", "))
	}
	if provider == "vertex" || provider == "azure" || provider == "bedrock" {
		return nil, newError(CodeUnavailable, "'%s': the %s provider is not in the Go client yet; use openai, anthropic, google or an OpenAI-compatible BaseURL", c.ModelName, provider)
	}
	envKey := ""
	if known && c.APIKey == "" {
		envKey = fromEnv(envKeys[provider])
	}
	foreign := c.BaseURL
	if op := os.Getenv(envBaseURLs[provider]); foreign != "" && op != "" && sameURL(op, foreign) {
		foreign = ""
	}
	if envKey != "" && foreign != "" {
		return nil, newError(CodeInvalidArgument, "model '%s' names its own endpoint (%s) but no APIKey: credentials from this machine's environment are only sent to %s's own endpoint, so pass APIKey with a BaseURL", c.ModelName, foreign, provider)
	}
	key := c.APIKey
	if key == "" {
		key = envKey
	}
	if key == "" && known && c.BaseURL == "" {
		return nil, newError(CodeNoModelConfigured, "model '%s' needs an API key: pass ModelConfig.APIKey or set %s", c.ModelName, strings.Join(envKeys[provider], " or "))
	}
	compatible := !known || (provider == "openai" && c.BaseURL != "" && key == "")
	base := c.BaseURL
	if base == "" && envKey != "" {
		base = strings.TrimSpace(os.Getenv(envBaseURLs[provider]))
	}
	p := provider
	if compatible {
		p = "openai-compatible"
	}
	return &resolvedModel{Kind: "provider", Name: c.ModelName, Provider: p, ModelID: modelID, APIKey: key, BaseURL: base, Headers: c.Headers, OpenAIEndpointFormat: c.OpenAIEndpointFormat}, nil
}

func isKnown(p string) bool {
	for _, k := range knownProviders {
		if k == p {
			return true
		}
	}
	return false
}
