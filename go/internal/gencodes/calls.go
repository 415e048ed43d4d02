package main

// calls.go writes calls_gen.go: the client's methods that follow from a declaration alone.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"strings"
)

// optionType is a public option type whose fields are parameters of the method it configures: Go
// names the type, says what it configures and picks the parameters ("Definition.property", in
// Go's order); their docs are the schema's descriptions. Callbacks, which no wire shape carries,
// are Go's own fields (goOnly).
type optionType struct {
	name, configures string
	fields           []string
	goOnly           []string
	tags             bool // the type is written as its wire object
}

var optionTypes = []optionType{
	{"ActOptions", "Act", []string{"ActRequest.cache", "OperationOptions.ignoreLocators", "OperationOptions.locator", "OperationOptions.model",
		"OperationOptions.timeout", "OperationOptions.variables", "OperationOptions.page", "OperationOptions.domSettleTimeoutMs",
		"OperationOptions.approval", "OperationOptions.idempotencyKey"}, []string{"onApproval"}, false},
	{"ExtractOptions", "Extract", []string{"ExtractRequest.cache", "OperationOptions.ignoreLocators", "OperationOptions.locator",
		"OperationOptions.model", "OperationOptions.timeout", "OperationOptions.variables", "OperationOptions.page",
		"OperationOptions.domSettleTimeoutMs", "OperationOptions.screenshot", "OperationOptions.iframes", "OperationOptions.idempotencyKey"}, nil, false},
	{"ExecuteOptions", "Agent.Execute", []string{"AgentRunParams.maxSteps", "AgentRunParams.autoScreenshot", "AgentRunParams.waitBetweenActions",
		"AgentRunParams.context", "AgentRunParams.saveAs", "AgentRunParams.page", "AgentRunParams.approval"}, []string{"onApproval"}, false},
	{"BatchOptions", "ExperimentalBatch", []string{"BatchRunParams.timeout", "BatchRunParams.page", "BatchRunParams.approval"},
		[]string{"onApproval"}, false},
	{"GotoOptions", "Goto", []string{"OperationOptions.page", "GotoOptions.waitUntil", "GotoOptions.timeout"}, nil, false},
	{"CallToolOptions", "Page.CallTool", []string{"PageCallToolParams.timeout", "PageCallToolParams.approval"}, nil, false},
	{"ScreenshotOptions", "Page.Screenshot", []string{"ScreenshotOptions.type", "ScreenshotOptions.quality", "ScreenshotOptions.fullPage"},
		[]string{"path"}, true},
	{"ReplayOptions", "Replay and ReplayFlow", []string{"FlowReplayParams.variables", "FlowReplayParams.page", "FlowReplayParams.model",
		"FlowReplayParams.stepTimeout", "FlowReplayParams.timeout"}, []string{"useClientModel"}, false},
	{"ApprovalPolicy", "", []string{"ApprovalPolicy.when", "ApprovalPolicy.words", "ApprovalPolicy.timeout"}, nil, true},
	{"NewPageOptions", "NewPage", []string{"ContextNewPageParams.timeout"}, nil, false},
	{"EvaluateOptions", "Evaluate and EvaluateFunction", []string{"PageEvaluateParams.timeout"}, nil, false},
	{"ActionOptions", "a locator's action or a key press", []string{"LocatorActParams.timeout"}, nil, false},
	{"SnapshotOptions", "Snapshot", []string{"SnapshotOptions.locator", "SnapshotOptions.ignoreLocators", "SnapshotOptions.budget",
		"SnapshotOptions.timeout"}, nil, false},
}

// goOnly are the fields no wire shape carries, with their Go types and docs.
var goOnly = map[string][2]string{
	"onApproval":     {"ApprovalFunc", "the handler that decides the call's steps that wait (nil: the client's OnApproval)"},
	"path":           {"string", "a file the image is also written to"},
	"useClientModel": {"bool", "whether the client's own model (CreateOptions.Model or Generate) is sent as Model"},
}

// optionRefs are the Go types of the shared shapes in an option type.
var optionRefs = map[string]string{
	"TimeoutMs": "time.Duration", "WaitMs": "time.Duration", "PageId": "*Page", "LocatorSpec": "*Locator", "ModelParam": "ModelSpec",
	"Variables": "map[string]Variable", "ApprovalPolicy": "*ApprovalPolicy", "CacheCallOption": "*CacheOption", "FlowName": "string",
	"ApprovalKind": "ApprovalKind",
}

