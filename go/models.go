package deckhand

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"runtime"
	"strings"
)

// ModelSpec names the model an operation uses, in any of the forms the Node and Python clients
// accept:
//
//   - ModelName("openai/gpt-4.1-mini"): a provider-prefixed name, its key from the environment
//     (OPENAI_API_KEY, ...); LocalModel is the built-in model, no key, no network;
//   - &ModelConfig{...}: a name with its own key, headers, or an OpenAI-compatible BaseURL;
//   - &VertexModelConfig{...}: Gemini on Vertex AI with a service account;
//   - &AzureModelConfig{...}: an Azure OpenAI deployment with an API key or an Entra ID token;
//   - Callback(name, fn): a Go function as the model.
//
// The worker resolves a model by name or configuration, with the environment variables its
// provider reads from this process (a key from the environment only goes to the provider's
// own endpoint), and refuses one it cannot use with a typed error. ParseModelConfig reads one
// from JSON in the Node client's shapes.
type ModelSpec interface{ modelSpec() }

// ModelName is a model by name: "provider/model" (openai, anthropic, google, vertex, azure,
// bedrock), with the provider's key read from the environment, or LocalModel.
type ModelName string

// CallbackModel is a Go function used as the model (see GenerateFunc), under a name that shows
// in results, logs, metrics and the cache key. Make one with Callback.
type CallbackModel struct {
	Name     string
	Generate GenerateFunc
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

// ServiceAccount is a Google service account's key. It decodes from a JSON key file as Google
// writes it (client_email, private_key, private_key_id; other members ignored) or from the
// camelCase form.
type ServiceAccount struct {
	ClientEmail  string `json:"clientEmail"`
	PrivateKey   string `json:"privateKey"`
	PrivateKeyID string `json:"privateKeyId,omitempty"`
}

// VertexModelConfig is a Gemini model on Google Vertex AI, reached with a service account.
type VertexModelConfig struct {
	// ModelName is the model id, e.g. "gemini-2.5-flash".
	ModelName   string
	Project     string
	Location    string
	Credentials ServiceAccount
	// BaseURL and Headers are optional: another endpoint, extra request headers.
	BaseURL string
	Headers map[string]string
}

// AzureModelConfig is a deployment of Azure OpenAI, authorised by an API key or by a Microsoft
// Entra ID token (exactly one of APIKey and EntraToken).
type AzureModelConfig struct {
	// ModelName is the deployment's name.
	ModelName string
	// ResourceName is the Azure resource (default: $AZURE_RESOURCE_NAME), or give BaseURL.
	ResourceName string
	BaseURL      string
	APIVersion   string
	Headers      map[string]string
	APIKey       string
	EntraToken   string
}

// MarshalJSON writes the configuration in the Node client's shape, as the worker reads it.
func (c *VertexModelConfig) MarshalJSON() ([]byte, error) {
	return marshalJS(vertexWire{Provider: "vertex", ModelName: c.ModelName, Auth: c.Credentials,
		ProviderOptions: vertexOptions{vertexPlace{c.Project, c.Location, c.BaseURL, c.Headers}}})
}

// MarshalJSON writes the configuration in the Node client's shape, as the worker reads it.
func (c *AzureModelConfig) MarshalJSON() ([]byte, error) {
	w := azureWire{Provider: "azure", ModelName: c.ModelName, ResourceName: c.ResourceName, BaseURL: c.BaseURL, APIVersion: c.APIVersion,
		Headers: c.Headers, APIKey: c.APIKey}
	if c.EntraToken != "" {
		w.Auth = &azureAuth{"azureEntraId", c.EntraToken}
	}
	return marshalJS(w)
}

// Callback is fn as a model named name ("" names it after the function).
func Callback(name string, fn GenerateFunc) *CallbackModel {
	if name == "" && fn != nil {
		name = callbackName(fn)
	}
	return &CallbackModel{Name: name, Generate: fn}
}

func (ModelName) modelSpec()          {}
func (*ModelConfig) modelSpec()       {}
func (*VertexModelConfig) modelSpec() {}
func (*AzureModelConfig) modelSpec()  {}
func (*CallbackModel) modelSpec()     {}

// LocalModel is the built-in model that runs in the extension's worker: no network, no key.
const LocalModel ModelName = "deckhand/local"

// DefaultModel is a provider's default model when its key is in the environment, else LocalModel.
func DefaultModel() ModelName {
	for _, d := range defaultModels {
		for _, k := range envKeys[d[0]] {
			if strings.TrimSpace(os.Getenv(k)) != "" {
				return ModelName(d[1])
			}
		}
	}
	return LocalModel
}

func callbackName(fn any) string {
	name := "callback"
	if f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()); f != nil {
		name = f.Name()[strings.LastIndex(f.Name(), ".")+1:]
	}
	if name == "" || strings.HasPrefix(name, "func") && strings.Trim(name[4:], "0123456789") == "" {
		return "callback"
	}
	return name
}

// namedModel is a model by the caller's name or configuration, with the environment variables
// its provider reads, for the worker to resolve.
type namedModel struct {
	Kind  string            `json:"kind"`
	Model ModelSpec         `json:"model"`
	Env   map[string]string `json:"env,omitempty"`
}

