package deckhand

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The hand-written Go types are checked against schema/deckhand.schema.json: every json field of
// a type is a property of its definition, and every property of the definition is a field
// (except the ones listed as not carried by the Go type). The wire types are generated.
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
		{"CacheEntry", CacheEntry{}, nil},
		{"CacheRecordRequest", CacheRecord{}, nil},
		{"Error", Error{}, nil},
		{"GenericModelConfig", ModelConfig{}, nil},
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

// The generated files are what the generator writes from today's schema: a changed schema with
// no `go generate` fails here.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("go", "run", "./internal/gencodes", "-out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gencodes: %v\n%s", err, out)
	}
	for _, f := range []string{"codes_gen.go", "types_gen.go", "calls_gen.go"} {
		want, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is stale: run `go generate ./...` in go/", f)
		}
	}
}

// A variable's value is a string, a bool or a finite number; anything else is refused by name.
