package deckhand

import "math"

// The option types a caller fills in; the wire types are generated (types_gen.go).

// Variable is a value substituted for %name% in an instruction; Description tells the model
// what it is without showing the value. Value is a string, a bool or a number of any Go numeric
// type (filled in as its text: true, 3, 2.5); anything else is refused with INVALID_ARGUMENT.
type Variable struct {
	Value       any    `json:"value"`
	Description string `json:"description,omitempty"`
}

// checkVariables refuses, by name, a value the worker could not fill in as text.
func checkVariables(vars map[string]Variable) error {
	for name, v := range vars {
		switch x := v.Value.(type) {
		case string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		case float32:
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return newError(CodeInvalidArgument, "variables.%s: a number must be finite, got %v", name, x)
			}
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return newError(CodeInvalidArgument, "variables.%s: a number must be finite, got %v", name, x)
			}
		default:
			return newError(CodeInvalidArgument, "variables.%s: a value is a string, a bool or a number, got %T", name, v.Value)
		}
	}
	return nil
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
	StructuredOutput     string            `json:"structuredOutput,omitempty"`
	Vision               *bool             `json:"vision,omitempty"`
}
