package deckhand

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var (
	schemaOnce   sync.Once
	schemaC      *jsonschema.Compiler
	schemaTables struct {
		Methods       map[string]struct{ Params, Result string } `json:"methods"`
		ClientMethods map[string]struct{ Params, Result string } `json:"clientMethods"`
	}
	compiled = map[string]*jsonschema.Schema{}
	compMu   sync.Mutex
)

const schemaURL = "file:///deckhand.schema.json"

// definition compiles one definition of schema/deckhand.schema.json.
func definition(t *testing.T, ref string) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		raw, err := os.ReadFile(filepath.Join(repoRoot(t), "schema", "deckhand.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
		if err != nil {
			t.Fatal(err)
		}
		schemaC = jsonschema.NewCompiler()
		if err := schemaC.AddResource(schemaURL, doc); err != nil {
			t.Fatal(err)
		}
		var x struct {
			X json.RawMessage `json:"x-deckhand"`
		}
		json.Unmarshal(raw, &x)
		json.Unmarshal(x.X, &schemaTables)
	})
	compMu.Lock()
	defer compMu.Unlock()
	if s, ok := compiled[ref]; ok {
		return s
	}
	s, err := schemaC.Compile(schemaURL + ref)
	if err != nil {
		t.Fatal(err)
	}
	compiled[ref] = s
	return s
}

func validate(t *testing.T, ref string, raw string) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if err := definition(t, ref).Validate(v); err != nil {
		t.Errorf("%s does not fit %s: %v", raw, ref, err)
	}
}

// checkRequestFrame validates a request frame the client sent: the frame, then its params.
func checkRequestFrame(t *testing.T, frame string, clientMethod bool) {
	t.Helper()
	validate(t, "#/definitions/RpcMessage", frame)
	var f struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	json.Unmarshal([]byte(frame), &f)
	tables := schemaTables.Methods
	if clientMethod {
		tables = schemaTables.ClientMethods
	}
	if m, ok := tables[f.Method]; ok {
		validate(t, m.Params, string(f.Params))
	} else if !clientMethod {
		t.Errorf("no method %s in the schema", f.Method)
	}
}

func TestTheFramesTheClientSendsAndAnswersFitTheJSONSchema(t *testing.T) {
	noProviderKeys(t)
	definition(t, "#/definitions/RpcMessage")
	var calls struct {
		Cases []struct {
			Name   string          `json:"name"`
			Frame  string          `json:"frame"`
			Answer json.RawMessage `json:"answer"`
		} `json:"cases"`
	}
	loadVectors(t, "calls.json", &calls)
	for _, c := range calls.Cases {
		frame := strings.NewReplacer("%ID%", "1", "%OPID%", "o", "%CALLBACK%", "c").Replace(c.Frame)
		checkRequestFrame(t, frame, false)
		var f struct {
			Method string `json:"method"`
		}
		json.Unmarshal([]byte(frame), &f)
		validate(t, schemaTables.Methods[f.Method].Result, string(c.Answer))
	}
	var client struct {
		Cases []struct {
			Exchanges [][2]string `json:"exchanges"`
		} `json:"cases"`
	}
	loadVectors(t, "client-calls.json", &client)
	for _, c := range client.Cases {
		for _, ex := range c.Exchanges {
			validate(t, "#/definitions/RpcMessage", ex[1])
			var res struct {
				Kind   string          `json:"kind"`
				Result json.RawMessage `json:"result"`
			}
			json.Unmarshal([]byte(ex[1]), &res)
			var req struct {
				Method string `json:"method"`
			}
			json.Unmarshal([]byte(ex[0]), &req)
			if m, ok := schemaTables.ClientMethods[req.Method]; ok && res.Kind == "res" {
				validate(t, m.Result, string(res.Result))
			}
		}
	}
}
