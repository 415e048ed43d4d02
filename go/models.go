package deckhand

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"reflect"
	"runtime"
	"slices"
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
// ParseModelConfig reads one from JSON in the Node client's shapes.
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
func DefaultModel() ModelName {
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

func badModel(format string, args ...any) *Error {
	return newError(CodeInvalidArgument, "invalid model configuration: "+format, args...)
}

func checkURL(field, s string) error {
	if s == "" {
		return nil
	}
	if u, err := url.Parse(s); err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
		return badModel("%s must be a URL, got '%s'", field, s)
	}
	return nil
}

// resolveModel is the wire form (ResolvedModel) of a model; register gives a callback its id
// (nil: callbacks are only checked).
func resolveModel(spec ModelSpec, register func(*CallbackModel) string) (*wireModel, error) {
	if isNilValue(spec) {
		spec = DefaultModel()
	}
	switch m := spec.(type) {
	case ModelName:
		return resolveGeneric(&ModelConfig{ModelName: string(m)})
	case *ModelConfig:
		return resolveGeneric(m)
	case *VertexModelConfig:
		return resolveVertex(m)
	case *AzureModelConfig:
		return resolveAzure(m)
	case *CallbackModel:
		if m.Generate == nil {
			return nil, newError(CodeInvalidArgument, "a callback model needs its Generate function")
		}
		name, id := m.Name, ""
		if name == "" {
			name = callbackName(m.Generate)
		}
		if register != nil {
			id = register(m)
		}
		return &wireModel{Kind: "callback", Name: name, CallbackID: id}, nil
	}
	return nil, newError(CodeInvalidArgument, "unsupported model %T: use a ModelName, *ModelConfig, *VertexModelConfig, *AzureModelConfig or Callback(...)", spec)
}

func resolveVertex(c *VertexModelConfig) (*wireModel, error) {
	for _, f := range []struct{ name, v string }{{"ModelName", c.ModelName}, {"Project", c.Project}, {"Location", c.Location}, {"Credentials.ClientEmail", c.Credentials.ClientEmail}, {"Credentials.PrivateKey", c.Credentials.PrivateKey}} {
		if strings.TrimSpace(f.v) == "" {
			return nil, badModel("a Vertex model needs %s", f.name)
		}
	}
	if err := checkURL("BaseURL", c.BaseURL); err != nil {
		return nil, err
	}
	return &wireModel{Kind: "provider", Name: "vertex/" + c.ModelName, Provider: "vertex", ModelID: c.ModelName, BaseURL: c.BaseURL, Headers: c.Headers, Vertex: &vertexResolved{Project: c.Project, Location: c.Location, ClientEmail: c.Credentials.ClientEmail, PrivateKey: c.Credentials.PrivateKey, PrivateKeyID: c.Credentials.PrivateKeyID}}, nil
}

func resolveAzure(c *AzureModelConfig) (*wireModel, error) {
	if strings.TrimSpace(c.ModelName) == "" {
		return nil, badModel("an Azure model needs ModelName (the deployment's name)")
	}
	if (c.APIKey == "") == (c.EntraToken == "") {
		return nil, badModel("an Azure model takes exactly one of APIKey and EntraToken")
	}
	if err := checkURL("BaseURL", c.BaseURL); err != nil {
		return nil, err
	}
	rn := c.ResourceName
	if rn == "" {
		rn = os.Getenv("AZURE_RESOURCE_NAME")
	}
	az := &azureResolved{ResourceName: rn, APIVersion: c.APIVersion, Token: c.EntraToken}
	return &wireModel{Kind: "provider", Name: "azure/" + c.ModelName, Provider: "azure", ModelID: c.ModelName, APIKey: c.APIKey, BaseURL: c.BaseURL, Headers: c.Headers, Azure: az}, nil
}

// refuseEnvCredential: a key from the environment belongs to the operator, so it goes only to
// the provider's own endpoint (or the one the operator configured next to it).
func refuseEnvCredential(provider, name, endpoint string) error {
	return newError(CodeInvalidArgument, "model '%s' names its own endpoint (%s) but no APIKey: credentials from this machine's environment are only sent to %s's own endpoint, so pass APIKey with a BaseURL", name, endpoint, provider)
}

