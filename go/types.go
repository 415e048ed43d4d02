package deckhand

// The option types a caller fills in; the wire types are generated (types_gen.go).

// Variable is a value substituted for %name% in an instruction; Description tells the model
// what it is without showing the value. Value is a string, a bool or a number of any Go numeric
// type (filled in as its text: true, 3, 2.5); the worker refuses anything else (INVALID_ARGUMENT).
type Variable struct {
	Value       any    `json:"value"`
	Description string `json:"description,omitempty"`
}
