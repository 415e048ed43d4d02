package deckhand

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"strings"
)

// AgentOptions configure Client.Agent (nil: the client's model and system prompt, no tools).
type AgentOptions struct {
	// Provider, "openai" or "anthropic", prefixes a ModelName given without a provider.
	Provider string
	// Model is the agent's model (nil: the client's).
	Model ModelSpec
	// Instructions are the run's instructions (its system prompt; default the client's).
	Instructions string
	// Options are the settings of a model given by name.
	Options *AgentModelOptions
	// Tools are the agent's own tools, by name: the model may call them, and they run here.
	Tools map[string]AgentTool
}

// AgentModelOptions are the settings of an agent's model given by name.
type AgentModelOptions struct {
	APIKey       string `json:"apiKey,omitempty"`
	BaseURL      string `json:"baseURL,omitempty"`
	Organization string `json:"organization,omitempty"`
}

// AgentTool is a tool of the caller's own for the agent. Tool makes one with a typed input.
type AgentTool struct {
	// Description tells the model what the tool does (default: its name).
	Description string
	// InputSchema is the JSON Schema of the tool's input (nil: any object).
	InputSchema json.RawMessage
	// Execute runs the tool on the model's input; a string is sent back as it is, any other
	// value as JSON. An error is reported to the model as the tool's failure.
	Execute func(ctx context.Context, input json.RawMessage) (any, error)
}

// Tool is an AgentTool whose input is decoded into In, its JSON Schema derived from In (as
// SchemaOf does).
func Tool[In any](description string, execute func(ctx context.Context, input In) (any, error)) AgentTool {
	schema, err := SchemaOf[In]()
	return AgentTool{
		Description: description,
		InputSchema: schema,
		Execute: func(ctx context.Context, raw json.RawMessage) (any, error) {
			if err != nil {
				return nil, err
			}
			var in In
			if err := json.Unmarshal(orNull(raw), &in); err != nil {
				return nil, newError(CodeInvalidArgument, "the tool's input does not fit %T: %v", in, err)
			}
			return execute(ctx, in)
		},
	}
}

// Agent runs the autonomous agent: made by Client.Agent, run with Execute.
type Agent struct {
	c            *Client
	model        ModelSpec // nil: the client's
	instructions string
	tools        map[string]AgentTool
	err          error // why the configuration cannot be used; Execute returns it
}

// Agent is the earlier agent interface: a configuration that Execute runs on the active page
// (or ExecuteOptions.Page). A configuration that cannot be used (an unknown provider, a bad
// model) makes Execute fail with CodeInvalidArgument before anything is sent.
func (c *Client) Agent(opts *AgentOptions) *Agent {
	a := &Agent{c: c}
	if opts == nil {
		return a
	}
	a.instructions, a.tools = opts.Instructions, opts.Tools
	a.model, a.err = agentModel(opts)
	if a.err == nil && a.model != nil {
		_, a.err = resolveModel(a.model, nil)
	}
	for name, t := range opts.Tools {
		if a.err == nil && t.Execute == nil {
			a.err = newError(CodeInvalidArgument, "invalid agent configuration: tool '%s' needs Execute", name)
		}
	}
	return a
}

