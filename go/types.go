package deckhand

// The option types a caller fills in; the wire types are generated (types_gen.go).

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
