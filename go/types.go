package deckhand

import "encoding/json"

// The wire types, with the schema's names in PascalCase (schema/deckhand.schema.json;
// types_test.go checks every field against it).

// Action is one step on the page: a selector, what it is, the method and its arguments.
type Action struct {
	Selector    string   `json:"selector"`
	Description string   `json:"description"`
	Method      string   `json:"method,omitempty"`
	Arguments   []string `json:"arguments,omitzero"`
	// Target is what the selector pointed at when the action was chosen; a replay performs the
	// action only where the page still has that element.
	Target *ActionTarget `json:"target,omitempty"`
}

// ActionTarget is an action's element as the page snapshot showed it when the action was
// chosen: its role and accessible name, the other text of its row, card or group (Context), and
// how many elements then had the same role and name.
type ActionTarget struct {
	Role    string `json:"role"`
	Name    string `json:"name"`
	Context string `json:"context"`
	Count   int    `json:"count"`
	// Alike is how many of those had these surroundings too, itself included (above one, only its
	// place told it apart); absent in targets stored before it was kept.
	Alike *int `json:"alike,omitempty"`
}

// Usage is an operation's model usage.
type Usage struct {
	InputTokens       float64 `json:"inputTokens"`
	OutputTokens      float64 `json:"outputTokens"`
	ReasoningTokens   float64 `json:"reasoningTokens"`
	CachedInputTokens float64 `json:"cachedInputTokens"`
	InferenceTimeMs   float64 `json:"inferenceTimeMs"`
}

// CacheStatus is HIT, MISS or DISABLED.
type CacheStatus string

const (
	CacheHit      CacheStatus = "HIT"
	CacheMiss     CacheStatus = "MISS"
	CacheDisabled CacheStatus = "DISABLED"
)

// TokensSaved is what a cache hit saved.
type TokensSaved struct {
	InputTokens  float64 `json:"inputTokens"`
	OutputTokens float64 `json:"outputTokens"`
	TotalTokens  float64 `json:"totalTokens"`
}

// CacheInfo says how the cache took part in an operation.
type CacheInfo struct {
	Status      CacheStatus  `json:"status"`
	Count       *int         `json:"count,omitempty"`
	Threshold   *int         `json:"threshold,omitempty"`
	MissReason  string       `json:"missReason,omitempty"`
	TokensSaved *TokensSaved `json:"tokensSaved,omitempty"`
	// CostSavedUsd is, on a hit, what the replaced inference would cost now in US dollars
	// (nil when the model's price is unknown).
	CostSavedUsd *float64 `json:"costSavedUsd,omitempty"`
}

// ResultMetadata comes with every act, observe and extract result.
type ResultMetadata struct {
	ActionID   string    `json:"actionId"`
	Cache      CacheInfo `json:"cache"`
	Usage      Usage     `json:"usage"`
	Confidence *float64  `json:"confidence,omitempty"`
	// CostUsd is what the call's model usage cost in US dollars: 0 when no model was called,
	// nil when the model's price is unknown.
	CostUsd *float64 `json:"costUsd,omitempty"`
}

// ActData is what act did.
type ActData struct {
	Success           bool     `json:"success"`
	Message           string   `json:"message"`
	ActionDescription string   `json:"actionDescription"`
	Actions           []Action `json:"actions"`
}

// ActResult is act's result.
type ActResult struct {
	Data     ActData        `json:"data"`
	Metadata ResultMetadata `json:"metadata"`
}

// ObserveResult is observe's result: actions act can run.
type ObserveResult struct {
	Data     []Action       `json:"data"`
	Metadata ResultMetadata `json:"metadata"`
}

// ExtractResult is Extract's result, its data decoded into T.
type ExtractResult[T any] struct {
	Data     T              `json:"data"`
	Metadata ResultMetadata `json:"metadata"`
}

