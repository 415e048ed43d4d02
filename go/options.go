package deckhand

import (
	"bytes"
	"context"
	"encoding/json"
	"io"

	"go.opentelemetry.io/otel/trace"
)

// The options a caller fills in (the wire types are generated, in types_gen.go).

// GenerateFunc is a generation callback used as the model: the engine sends it a request and
// it returns an object that fits req.Schema (with the token usage, if known). ctx ends when the
// request's own deadline passes or the client closes.
type GenerateFunc func(ctx context.Context, req *ModelRequest) (*ModelReply, error)

// CacheConfig configures the result cache.
type CacheConfig struct {
	// Store keeps the entries (nil: the SQLite file $DECKHAND_HOME/cache.db, shared with the
	// Node and Python clients; NewMemoryStore() keeps them in this process).
	Store CacheStore
	// Threshold is how many times the same result must be seen before it is replayed (default 1).
	Threshold int
	// Disabled keeps the store but makes lookups opt-in per call (ActOptions.Cache).
	Disabled bool
}

// LoggingOptions say which of the engine's log lines are reported and how. Without Logging a
// client writes warnings and errors to stderr as text, as the Node and Python clients do.
type LoggingOptions struct {
	// Level is the least level reported: "debug", "info", "warn" (default), "error" or
	// "silent" (none).
	Level string
	// Format is how lines are written when there is no Func: "text" (default) or "json" (one
	// object per line: level, message, timestamp, data).
	Format string
	// Writer receives the written lines (default os.Stderr).
	Writer io.Writer
	// Func gets each line instead of the Writer.
	Func func(level, message string, data map[string]any)
}

// TelemetryOptions pick where the OpenTelemetry spans go. Each Act, Observe and Extract is a
// span (deckhand.act, ...) started from the caller's context, with a child deckhand.model_call
// span per model request the worker made (its real start and end, gen_ai.usage.* tokens).
type TelemetryOptions struct {
	// TracerProvider gives the tracer (nil: the global provider, a no-op unless one is set).
	TracerProvider trace.TracerProvider
	// TracerName names the tracer (default "deckhand").
	TracerName string
}

// CreateOptions configure Create.
type CreateOptions struct {
	// Browser is from LaunchLocalBrowser, ConnectLocalBrowser or LaunchGridBrowser (required; one
	// client per handle).
	Browser *Browser
	// APIKey and APIURL name a Deckhand service whose cache this client uses (RemoteStore).
	APIKey, APIURL string
	// Model is the default model: a ModelName, *ModelConfig, *VertexModelConfig,
	// *AzureModelConfig or Callback(...) (nil: a provider's default when its key is in the
	// environment, else LocalModel).
	Model ModelSpec
	// Generate is a generation callback used as the model instead of Model (the same as
	// Model: Callback("", fn)).
	Generate GenerateFunc
	// SystemPrompt is added to every model request.
	SystemPrompt string
	// SelfHeal lets a cached action be healed when the page changed (default true).
	SelfHeal *bool
	// DOMSettleTimeoutMs is how long operations wait for the DOM to settle (nil: the engine's default).
	DOMSettleTimeoutMs *int
	// Cache configures the result cache (nil: no cache).
	Cache *CacheConfig
	// Logging receives the engine's log lines.
	Logging *LoggingOptions
	// Telemetry picks where spans go (nil: the global OpenTelemetry provider's "deckhand" tracer).
	Telemetry *TelemetryOptions
	// Approval makes risky steps of Act, Agent.Execute and ExperimentalBatch wait for approval
	// (a call's own policy wins).
	Approval *ApprovalPolicy
	// OnApproval decides those steps for every call without a handler of its own (nil: the side
	// panel, else the deadline, decides).
	OnApproval ApprovalFunc
}

// CacheOption is a per-call cache setting: CacheEnabled(false) skips the lookup,
// CacheEnabled(true) looks up even when the instance's cache is off by default, and
// CacheWithThreshold(n) also sets the threshold.
type CacheOption struct {
	enabled   bool
	threshold int
	set       bool // threshold given
}

// CacheEnabled turns the cache on or off for one call.
func CacheEnabled(on bool) *CacheOption { return &CacheOption{enabled: on} }

// CacheWithThreshold uses the cache with threshold n (a positive integer) for one call.
func CacheWithThreshold(n int) *CacheOption {
	return &CacheOption{enabled: true, threshold: n, set: true}
}

// UnmarshalJSON reads a cache option as the Node client takes it: false, true or
// {"threshold": n}; anything else is an INVALID_ARGUMENT error.
func (o *CacheOption) UnmarshalJSON(raw []byte) error {
	var on bool
	if json.Unmarshal(raw, &on) == nil {
		*o = CacheOption{enabled: on}
		return nil
	}
	var th struct {
		Threshold *int `json:"threshold"`
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if d.Decode(&th) != nil || th.Threshold == nil {
		return newError(CodeInvalidArgument, "invalid cache option %s: use false, true or {\"threshold\": n}", raw)
	}
	*o = *CacheWithThreshold(*th.Threshold)
	return o.check()
}

// check refuses a threshold below 1 (nil: no option, nothing to check).
func (o *CacheOption) check() error {
	if o != nil && o.set && o.threshold < 1 {
		return newError(CodeInvalidArgument, "invalid cache option: CacheWithThreshold(%d) (the threshold must be a positive integer)", o.threshold)
	}
	return nil
}

// ActInput is what Act does: ActInstruction(text) or ObservedAction(action).
type ActInput interface{ actInput() any }

// ActInstruction is an instruction the model carries out (or the cache replays).
type ActInstruction string

func (s ActInstruction) actInput() any { return string(s) }

type observedAction struct{ a Action }

func (o observedAction) actInput() any { return o.a }

// ObservedAction runs an Action deterministically: no model, no cache.
func ObservedAction(a Action) ActInput { return observedAction{a} }

// ObserveOptions configure Observe (nil for defaults).
type ObserveOptions = ActOptions

// Variable is a value substituted for %name% in an instruction; Description tells the model
// what it is without showing the value. Value is a string, a bool or a number of any Go numeric
// type (filled in as its text: true, 3, 2.5); the worker refuses anything else (INVALID_ARGUMENT).
type Variable struct {
	Value       any    `json:"value"`
	Description string `json:"description,omitempty"`
}

// PageExtraction is what Page.Extract returns without Into: the page's text (no instruction:
// no model is asked) or the model's extraction (an instruction).
type PageExtraction struct {
	PageText   string `json:"pageText,omitempty"`
	Extraction string `json:"extraction,omitempty"`
}
