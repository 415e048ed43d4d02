package deckhand

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The Go types are checked against schema/deckhand.schema.json: every json field of a type is
// a property of its definition, and every property of the definition is a field (except the
// ones listed as not carried by the Go type).
func TestTypesMatchTheJSONSchema(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "schema", "deckhand.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Definitions map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Enum       []string                   `json:"enum"`
			Items      struct {
				Enum []string `json:"enum"`
			} `json:"items"`
		} `json:"definitions"`
		X struct {
			ChromiumFlags       []string `json:"chromiumFlags"`
			SharedChromiumFlags []string `json:"sharedChromiumFlags"`
		} `json:"x-deckhand"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ErrorCodes, s.Definitions["ErrorCode"].Enum) {
		t.Errorf("ErrorCodes differ from the schema: run go generate")
	}
	if !reflect.DeepEqual(chromiumFlags, s.X.ChromiumFlags) {
		t.Errorf("chromiumFlags differ from the schema's x-deckhand.chromiumFlags: run go generate")
	}
	if !reflect.DeepEqual(optionalURLSchemes, s.Definitions["AllowSchemes"].Items.Enum) {
		t.Errorf("optionalURLSchemes differ from the schema's AllowSchemes: run go generate")
	}
	if !reflect.DeepEqual(sharedChromiumFlags, s.X.SharedChromiumFlags) {
		t.Errorf("sharedChromiumFlags differ from the schema's x-deckhand.sharedChromiumFlags: run go generate")
	}
	status := []string{string(CacheHit), string(CacheMiss), string(CacheDisabled)}
	if !reflect.DeepEqual(status, s.Definitions["CacheStatus"].Enum) {
		t.Errorf("CacheStatus %v, schema %v", status, s.Definitions["CacheStatus"].Enum)
	}
	for _, c := range []struct {
		def     string
		v       any
		missing []string // schema properties the Go type leaves out, on purpose
	}{
		{"Action", Action{}, nil},
		{"Usage", Usage{}, nil},
		{"CacheInfo", CacheInfo{}, nil},
		{"ResultMetadata", ResultMetadata{}, nil},
		{"ActResult", ActResult{}, nil},
		{"ObserveResult", ObserveResult{}, nil},
		{"ExtractResult", ExtractResult[any]{}, nil},
		{"Metrics", Metrics{}, nil},
		{"PageInfo", PageInfo{}, nil},
		{"LocatorSpec", LocatorSpec{}, nil},
		{"ModelRequest", ModelRequest{}, nil},
		{"ModelReply", ModelReply{}, nil},
		{"OutlineLine", OutlineLine{}, nil},
		{"CacheEntry", CacheEntry{}, nil},
		{"CacheRecordRequest", CacheRecord{}, nil},
		{"Error", Error{}, nil},
		{"GenericModelConfig", ModelConfig{}, nil},
		{"ActionTarget", ActionTarget{}, nil},
		{"Flow", Flow{}, nil},
		{"QaRecording", QaRecording{}, nil},
		{"FlowSummary", FlowSummary{}, nil},
		{"FlowStepOutcome", FlowStepOutcome{}, nil},
		{"FlowReplayResult", FlowReplayResult{}, nil},
	} {
		d, ok := s.Definitions[c.def]
		if !ok {
			t.Errorf("no definition %s", c.def)
			continue
		}
		var want []string
		for k := range d.Properties {
			if !contains(c.missing, k) {
				want = append(want, k)
			}
		}
		sort.Strings(want)
		got := jsonFields(reflect.TypeOf(c.v))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Go fields %v, schema properties %v", c.def, got, want)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if tag == "" || tag == "-" || !f.IsExported() {
			continue
		}
		out = append(out, tag)
	}
	sort.Strings(out)
	return out
}

// QaStep is one Go type for the schema's six kinds of step: its fields are theirs together.
func TestTypesQaStepHasEveryKindsFields(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "schema", "deckhand.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Definitions struct {
			QaStep struct {
				AnyOf []struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"anyOf"`
			} `json:"QaStep"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range s.Definitions.QaStep.AnyOf {
		for k := range m.Properties {
			seen[k] = true
		}
	}
	var want []string
	for k := range seen {
		want = append(want, k)
	}
	sort.Strings(want)
	if got := jsonFields(reflect.TypeOf(QaStep{})); len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("QaStep: Go fields %v, the kinds' properties %v", got, want)
	}
}