// callerEndpoint is the endpoint a caller named, unless it is the operator's own for provider.
func callerEndpoint(provider, baseURL string) string {
	if baseURL == "" {
		return ""
	}
	if op := os.Getenv(envBaseURLs[provider]); envBaseURLs[provider] != "" && op != "" && sameURL(op, baseURL) {
		return ""
	}
	return baseURL
}

func resolveGeneric(c *ModelConfig) (*wireModel, error) {
	if strings.TrimSpace(c.ModelName) == "" {
		return nil, badModel("modelName must not be empty")
	}
	if reflect.DeepEqual(*c, ModelConfig{ModelName: string(LocalModel)}) {
		return &wireModel{Kind: "local", Name: string(LocalModel)}, nil
	}
	if err := checkSetting("openaiEndpointFormat", c.OpenAIEndpointFormat, openaiEndpointFormats); err != nil {
		return nil, err
	}
	if err := checkSetting("structuredOutput", c.StructuredOutput, structuredOutputModes); err != nil {
		return nil, err
	}
	if err := checkURL("baseURL", c.BaseURL); err != nil {
		return nil, err
	}
	provider, modelID := strings.ToLower(c.Provider), c.ModelName
	if i := strings.Index(c.ModelName, "/"); i > 0 && i < len(c.ModelName)-1 {
		p := strings.ToLower(c.ModelName[:i])
		if provider == "" {
			provider = p
		}
		// Only a provider prefix is stripped: "meta-llama/Llama-3" on a compatible server keeps its id.
		if p == provider && isKnown(p) {
			modelID = c.ModelName[i+1:]
		}
	}
	known := isKnown(provider)
	if !known && c.BaseURL == "" {
		return nil, newError(CodeInvalidArgument, "unknown model provider in '%s': name a model as provider/model with one of %s, or give BaseURL for an OpenAI-compatible endpoint", c.ModelName, strings.Join(knownProviders, ", "))
	}
	switch provider {
	case "azure":
		envKey := fromEnv(envKeys["azure"])
		if envKey == "" && c.APIKey == "" {
			break
		}
		if c.APIKey == "" && callerEndpoint("azure", c.BaseURL) != "" {
			return nil, refuseEnvCredential("azure", c.ModelName, c.BaseURL)
		}
		key, base := c.APIKey, c.BaseURL
		if key == "" {
			key = envKey
			if base == "" {
				base = os.Getenv("AZURE_BASE_URL")
			}
		}
		return &wireModel{Kind: "provider", Name: c.ModelName, Provider: "azure", ModelID: modelID, APIKey: key, BaseURL: base, Headers: c.Headers, Azure: &azureResolved{ResourceName: os.Getenv("AZURE_RESOURCE_NAME")}}, nil
	case "vertex":
		project, email, pk := os.Getenv("GOOGLE_VERTEX_PROJECT"), os.Getenv("GOOGLE_CLIENT_EMAIL"), os.Getenv("GOOGLE_PRIVATE_KEY")
		if project == "" || email == "" || pk == "" {
			break
		}
		// A service account from the environment signs requests for Google's endpoint only.
		if c.BaseURL != "" {
			return nil, refuseEnvCredential("vertex", c.ModelName, c.BaseURL)
		}
		loc := os.Getenv("GOOGLE_VERTEX_LOCATION")
		if loc == "" {
			loc = "us-central1"
		}
		return &wireModel{Kind: "provider", Name: c.ModelName, Provider: "vertex", ModelID: modelID, Headers: c.Headers, Vertex: &vertexResolved{Project: project, Location: loc, ClientEmail: email, PrivateKey: strings.ReplaceAll(pk, `\n`, "\n")}}, nil
	case "bedrock":
		region := os.Getenv("AWS_REGION")
		if region == "" {
			region = os.Getenv("AWS_DEFAULT_REGION")
		}
		id, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
		if region == "" || id == "" || secret == "" {
			return nil, newError(CodeNoModelConfigured, "'%s' needs AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", c.ModelName)
		}
		// AWS credentials from the environment sign requests for AWS's own endpoint only.
		if c.BaseURL != "" {
			return nil, refuseEnvCredential("bedrock", c.ModelName, c.BaseURL)
		}
		return &wireModel{Kind: "provider", Name: c.ModelName, Provider: "bedrock", ModelID: modelID, Headers: c.Headers, Bedrock: &bedrockResolved{Region: region, AccessKeyID: id, SecretAccessKey: secret, SessionToken: os.Getenv("AWS_SESSION_TOKEN")}}, nil
	}
	if provider == "azure" || provider == "vertex" {
		what := "resource"
		if provider == "vertex" {
			what = "project/location"
		}
		return nil, newError(CodeInvalidArgument, "'%s' needs the %s model configuration (*%sModelConfig: credentials and %s), or the provider's environment variables", c.ModelName, provider, strings.ToUpper(provider[:1])+provider[1:], what)
	}
	envKey := ""
	if known && c.APIKey == "" {
		envKey = fromEnv(envKeys[provider])
	}
	foreign := callerEndpoint(provider, c.BaseURL)
	if envKey != "" && foreign != "" {
		return nil, refuseEnvCredential(provider, c.ModelName, foreign)
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
	return &wireModel{Kind: "provider", Name: c.ModelName, Provider: p, ModelID: modelID, APIKey: key, BaseURL: base, Headers: c.Headers,
		OpenAIEndpointFormat: c.OpenAIEndpointFormat, StructuredOutput: c.StructuredOutput, Vision: c.Vision}, nil
}

// checkSetting refuses a value the schema does not list (the generated list), by name, before
// anything is sent.
func checkSetting(field, v string, allowed []string) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return badModel("%s must be one of '%s', got '%s'", field, strings.Join(allowed, "', '"), v)
}

