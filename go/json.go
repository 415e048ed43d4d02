package deckhand

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// marshalJS writes v as JavaScript's JSON.stringify writes it: no spaces, no HTML escaping,
// U+2028 and U+2029 as they are. Struct fields keep their declared order and json.RawMessage
// values keep theirs, so frames match the Node client's byte for byte.
func marshalJS(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b, nil
	}
	// encoding/json escapes U+2028/U+2029; JSON.stringify does not.
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			if b[i+1] == 'u' && i+5 < len(b) && string(b[i+2:i+5]) == "202" && (b[i+5] == '8' || b[i+5] == '9') {
				if b[i+5] == '8' {
					out = append(out, "\u2028"...)
				} else {
					out = append(out, "\u2029"...)
				}
				i += 5
				continue
			}
			out = append(out, b[i], b[i+1])
			i++
			continue
		}
		out = append(out, b[i])
	}
	return out, nil
}

// isNilValue is true for nil and for a nil pointer, map or slice inside an interface.
func isNilValue(v any) bool {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Invalid:
		return true
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return r.IsNil()
	}
	return false
}