// agentModel is the model an agent configuration names (nil: the client's).
func agentModel(o *AgentOptions) (ModelSpec, error) {
	if o.Provider != "" && o.Provider != "openai" && o.Provider != "anthropic" {
		return nil, newError(CodeInvalidArgument, "invalid agent configuration: provider must be 'openai' or 'anthropic', got '%s'", o.Provider)
	}
	if isNilValue(o.Model) {
		if o.Options != nil {
			return nil, newError(CodeInvalidArgument, "invalid agent configuration: Options (APIKey, BaseURL, Organization) go with a Model name")
		}
		return nil, nil
	}
	name, ok := o.Model.(ModelName)
	if !ok {
		if o.Options != nil {
			return nil, newError(CodeInvalidArgument,
				"invalid agent configuration: Options go with a Model name, not a %T (give the settings in the model itself)", o.Model)
		}
		return o.Model, nil
	}
	n := strings.TrimSpace(string(name))
	if n == "" {
		return nil, newError(CodeInvalidArgument, "invalid agent configuration: model must be a non-empty model name such as 'openai/gpt-4.1'")
	}
	if o.Provider != "" && !strings.Contains(n, "/") {
		n = o.Provider + "/" + n
	}
	opt := o.Options
	if opt == nil || (opt.APIKey == "" && opt.BaseURL == "" && opt.Organization == "") {
		return ModelName(n), nil
	}
	m := &ModelConfig{ModelName: n, APIKey: opt.APIKey, BaseURL: opt.BaseURL}
	if opt.Organization != "" {
		m.Headers = map[string]string{"OpenAI-Organization": opt.Organization}
	}
	return m, nil
}

// Execute runs the agent on instruction until it is done or out of steps. Cancelling ctx stops
// the run in the worker too.
func (a *Agent) Execute(ctx context.Context, instruction string, opts *ExecuteOptions) (*AgentResult, error) {
	if a == nil || a.c == nil {
		return nil, newError(CodeInvalidArgument, "no agent: make one with Client.Agent")
	}
	if a.err != nil {
		return nil, a.err
	}
	c := a.c
	o := ExecuteOptions{}
	if opts != nil {
		o = *opts
	}
	if err := c.checkPage(o.Page); err != nil {
		return nil, err
	}
	model, err := c.defaultModel(a.model)
	if err != nil {
		return nil, err
	}
	p := object{{"instruction", instruction}, {"model", model}, {"executionModel", model}}.with("systemPrompt", cmp.Or(a.instructions, c.o.SystemPrompt))
	p = p.with("maxSteps", o.MaxSteps).with("approval", c.approvalFor(o.Approval))
	if o.Page != nil {
		p = append(p, kv{"page", o.Page.id})
	}
	opID := uuid4()
	p = p.with("opId", opID).with("saveAs", o.SaveAs).with("context", o.Context).with("waitBetweenActions", ms(o.WaitBetweenActions))
	p = p.with("autoScreenshot", o.AutoScreenshot != nil && *o.AutoScreenshot)
	var tools []object
	for name, t := range a.tools {
		schema := t.InputSchema
		if schema == nil {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		tools = append(tools, object{{"name", name}, {"description", cmp.Or(t.Description, name)}, {"inputSchema", schema}})
	}
	p = p.with("extraTools", tools).with("allowSchemes", c.browser.allowURLSchemes)
	defer c.withApprover(opID, o.OnApproval)()
	c.mu.Lock()
	maps.Copy(c.tools, a.tools)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		for name := range a.tools {
			delete(c.tools, name)
		}
		c.mu.Unlock()
	}()
	r, err := invoke[struct {
		Result *AgentResult `json:"result"`
	}](ctx, c, "agent.run", p, opID)
	if err != nil {
		return nil, err
	}
	return r.Result, nil
}

// toolCall runs one of a running agent's own tools for the worker.
func (c *Client) toolCall(ctx context.Context, req *struct {
	Name  string
	Input json.RawMessage
}) (any, error) {
	c.mu.Lock()
	t, ok := c.tools[req.Name]
	c.mu.Unlock()
	if !ok {
		return nil, newError(CodeInvalidArgument, "no tool '%s' is registered with this client", req.Name)
	}
	out, err := t.Execute(ctx, req.Input)
	if err != nil {
		return nil, err
	}
	s, isText := out.(string)
	if !isText {
		b, err := marshalJS(out)
		if err != nil {
			return nil, newError(CodeInvalidArgument, "tool '%s' returned a value that is not JSON: %v", req.Name, err)
		}
		s = string(b)
	}
	return object{{"output", s}}, nil
}