// Metrics are the instance's counters: act, extract, observe and total x prompt, completion,
// reasoning and cached input tokens, inference time, cost in US dollars (models with a known
// price), and the tokens and dollars cache hits saved.
type Metrics struct {
	ActPromptTokens          float64 `json:"actPromptTokens"`
	ActCompletionTokens      float64 `json:"actCompletionTokens"`
	ActReasoningTokens       float64 `json:"actReasoningTokens"`
	ActCachedInputTokens     float64 `json:"actCachedInputTokens"`
	ActInferenceTimeMs       float64 `json:"actInferenceTimeMs"`
	ActCostUsd               float64 `json:"actCostUsd"`
	ActCacheSavedTokens      float64 `json:"actCacheSavedTokens"`
	ActCacheSavedCostUsd     float64 `json:"actCacheSavedCostUsd"`
	ExtractPromptTokens      float64 `json:"extractPromptTokens"`
	ExtractCompletionTokens  float64 `json:"extractCompletionTokens"`
	ExtractReasoningTokens   float64 `json:"extractReasoningTokens"`
	ExtractCachedInputTokens float64 `json:"extractCachedInputTokens"`
	ExtractInferenceTimeMs   float64 `json:"extractInferenceTimeMs"`
	ExtractCostUsd           float64 `json:"extractCostUsd"`
	ExtractCacheSavedTokens  float64 `json:"extractCacheSavedTokens"`
	ExtractCacheSavedCostUsd float64 `json:"extractCacheSavedCostUsd"`
	ObservePromptTokens      float64 `json:"observePromptTokens"`
	ObserveCompletionTokens  float64 `json:"observeCompletionTokens"`
	ObserveReasoningTokens   float64 `json:"observeReasoningTokens"`
	ObserveCachedInputTokens float64 `json:"observeCachedInputTokens"`
	ObserveInferenceTimeMs   float64 `json:"observeInferenceTimeMs"`
	ObserveCostUsd           float64 `json:"observeCostUsd"`
	ObserveCacheSavedTokens  float64 `json:"observeCacheSavedTokens"`
	ObserveCacheSavedCostUsd float64 `json:"observeCacheSavedCostUsd"`
	TotalPromptTokens        float64 `json:"totalPromptTokens"`
	TotalCompletionTokens    float64 `json:"totalCompletionTokens"`
	TotalReasoningTokens     float64 `json:"totalReasoningTokens"`
	TotalCachedInputTokens   float64 `json:"totalCachedInputTokens"`
	TotalInferenceTimeMs     float64 `json:"totalInferenceTimeMs"`
	TotalCostUsd             float64 `json:"totalCostUsd"`
	TotalCacheSavedTokens    float64 `json:"totalCacheSavedTokens"`
	TotalCacheSavedCostUsd   float64 `json:"totalCacheSavedCostUsd"`
}

// PageInfo describes a tab.
type PageInfo struct {
	ID    int    `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

// LocatorSpec scopes an operation to an element (Nth picks one of several matches).
type LocatorSpec struct {
	Selector string `json:"selector"`
	Nth      *int   `json:"nth,omitempty"`
}

// Variable is a value substituted for %name% in an instruction; Description tells the model
// what it is without showing the value.
type Variable struct {
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
}

// ModelConfig names a model and how to reach it.
type ModelConfig struct {
	ModelName            string            `json:"modelName"`
	Provider             string            `json:"provider,omitempty"`
	APIKey               string            `json:"apiKey,omitempty"`
	BaseURL              string            `json:"baseURL,omitempty"`
	Headers              map[string]string `json:"headers,omitempty"`
	OpenAIEndpointFormat string            `json:"openaiEndpointFormat,omitempty"`
}

// OutlineLine is one line of the page outline a model request carries.
type OutlineLine struct {
	Depth    int                        `json:"depth"`
	Kind     string                     `json:"kind"`
	ID       string                     `json:"id,omitempty"`
	Role     string                     `json:"role,omitempty"`
	Name     string                     `json:"name,omitempty"`
	States   map[string]json.RawMessage `json:"states"`
	NameFrom string                     `json:"nameFrom,omitempty"`
	Text     string                     `json:"text,omitempty"`
}

// ModelImage is an image sent to the model.
type ModelImage struct {
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

// ModelRequest is what the engine asks a Generate callback.
type ModelRequest struct {
	System      string          `json:"system"`
	Prompt      string          `json:"prompt"`
	Instruction string          `json:"instruction,omitempty"`
	Outline     []OutlineLine   `json:"outline,omitempty"`
	AlreadyDone string          `json:"alreadyDone,omitempty"`
	Schema      json.RawMessage `json:"schema"`
	Images      []ModelImage    `json:"images,omitempty"`
	TimeoutMs   int             `json:"timeoutMs,omitempty"`
}

// ReplyUsage is a Generate callback's token counts (zero counts may be left out).
type ReplyUsage struct {
	InputTokens       float64 `json:"inputTokens,omitempty"`
	OutputTokens      float64 `json:"outputTokens,omitempty"`
	ReasoningTokens   float64 `json:"reasoningTokens,omitempty"`
	CachedInputTokens float64 `json:"cachedInputTokens,omitempty"`
}

// ModelReply is a Generate callback's answer: Object fits the request's Schema. A struct or a
// json.RawMessage keeps its key order on the wire.
type ModelReply struct {
	Object any         `json:"object"`
	Usage  *ReplyUsage `json:"usage,omitempty"`
}

// resolvedModel is the wire form of a model (ResolvedModel).
type resolvedModel struct {
	Kind                 string            `json:"kind"`
	Name                 string            `json:"name"`
	CallbackID           string            `json:"callbackId,omitempty"`
	Provider             string            `json:"provider,omitempty"`
	ModelID              string            `json:"modelId,omitempty"`
	APIKey               string            `json:"apiKey,omitempty"`
	BaseURL              string            `json:"baseURL,omitempty"`
	Headers              map[string]string `json:"headers,omitempty"`
	OpenAIEndpointFormat string            `json:"openaiEndpointFormat,omitempty"`
}
