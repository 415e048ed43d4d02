package deckhand

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The model sent with an act, as the fake worker saw it.
func sentModel(t *testing.T, o CreateOptions, per ModelSpec) (string, error) {
	t.Helper()
	b, f := fakeBrowser()
	o.Browser = b
	c, err := Create(context.Background(), o)
	if err != nil {
		return "", err
	}
	defer c.Close()
	f.answer = json.RawMessage(`{"data":{"success":true,"message":"","actionDescription":"","actions":[]},"metadata":{"actionId":"a",` +
		`"cache":{"status":"DISABLED"},"usage":{"inputTokens":0,"outputTokens":0,"reasoningTokens":0,"cachedInputTokens":0,"inferenceTimeMs":0}}}`)
	if _, err := c.Act(context.Background(), ActInstruction("click"), &ActOptions{Model: per}); err != nil {
		return "", err
	}
	frames := f.sent()
	var req struct {
		Params struct {
			Options struct {
				Model json.RawMessage `json:"model"`
			} `json:"options"`
		} `json:"params"`
	}
	json.Unmarshal([]byte(frames[len(frames)-1]), &req)
	return normalise(string(req.Params.Options.Model)), nil
}

// A model goes to the worker as the caller gave it, with the environment variables its
// provider reads (the worker resolves it); the built-in model and callbacks go as they are.
func TestEveryModelShapeGoesAsTheCallerGaveIt(t *testing.T) {
	noProviderKeys(t)
	t.Setenv("ANTHROPIC_API_KEY", "ak")
	t.Setenv("AZURE_RESOURCE_NAME", "")
	noop := func(context.Context, *ModelRequest) (*ModelReply, error) { return nil, nil }
	cases := []struct {
		name string
		spec ModelSpec
		want string
	}{
		{"a name, with its provider's key from the environment", ModelName("anthropic/claude-sonnet-4-5"),
			`{"kind":"named","model":"anthropic/claude-sonnet-4-5","env":{"ANTHROPIC_API_KEY":"ak"}}`},
		{"an OpenAI-compatible endpoint with its settings", &ModelConfig{ModelName: "gemma", BaseURL: "http://127.0.0.1:8000/v1",
			StructuredOutput: StructuredOutputTool, Vision: Bool(false)},
			`{"kind":"named","model":{"modelName":"gemma","baseURL":"http://127.0.0.1:8000/v1","structuredOutput":"tool","vision":false}}`},
		{"the local model by name", LocalModel, `{"kind":"local","name":"deckhand/local"}`},
		{"Vertex with a service account", &VertexModelConfig{ModelName: "gemini-2.5-flash", Project: "p", Location: "europe-west4",
			Credentials: ServiceAccount{ClientEmail: "sa@p.iam", PrivateKey: "PK"}},
			`{"kind":"named","model":{"provider":"vertex","modelName":"gemini-2.5-flash","auth":{"clientEmail":"sa@p.iam","privateKey":"PK"},` +
				`"providerOptions":{"vertex":{"project":"p","location":"europe-west4"}}}}`},
		{"Azure with a key", &AzureModelConfig{ModelName: "gpt4o", ResourceName: "res", APIKey: "az", APIVersion: "2024-10-21"},
			`{"kind":"named","model":{"provider":"azure","modelName":"gpt4o","resourceName":"res","apiVersion":"2024-10-21","apiKey":"az"}}`},
		{"Azure with an Entra token", &AzureModelConfig{ModelName: "gpt4o", ResourceName: "res", EntraToken: "tok"},
			`{"kind":"named","model":{"provider":"azure","modelName":"gpt4o","resourceName":"res","auth":{"type":"azureEntraId","token":"tok"}}}`},
		{"a callback per call", Callback("mine", noop), `{"kind":"callback","name":"mine","callbackId":"%CALLBACK%"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := sentModel(t, CreateOptions{}, c.spec)
			if err != nil || got != c.want {
				t.Fatalf("%v\n got %s\nwant %s", err, got, c.want)
			}
		})
	}
	if _, err := sentModel(t, CreateOptions{}, &CallbackModel{Name: "empty"}); codeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "Generate") {
		t.Errorf("a callback without Generate: %v", err)
	}
}

// The worker refuses a model it cannot use, naming what is wrong.
func TestTheWorkerRefusesAModelItCannotUse(t *testing.T) {
	noProviderKeys(t)
	c := newClient(t, CreateOptions{})
	open(t, c, "/form.html")
	for _, bad := range []struct {
		spec ModelSpec
		code string
		says string
	}{
		{&VertexModelConfig{ModelName: "g", Project: "p"}, CodeInvalidArgument, "location"},
		{ModelName("vertex/gemini"), CodeInvalidArgument, "vertex ModelConfig"},
		{&ModelConfig{ModelName: "x", BaseURL: "not a url"}, CodeInvalidArgument, "baseURL"},
		{&ModelConfig{ModelName: "x", BaseURL: "http://h/v1", StructuredOutput: "xml"}, CodeInvalidArgument, "structuredOutput"},
		// A setting makes the local model's name a config for an endpoint, which it has none of.
		{&ModelConfig{ModelName: string(LocalModel), Vision: Bool(true)}, CodeInvalidArgument, "unknown model provider"},
		{ModelName("openai/gpt-4.1"), CodeNoModelConfigured, "OPENAI_API_KEY"},
	} {
		_, err := c.Act(context.Background(), ActInstruction("click the Multi button"), &ActOptions{Model: bad.spec})
		if codeOf(err) != bad.code || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%#v: got %v, want %s naming %q", bad.spec, err, bad.code, bad.says)
		}
	}
}

func TestParseModelConfigReadsTheNodeShapesAndNamesAnUnknownProperty(t *testing.T) {
	for raw, want := range map[string]ModelSpec{
		`"openai/gpt-4.1"`: ModelName("openai/gpt-4.1"),
		`{"modelName":"llama3","baseURL":"http://127.0.0.1:11434/v1","openaiEndpointFormat":"chat"}`: &ModelConfig{ModelName: "llama3",
			BaseURL: "http://127.0.0.1:11434/v1", OpenAIEndpointFormat: "chat"},
		`{"modelName":"llama3","baseURL":"http://127.0.0.1:11434/v1","structuredOutput":"json_object","vision":false}`: &ModelConfig{ModelName: "llama3",
			BaseURL: "http://127.0.0.1:11434/v1", StructuredOutput: "json_object", Vision: Bool(false)},
		`{"provider":"vertex","modelName":"gemini-2.5-flash","auth":{"type":"service_account","client_email":"sa@p","private_key":"PK","project_id":"p"},` +
			`"providerOptions":{"vertex":{"project":"p","location":"us-central1"}}}`: &VertexModelConfig{ModelName: "gemini-2.5-flash", Project: "p",
			Location: "us-central1", Credentials: ServiceAccount{ClientEmail: "sa@p", PrivateKey: "PK"}},
		`{"provider":"azure","modelName":"d","resourceName":"r","auth":{"type":"azureEntraId","token":"t"}}`: &AzureModelConfig{ModelName: "d",
			ResourceName: "r", EntraToken: "t"},
	} {
		got, err := ParseModelConfig([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("%s:\n got %s\nwant %s", raw, g, w)
		}
	}
	for raw, prop := range map[string]string{
		`{"modelName":"openai/x","apiKey":"k","temperature":0}`:              "temperature",
		`{"provider":"azure","modelName":"d","apiKey":"k","deployment":"x"}`: "deployment",
		`{"provider":"vertex","modelName":"g","auth":{"clientEmail":"e","privateKey":"k","extra":1},` +
			`"providerOptions":{"vertex":{"project":"p","location":"l"}}}`: "extra",
	} {
		_, err := ParseModelConfig([]byte(raw))
		if codeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "'"+prop+"'") {
			t.Errorf("%s: got %v, want INVALID_ARGUMENT naming '%s'", raw, err, prop)
		}
	}
}

func TestLoggingWritesJSONLinesWhenThereIsNoFunc(t *testing.T) {
	var buf bytes.Buffer
	b, _ := fakeBrowser()
	c, err := Create(context.Background(), CreateOptions{Browser: b, Logging: &LoggingOptions{Level: "info", Format: "json", Writer: &buf}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b.link.peer.receive([]byte(`{"kind":"req","id":1,"method":"log","params":{"level":"debug","message":"hidden"}}`))
	b.link.peer.receive([]byte(`{"kind":"req","id":2,"method":"log","params":{"level":"warn","message":"slow page","data":{"ms":900}}}`))
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(buf.String(), "slow page") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	var line struct {
		Level, Message, Timestamp string
		Data                      map[string]any
	}
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &line); err != nil || line.Level != "warn" || line.Message != "slow page" ||
		line.Data["ms"] != 900.0 || line.Timestamp == "" {
		t.Fatalf("%v: %q", err, buf.String())
	}
	if _, err := Create(context.Background(), CreateOptions{Browser: b, Logging: &LoggingOptions{Format: "xml"}}); codeOf(err) != CodeInvalidArgument {
		t.Fatalf("a bad format: %v", err)
	}
}
