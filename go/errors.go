//go:generate go run ./internal/gencodes

package deckhand

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Error is every Deckhand failure: Code is one of the Code* constants (the same codes the Node
// client uses), Message says what went wrong and Data carries details (e.g. a batch's stack).
// Read it with errors.As:
//
//	var de *deckhand.Error
//	if errors.As(err, &de) && de.Code == deckhand.CodeElementNotFound {
//		// ...
//	}
//
// or match a code alone with errors.Is(err, &deckhand.Error{Code: deckhand.CodeTimeout}).
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Is lets errors.Is(err, &deckhand.Error{Code: deckhand.CodeTimeout}) match by code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && (t.Message == "" || t.Message == e.Message)
}

// Stack is the JavaScript stack of a BATCH_FAILED error, when the worker sent it.
func (e *Error) Stack() string {
	s, _ := e.Data["stack"].(string)
	return s
}

func newError(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// errorFromWire rebuilds an error received as {code, message, data?}; an unknown code (a newer
// worker's) is read as INTERNAL, as the Node client does.
func errorFromWire(raw json.RawMessage) *Error {
	var w struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return newError(CodeInternal, "a malformed error arrived: %s", raw)
	}
	if !slices.Contains(ErrorCodes, w.Code) {
		w.Code = CodeInternal
	}
	return &Error{Code: w.Code, Message: w.Message, Data: w.Data}
}
