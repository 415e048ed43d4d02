package deckhand

// The option types a caller fills in; the wire types are generated (types_gen.go).

// Variable is a value substituted for %name% in an instruction; Description tells the model
// what it is without showing the value. Value is a string, a bool or a number of any Go numeric
// type (filled in as its text: true, 3, 2.5); the worker refuses anything else (INVALID_ARGUMENT).
type Variable struct {
	Value       any    `json:"value"`
	Description string `json:"description,omitempty"`
}

// ModelConfig names a model and how to reach it. The endpoint settings left empty are decided
// by the worker: OpenAIEndpointFormat (OpenAIEndpointResponses on OpenAI's own endpoint,
// OpenAIEndpointChat on any other BaseURL), StructuredOutput (StructuredOutputAuto: the
// strongest JSON shape the server takes) and Vision (whether the model reads screenshots).
type ModelConfig struct {
	ModelName            string            `json:"modelName"`
	Provider             string            `json:"provider,omitempty"`
	APIKey               string            `json:"apiKey,omitempty"`
	BaseURL              string            `json:"baseURL,omitempty"`
	Headers              map[string]string `json:"headers,omitempty"`
	OpenAIEndpointFormat string            `json:"openaiEndpointFormat,omitempty"`
	StructuredOutput     string            `json:"structuredOutput,omitempty"`
	// Vision is a pointer so that false is sent (Bool(false)) rather than left to the worker.
	Vision *bool `json:"vision,omitempty"`
}