// optionField is a parameter's Go type in an option type: a deadline is a time.Duration, a number
// whose zero means something (a quality of 0) a pointer, as are milliseconds kept as such.
func optionField(f, name string, p *schemaNode) string {
	if p.Ref != "" {
		t := optionRefs[strings.TrimPrefix(p.Ref, "#/definitions/")]
		if t == "time.Duration" && strings.HasSuffix(name, "Ms") {
			return "*int"
		}
		if t != "" {
			return t
		}
	}
	switch {
	case p.Type == "array" && p.Items.Ref != "":
		return "[]" + optionRefs[strings.TrimPrefix(p.Items.Ref, "#/definitions/")]
	case p.Type == "array" && p.Items.Type == "string":
		return "[]string"
	case p.Type == "integer" && name == "Timeout":
		return "time.Duration"
	case p.Type == "integer" && p.Minimum != nil && *p.Minimum == 0:
		return "*int"
	case p.Type == "integer":
		return "int"
	case p.Type == "boolean" && f == "AgentRunParams.autoScreenshot":
		return "*bool" // unset and false were told apart once; the type stays
	case p.Type == "boolean":
		return "bool"
	case p.Type == "string":
		return "string"
	}
	log.Fatalf("%s: no option field type for %+v", name, p)
	return ""
}

func writeOptionTypes(b *bytes.Buffer, raw []byte) {
	var s struct {
		Definitions map[string]*schemaNode `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		log.Fatal(err)
	}
	var durations []string
	field := func(t optionType, k, goType, desc string, wire bool) {
		b.WriteString("\t" + wrap("// "+goField(k)+" is "+desc+".", "\t// "))
		tag := ""
		if t.tags && goType == "time.Duration" {
			durations = append(durations, goField(k)+" float64 `json:\""+k+",omitempty\"`")
			tag = " `json:\"-\"`"
		} else if t.tags && wire {
			tag = fmt.Sprintf(" `json:\"%s,omitempty\"`", k)
		} else if t.tags {
			tag = " `json:\"-\"`"
		}
		fmt.Fprintf(b, "\t%s %s%s\n", goField(k), goType, tag)
	}
	for _, t := range optionTypes {
		durations = nil
		if t.configures == "" {
			b.WriteString("\n" + doc(t.name, s.Definitions[t.name].Description, "") + "type " + t.name + " struct {\n")
		} else {
			fmt.Fprintf(b, "\n// %s configure %s (nil for defaults).\ntype %s struct {\n", t.name, t.configures, t.name)
		}
		for _, f := range t.fields {
			def, k, _ := strings.Cut(f, ".")
			var p *schemaNode
			if d := s.Definitions[def]; d != nil {
				p = d.Properties.values[k]
			}
			if p != nil && p.Description == "" && p.Ref != "" {
				p.Description = s.Definitions[strings.TrimPrefix(p.Ref, "#/definitions/")].Description
			}
			if p == nil || p.Description == "" {
				log.Fatalf("%s: %s has no description", t.name, f)
			}
			field(t, k, optionField(f, goField(k), p), p.Description, true)
		}
		for _, k := range t.goOnly {
			field(t, k, goOnly[k][0], goOnly[k][1], false)
		}
		b.WriteString("}\n")
		if len(durations) > 0 {
			var values []string
			for _, d := range durations {
				n, _, _ := strings.Cut(d, " ")
				values = append(values, "ms(o."+n+")")
			}
			fmt.Fprintf(b, "\n// MarshalJSON writes the %s as the worker reads it: durations in milliseconds.\n", t.name)
			fmt.Fprintf(b, "func (o %s) MarshalJSON() ([]byte, error) {\n\ttype plain %s\n\treturn marshalJS(struct {\n\t\tplain\n", t.name, t.name)
			fmt.Fprintf(b, "\t\t%s\n\t}{plain(o), %s})\n}\n", strings.Join(durations, "\n\t\t"), strings.Join(values, ", "))
		}
	}
}

func writeCalls(raw []byte) []byte {
	var s struct {
		X struct {
			LocatorMethods map[string]struct {
				Action string `json:"action"`
				Arg    string `json:"arg"`
				List   bool   `json:"list"`
				Doc    string `json:"doc"`
			} `json:"locatorMethods"`
		} `json:"x-deckhand"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		log.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/gencodes from schema/deckhand.schema.json (x-deckhand.locatorMethods, " +
		"the params of the methods whose option types are here); DO NOT EDIT.\n\npackage deckhand\n\n" +
		"import (\n\t\"context\"\n\t\"time\"\n)\n\n// The option types: the parameters of the methods they configure, and the callbacks no wire shape carries.\n")
	writeOptionTypes(&b, raw)
	b.WriteString("\n// The locator methods that send one action.\n")
	for _, name := range sortedKeys(s.X.LocatorMethods) {
		m := s.X.LocatorMethods[name]
		goName, param, args := goField(name), "", "nil"
		switch {
		case m.List:
			param, args = m.Arg+" []string, ", m.Arg
		case m.Arg != "":
			param, args = m.Arg+" string, ", "[]string{"+m.Arg+"}"
		}
		b.WriteString("\n" + wrap("// "+goName+" "+m.Doc+".", "// "))
		fmt.Fprintf(&b, "func (l *Locator) %s(ctx context.Context, %sopts *ActionOptions) error {\n\treturn l.act(ctx, %q, %s, opts)\n}\n",
			goName, param, m.Action, args)
	}
	return b.Bytes()
}
