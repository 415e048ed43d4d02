package deckhand

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"

	"github.com/invopop/jsonschema"
)

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// SchemaOf is the JSON Schema Extract sends for T, derived with github.com/invopop/jsonschema
// (inlined, no $ref; field names from json tags; `jsonschema:"description=..."` tags carry
// descriptions). T = json.RawMessage or an interface type gives nil: no schema.
func SchemaOf[T any]() (json.RawMessage, error) {
	return schemaOfType(reflect.TypeOf((*T)(nil)).Elem())
}

// schemaOfType is SchemaOf for a type known at run time.
func schemaOfType(t reflect.Type) (json.RawMessage, error) {
	if t == rawMessageType || t.Kind() == reflect.Interface {
		return nil, nil
	}
	r := &jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, Anonymous: true, AllowAdditionalProperties: true}
	s := r.ReflectFromType(t)
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, newError(CodeInvalidArgument, "no JSON Schema for %s: %v", t, err)
	}
	node, err := parseOrdered(raw)
	if err != nil {
		return nil, newError(CodeInvalidArgument, "no JSON Schema for %s: %v", t, err)
	}
	out, err := marshalJS(tidySchema(node, true))
	if err != nil {
		return nil, err
	}
	return out, nil
}

// keyRank orders a schema's keywords as people write them (type, properties, required, ...).
var keyRank = map[string]int{"type": 0, "description": 1, "properties": 2, "required": 3, "items": 4, "enum": 5}

// tidySchema drops $schema and $id and puts keywords in a readable order.
func tidySchema(n any, top bool) any {
	switch v := n.(type) {
	case object:
		var out object
		for _, m := range v {
			if top && (m.k == "$schema" || m.k == "$id") {
				continue
			}
			if m.k == "properties" {
				var props object
				if po, ok := m.v.(object); ok {
					for _, p := range po {
						props = append(props, kv{p.k, tidySchema(p.v, false)})
					}
				}
				out = append(out, kv{m.k, props})
				continue
			}
			out = append(out, kv{m.k, tidySchema(m.v, false)})
		}
		sort.SliceStable(out, func(i, j int) bool { return rank(out[i].k) < rank(out[j].k) })
		return out
	case []any:
		for i := range v {
			v[i] = tidySchema(v[i], false)
		}
		return v
	}
	return n
}

func rank(k string) int {
	if r, ok := keyRank[k]; ok {
		return r
	}
	return 100
}

// parseOrdered reads JSON keeping object member order (objects as `object`).
func parseOrdered(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return readValue(dec)
}

func readValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch d := tok.(type) {
	case json.Delim:
		switch d {
		case '{':
			o := object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				o = append(o, kv{kt.(string), v})
			}
			_, err := dec.Token()
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
	}
	return tok, nil
}
