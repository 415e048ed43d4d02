package deckhand

import "encoding/json"

// The options a caller fills in for pages and screenshots, the provider-specific model
// configurations, and their wire forms: idiomatic Go over the schema's shapes
// (schema/deckhand.schema.json), so written by hand. The results are generated (types_gen.go).

// ScreenshotOptions configure Page.Screenshot (nil for a PNG of the viewport).
type ScreenshotOptions struct {
	// Type is "png" (default) or "jpeg".
	Type string `json:"type,omitempty"`
	// Quality is a JPEG's quality, 0 to 100.
	Quality *int `json:"quality,omitempty"`
	// FullPage captures the whole page instead of the viewport.
	FullPage bool `json:"fullPage,omitempty"`
	// Path, when set, also writes the image to this file.
	Path string `json:"-"`
}

// PageExtraction is what Page.Extract returns without Into: the page's text (no instruction:
// no model is asked) or the model's extraction (an instruction).
type PageExtraction struct {
	PageText   string `json:"pageText,omitempty"`
	Extraction string `json:"extraction,omitempty"`
}

// -- provider-specific model configurations (the schema's VertexModelConfig,
// AzureApiKeyModelConfig and AzureEntraModelConfig) ------------------------------------------

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

// vertexWire is VertexModelConfig as the schema writes it.
type vertexWire struct {
	Provider        string            `json:"provider"`
	ModelName       string            `json:"modelName"`
	Auth            json.RawMessage   `json:"auth"`
	ProviderOptions vertexOptionsWire `json:"providerOptions"`
}

type vertexOptionsWire struct {
	Vertex *struct {
		Project  string            `json:"project"`
		Location string            `json:"location"`
		BaseURL  string            `json:"baseURL,omitempty"`
		Headers  map[string]string `json:"headers,omitempty"`
	} `json:"vertex"`
}

// azureWire is both Azure shapes as the schema writes them (apiKey, or auth with a token).
type azureWire struct {
	Provider     string            `json:"provider"`
	ModelName    string            `json:"modelName"`
	ResourceName string            `json:"resourceName,omitempty"`
	BaseURL      string            `json:"baseURL,omitempty"`
	APIVersion   string            `json:"apiVersion,omitempty"`
	Headers      map[string]string `json:"headers,omitempty"`
	APIKey       string            `json:"apiKey,omitempty"`
	Auth         *struct {
		Type  string `json:"type"`
		Token string `json:"token"`
	} `json:"auth,omitempty"`
}