// resolveModel is a model's wire form: the built-in model, a callback (given its id by
// register; nil: only checked), or a named model.
func resolveModel(spec ModelSpec, register func(*CallbackModel) string) (any, error) {
	if isNilValue(spec) {
		spec = DefaultModel()
	}
	provider := ""
	switch m := spec.(type) {
	case *CallbackModel:
		if m.Generate == nil {
			return nil, newError(CodeInvalidArgument, "a callback model needs its Generate function")
		}
		w := &wireModel{Kind: "callback", Name: m.Name}
		if w.Name == "" {
			w.Name = callbackName(m.Generate)
		}
		if register != nil {
			w.CallbackID = register(m)
		}
		return w, nil
	case ModelName:
		if m == LocalModel {
			return &wireModel{Kind: "local", Name: string(LocalModel)}, nil
		}
		provider, _, _ = strings.Cut(string(m), "/")
	case *ModelConfig:
		provider, _, _ = strings.Cut(m.ModelName, "/")
		if m.Provider != "" {
			provider = m.Provider
		}
	case *VertexModelConfig:
		provider = "vertex"
	case *AzureModelConfig:
		provider = "azure"
	default:
		return nil, newError(CodeInvalidArgument, "unsupported model %T: use a ModelName, *ModelConfig, *VertexModelConfig, *AzureModelConfig or Callback(...)", spec)
	}
	env := map[string]string{}
	for _, n := range envNames[strings.ToLower(provider)] {
		if v := os.Getenv(n); v != "" {
			env[n] = v
		}
	}
	return &namedModel{Kind: "named", Model: spec, Env: env}, nil
}

// modelLabel is the name a model shows in telemetry.
func modelLabel(wire any) string {
	switch m := wire.(type) {
	case *wireModel:
		return m.Name
	case *namedModel:
		switch s := m.Model.(type) {
		case ModelName:
			return string(s)
		case *ModelConfig:
			return s.ModelName
		case *VertexModelConfig:
			return "vertex/" + s.ModelName
		case *AzureModelConfig:
			return "azure/" + s.ModelName
		}
	}
	return ""
}

func badModel(format string, args ...any) *Error {
	return newError(CodeInvalidArgument, "invalid model configuration: "+format, args...)
}

// ParseModelConfig reads a model from JSON in the Node client's shapes: a name ("openai/gpt-4.1"),
// a generic ModelConfig object, the Vertex shape ({provider: "vertex", modelName, auth,
// providerOptions: {vertex: {project, location}}}) or an Azure one ({provider: "azure",
// modelName, resourceName, apiKey} or auth: {type: "azureEntraId", token}). An unknown property
// is an INVALID_ARGUMENT error that names it; the model itself is checked when it is used.
func ParseModelConfig(raw []byte) (ModelSpec, error) {
	raw = bytes.TrimSpace(raw)
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return ModelName(name), nil
	}
	var head struct {
		Provider any `json:"provider"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, badModel("a model is a \"provider/model\" name or an object: %v", err)
	}
	switch head.Provider {
	case "vertex":
		var w vertexWire
		if err := strictJSON(raw, &w); err != nil {
			return nil, err
		}
		v := w.ProviderOptions.Vertex
		return &VertexModelConfig{ModelName: w.ModelName, Project: v.Project, Location: v.Location, Credentials: w.Auth, BaseURL: v.BaseURL, Headers: v.Headers}, nil
	case "azure":
		var w azureWire
		if err := strictJSON(raw, &w); err != nil {
			return nil, err
		}
		c := &AzureModelConfig{ModelName: w.ModelName, ResourceName: w.ResourceName, BaseURL: w.BaseURL, APIVersion: w.APIVersion,
			Headers: w.Headers, APIKey: w.APIKey}
		if w.Auth != nil {
			c.EntraToken = w.Auth.Token
		}
		return c, nil
	}
	var c ModelConfig
	if err := strictJSON(raw, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// strictJSON decodes raw into out, refusing members out has no field for.
func strictJSON(raw []byte, out any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(out); err != nil {
		var te *json.UnmarshalTypeError
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return badModel("unknown property '%s'", strings.Trim(f, `"`))
		} else if errors.As(err, &te) {
			return badModel("%s must be a %s", te.Field, te.Type)
		}
		return badModel("%v", err)
	}
	return nil
}

// UnmarshalJSON reads a service account key as Google's JSON key file writes it (snake_case,
// other members ignored) or in camelCase (no other members).
func (s *ServiceAccount) UnmarshalJSON(raw []byte) error {
	var k struct {
		ClientEmail  *string `json:"client_email"`
		PrivateKey   string  `json:"private_key"`
		PrivateKeyID string  `json:"private_key_id"`
	}
	if err := json.Unmarshal(raw, &k); err != nil {
		return err
	}
	if k.ClientEmail != nil {
		*s = ServiceAccount{*k.ClientEmail, k.PrivateKey, k.PrivateKeyID}
		return nil
	}
	type plain ServiceAccount
	return strictJSON(raw, (*plain)(s))
}