func isKnown(p string) bool {
	for _, k := range knownProviders {
		if k == p {
			return true
		}
	}
	return false
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
		if w.ProviderOptions.Vertex == nil {
			return nil, badModel("providerOptions.vertex (project, location) is required")
		}
		var acct ServiceAccount
		if len(w.Auth) == 0 {
			return nil, badModel("auth (the service account) is required")
		}
		if err := json.Unmarshal(w.Auth, &acct); err != nil {
			return nil, badModel("auth: %v", err)
		}
		v := w.ProviderOptions.Vertex
		return &VertexModelConfig{ModelName: w.ModelName, Project: v.Project, Location: v.Location, Credentials: acct, BaseURL: v.BaseURL, Headers: v.Headers}, nil
	case "azure":
		var w azureWire
		if err := strictJSON(raw, &w); err != nil {
			return nil, err
		}
		c := &AzureModelConfig{ModelName: w.ModelName, ResourceName: w.ResourceName, BaseURL: w.BaseURL, APIVersion: w.APIVersion, Headers: w.Headers, APIKey: w.APIKey}
		if w.Auth != nil {
			if w.Auth.Type != "azureEntraId" {
				return nil, badModel("auth.type must be 'azureEntraId', got '%s'", w.Auth.Type)
			}
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
		msg := err.Error()
		if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			return badModel("unknown property '%s'", strings.Trim(f, `"`))
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return badModel("%s must be a %s", te.Field, te.Type)
		}
		return badModel("%v", err)
	}
	return nil
}

// UnmarshalJSON reads a service account key as Google's JSON key file writes it (snake_case,
// other members ignored) or in camelCase (no other members).
func (s *ServiceAccount) UnmarshalJSON(raw []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	if _, ok := m["client_email"]; ok {
		var k struct {
			ClientEmail  string `json:"client_email"`
			PrivateKey   string `json:"private_key"`
			PrivateKeyID string `json:"private_key_id"`
		}
		if err := json.Unmarshal(raw, &k); err != nil {
			return err
		}
		*s = ServiceAccount{ClientEmail: k.ClientEmail, PrivateKey: k.PrivateKey, PrivateKeyID: k.PrivateKeyID}
		return nil
	}
	type plain ServiceAccount
	var p plain
	if err := strictJSON(raw, &p); err != nil {
		return err
	}
	*s = ServiceAccount(p)
	return nil
}
