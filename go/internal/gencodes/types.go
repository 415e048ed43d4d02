package main

// types.go writes types_gen.go: the wire types the Go client reads and writes, from their
// definitions in schema/deckhand.schema.json (the zod schemas in src/protocol, through
// scripts/gen-schema.ts). Only Go's choices live here: which definitions become types, the Go
// names of nested objects, and how optional fields are spelled.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"sort"
	"strings"
	"unicode"
)

// wireType is one generated type.
type wireType struct {
	name string // Go name
	def  string // schema definition
	// nested names the Go types of inline objects, by property (or "property[]" for array items).
	nested map[string]string
	// generic makes this property's type the type parameter T (a result decoded into the caller's type).
	generic string
	// maps are the open-object properties read as map[string]any rather than left raw.
	maps []string
	// written marks a type the caller fills in: optional numbers are plain values left out
	// when zero, and an open value is `any`, so a caller can write a literal.
	written bool
	// skip are properties Go never sends nor reads.
	skip []string
	// variants, instead of def, are definitions read as one type: their properties merged.
	variants []string
}

var wireTypes = []wireType{
	{name: "Action", def: "Action"},
	{name: "ActionTarget", def: "ActionTarget"},
	{name: "Usage", def: "Usage"},
	{name: "CacheStatus", def: "CacheStatus"},
	{name: "CacheInfo", def: "CacheInfo", nested: map[string]string{"tokensSaved": "TokensSaved"}},
	{name: "ResultMetadata", def: "ResultMetadata"},
	{name: "ActResult", def: "ActResult", nested: map[string]string{"data": "ActData"}},
	{name: "ObserveResult", def: "ObserveResult"},
	{name: "ExtractResult", def: "ExtractResult", generic: "data"},
	{name: "Metrics", def: "Metrics"},
	{name: "PageInfo", def: "PageInfo"},
	{name: "LocatorSpec", def: "LocatorSpec"},
	{name: "OutlineLine", def: "OutlineLine"},
	{name: "ModelRequest", def: "ModelRequest", nested: map[string]string{"images[]": "ModelImage"}},
	{name: "PageTool", def: "PageTool"},
	{name: "PageToolsResult", def: "PageToolsResult"},
	{name: "CallToolResult", def: "CallToolResult"},
	{name: "ModelReply", def: "ModelReply", nested: map[string]string{"usage": "ReplyUsage"}, written: true},
	{name: "Flow", def: "Flow"},
	{name: "QaRecording", def: "QaRecording"},
	{name: "QaStep", def: "QaStep"},
	{name: "FlowSummary", def: "FlowSummary"},
	{name: "FlowStepOutcome", def: "FlowStepOutcome"},
	{name: "FlowReplayResult", def: "FlowReplayResult"},
	{name: "SnapshotResult", def: "SnapshotResult"},
	{name: "AgentStep", def: "AgentStep", maps: []string{"action"}},
	{name: "AgentUsage", def: "AgentUsage"},
	{name: "AgentResult", def: "AgentResult", maps: []string{"metadata"}},
	{name: "ApprovalRequest", def: "ApprovalRequest"},
	{name: "vertexWire", def: "VertexModelConfig", written: true,
		nested: map[string]string{"providerOptions": "vertexOptions", "providerOptions.vertex": "vertexPlace"}},
	{name: "azureWire", variants: []string{"AzureApiKeyModelConfig", "AzureEntraModelConfig"}, written: true,
		nested: map[string]string{"auth": "azureAuth"}},
	{name: "wireModel", def: "ResolvedModel", skip: []string{"price"},
		nested: map[string]string{"vertex": "vertexResolved", "azure": "azureResolved", "bedrock": "bedrockResolved"}},
}

// handWritten are the definitions whose Go types are written by hand (a ServiceAccount reads
// Google's key file too).
var handWritten = map[string]string{"ServiceAccount": "ServiceAccount"}

// schemaNode is the part of a JSON Schema node the generator reads.
type schemaNode struct {
	Ref                  string          `json:"$ref"`
	Type                 string          `json:"type"`
	Description          string          `json:"description"`
	Properties           orderedProps    `json:"properties"`
	Required             []string        `json:"required"`
	Items                *schemaNode     `json:"items"`
	AnyOf                []*schemaNode   `json:"anyOf"`
	Enum                 []string        `json:"enum"`
	Const                json.RawMessage `json:"const"`
	ExclusiveMinimum     *float64        `json:"exclusiveMinimum"`
	Minimum              *float64        `json:"minimum"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
}

// orderedProps keeps the properties in the schema's order, which is the zod declaration's.
type orderedProps struct {
	keys   []string
	values map[string]*schemaNode
}

func (o *orderedProps) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	o.values = map[string]*schemaNode{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		k := t.(string)
		var n schemaNode
		if err := dec.Decode(&n); err != nil {
			return err
		}
		o.keys = append(o.keys, k)
		o.values[k] = &n
	}
	return nil
}

type typeGen struct {
	defs   map[string]*schemaNode
	named  map[string]string // definition -> Go name, for $refs
	out    bytes.Buffer
	done   map[string]bool
	nonNil bool // the nonNil helper is written
}

func writeTypes(raw []byte) []byte {
	var s struct {
		Definitions map[string]*schemaNode `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		log.Fatal(err)
	}
	g := &typeGen{defs: s.Definitions, named: map[string]string{}, done: map[string]bool{}}
	for _, t := range wireTypes {
		g.named[t.def] = t.name
	}
	for def, name := range handWritten {
		g.named[def] = name
	}
	g.out.WriteString("// Code generated by internal/gencodes from schema/deckhand.schema.json (its definitions); DO NOT EDIT.\n\n" +
		"package deckhand\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n)\n\n// The wire types, with the schema's names in PascalCase.\n\n")
	for _, t := range wireTypes {
		d, ok := s.Definitions[t.def]
		if t.variants != nil {
			d, ok = &schemaNode{}, true
			for _, v := range t.variants {
				d.AnyOf = append(d.AnyOf, s.Definitions[v])
			}
		}
		if !ok {
			log.Fatalf("no definition %s in the schema", t.def)
		}
		g.typ(t, t.name, "", d)
	}
	return g.out.Bytes()
}

func doc(name, description, fallback string) string {
	d := description
	if d == "" {
		d = fallback
	}
	if d == "" {
		return ""
	}
	return wrap("// "+name+" is "+d+".", "// ")
}

// wrap breaks a comment at about 100 columns.
func wrap(text, prefix string) string {
	var b strings.Builder
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > 100 {
			b.WriteString(line + "\n")
			line = prefix + w
			continue
		}
		if line == "" {
			line = w
		} else {
			line += " " + w
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// typ writes one named type (and, after it, the nested ones it names).
func (g *typeGen) typ(t wireType, name, path string, n *schemaNode) {
	if g.done[name] {
		return
	}
	g.done[name] = true
	if len(n.Enum) > 0 && n.Type == "string" {
		g.out.WriteString(doc(name, n.Description, ""))
		fmt.Fprintf(&g.out, "type %s string\n\nconst (\n", name)
		prefix := strings.TrimSuffix(name, "Status")
		var consts []string
		for _, v := range n.Enum {
			consts = append(consts, prefix+goField(strings.ToLower(v)))
			fmt.Fprintf(&g.out, "\t%s %s = %q\n", consts[len(consts)-1], name, v)
		}
		g.out.WriteString(")\n\n")
		// An answer with a value the schema does not list is refused where it is read.
		fmt.Fprintf(&g.out, "// UnmarshalJSON refuses a value the schema does not list.\nfunc (s *%s) UnmarshalJSON(b []byte) error {\n", name)
		fmt.Fprintf(&g.out, "\tvar v %s\n\tif err := json.Unmarshal(b, (*string)(&v)); err != nil {\n\t\treturn err\n\t}\n", name)
		fmt.Fprintf(&g.out, "\tswitch v {\n\tcase %s:\n\t\t*s = v\n\t\treturn nil\n\t}\n", strings.Join(consts, ", "))
		fmt.Fprintf(&g.out, "\treturn fmt.Errorf(\"'%%s' is not %s\", v)\n}\n\n", strings.Join(n.Enum, ", "))
		return
	}
	props, required, union := flatten(n)
	param := ""
	if t.generic != "" && path == "" {
		param = "[T any]"
	}
	g.out.WriteString(doc(name, n.Description, ""))
	fmt.Fprintf(&g.out, "type %s%s struct {\n", name, param)
	var later []func()
	fields := map[string][2]string{} // property -> Go type, tag
	for _, k := range props.keys {
		if contains(t.skip, k) {
			continue
		}
		p := props.values[k]
		key := k
		if path != "" {
			key = path + "." + k
		}
		desc := p.Description
		if desc == "" && p.Ref != "" {
			// A $ref carries no description of its own: say what the referenced shape says, unless
			// that is a type of its own with its own doc comment.
			def := strings.TrimPrefix(p.Ref, "#/definitions/")
			if _, named := g.named[def]; !named && g.defs[def] != nil {
				desc = g.defs[def].Description
			}
		}
		if desc != "" {
			g.out.WriteString("\t" + wrap("// "+goField(k)+" is "+desc+".", "\t// "))
		}
		var goType string
		if t.generic == key {
			goType = "T"
		} else {
			goType = g.fieldType(t, key, p, &later)
		}
		tag := k
		opt := !contains(required, k)
		if t.generic == key {
			opt = false
		}
		ptr := false
		if opt {
			switch {
			case strings.HasPrefix(goType, "[]"):
				tag += ",omitzero"
			case goType == "any":
			case goType == "float64" || goType == "int" || goType == "bool":
				// A zero that means something needs a pointer; a type the caller fills in, a number
				// of a flattened union (the kind says which are there), or a number that cannot be
				// zero leaves it out instead.
				if t.written || union && goType != "bool" || (p.ExclusiveMinimum != nil && *p.ExclusiveMinimum >= 0) {
					tag += ",omitempty"
				} else {
					ptr = true
					tag += ",omitempty"
				}
			case g.isStruct(goType) || t.nested[key] == goType:
				ptr = true
				tag += ",omitempty"
			default:
				tag += ",omitempty"
			}
		}
		if ptr {
			goType = "*" + goType
		}
		fields[k] = [2]string{goType, tag}
		fmt.Fprintf(&g.out, "\t%s %s `json:%q`\n", goField(k), goType, tag)
	}
	g.out.WriteString("}\n\n")
	if union && path == "" && t.variants == nil {
		g.unionMarshal(t, name, n, fields)
	}
	for _, f := range later {
		f()
	}
}

// unionMarshal writes MarshalJSON for a flattened union whose variants a constant kind tells
// apart: each kind is written with its own fields, in its variant's order, the required ones
// always (a nil list as []); an unknown kind is written with what it has.
func (g *typeGen) unionMarshal(t wireType, name string, n *schemaNode, fields map[string][2]string) {
	r := strings.ToLower(name[:1])
	fmt.Fprintf(&g.out, "// MarshalJSON writes the fields of the %s's kind, in the schema's order.\n", name)
	fmt.Fprintf(&g.out, "func (%s %s) MarshalJSON() ([]byte, error) {\n\tswitch %s.Kind {\n", r, name, r)
	for _, v := range n.AnyOf {
		kind := v.Properties.values["kind"]
		if kind == nil || len(kind.Const) == 0 {
			log.Fatalf("%s: a union variant without a constant kind", name)
		}
		fmt.Fprintf(&g.out, "\tcase %s:\n\t\treturn marshalJS(struct {\n", kind.Const)
		var values []string
		for _, k := range v.Properties.keys {
			if contains(t.skip, k) {
				continue
			}
			goType, tag := fields[k][0], fields[k][1]
			value := r + "." + goField(k)
			if contains(v.Required, k) {
				tag = k
				if strings.HasPrefix(goType, "[]") {
					value = "nonNil(" + value + ")"
				}
			} else if !strings.Contains(tag, ",") {
				tag += ",omitempty"
			}
			fmt.Fprintf(&g.out, "\t\t\t%s %s `json:%q`\n", goField(k), goType, tag)
			values = append(values, value)
		}
		fmt.Fprintf(&g.out, "\t\t}{%s})\n", strings.Join(values, ", "))
	}
	fmt.Fprintf(&g.out, "\t}\n\ttype plain %s\n\treturn marshalJS(plain(%s))\n}\n\n", name, r)
	if !g.nonNil {
		g.nonNil = true
		g.out.WriteString("// nonNil is a list that is written as [] when it is nil.\n" +
			"func nonNil[T any](s []T) []T {\n\tif s == nil {\n\t\treturn []T{}\n\t}\n\treturn s\n}\n\n")
	}
}

func (g *typeGen) isStruct(goType string) bool {
	if goType == "json.RawMessage" || strings.HasPrefix(goType, "map[") || goType == "string" {
		return false
	}
	for _, t := range wireTypes {
		if t.name == goType {
			d := g.defs[t.def]
			return !(len(d.Enum) > 0)
		}
	}
	return unicode.IsUpper(rune(goType[0]))
}

// flatten merges the variants of a union of objects (QaStep): a property is required when every
// variant requires it.
func flatten(n *schemaNode) (orderedProps, []string, bool) {
	if len(n.AnyOf) == 0 {
		return n.Properties, n.Required, false
	}
	merged := orderedProps{values: map[string]*schemaNode{}}
	count := map[string]int{}
	for _, v := range n.AnyOf {
		for _, k := range v.Properties.keys {
			if _, ok := merged.values[k]; !ok {
				merged.keys = append(merged.keys, k)
				p := *v.Properties.values[k]
				if len(p.Const) > 0 {
					p.Const = nil // the kind of one variant is a string of the merged type
				}
				merged.values[k] = &p
			}
		}
		for _, r := range v.Required {
			count[r]++
		}
	}
	var required []string
	for k, c := range count {
		if c == len(n.AnyOf) {
			required = append(required, k)
		}
	}
	sort.Strings(required)
	return merged, required, true
}

func (g *typeGen) fieldType(t wireType, key string, p *schemaNode, later *[]func()) string {
	if p.Ref != "" {
		def := strings.TrimPrefix(p.Ref, "#/definitions/")
		if n, ok := g.named[def]; ok {
			return n
		}
		return g.fieldType(t, key, g.defs[def], later)
	}
	if n, ok := t.nested[key]; ok {
		*later = append(*later, func() { g.typ(t, n, key, p) })
		return n
	}
	switch p.Type {
	case "string":
		return "string"
	case "boolean":
		return "bool"
	case "integer":
		return "int"
	case "number":
		if len(p.Const) > 0 && !strings.ContainsAny(string(p.Const), ".eE") {
			return "int"
		}
		return "float64"
	case "array":
		if n, ok := t.nested[key+"[]"]; ok {
			items := p.Items
			*later = append(*later, func() { g.typ(t, n, key+"[]", items) })
			return "[]" + n
		}
		return "[]" + g.fieldType(t, key+"[]", p.Items, later)
	case "object":
		if len(p.Properties.keys) == 0 {
			var add schemaNode
			if len(p.AdditionalProperties) > 0 && json.Unmarshal(p.AdditionalProperties, &add) == nil && add.Type == "string" {
				return "map[string]string"
			}
			if len(add.AnyOf) > 0 {
				return "map[string]json.RawMessage"
			}
			if contains(t.maps, key) {
				return "map[string]any"
			}
			return "json.RawMessage"
		}
		log.Fatalf("%s.%s: an inline object needs a Go name in wireTypes' nested", t.name, key)
	case "":
		if g.stringUnion(p) {
			return "string"
		}
		if t.written {
			return "any"
		}
		return "json.RawMessage"
	}
	log.Fatalf("%s.%s: no Go type for schema type %q", t.name, key, p.Type)
	return ""
}

// stringUnion says whether every variant of a union is a string (an enum, a constant, or a
// definition that is one).
func (g *typeGen) stringUnion(p *schemaNode) bool {
	for _, v := range p.AnyOf {
		if v.Ref != "" {
			v = g.defs[strings.TrimPrefix(v.Ref, "#/definitions/")]
		}
		if v == nil || v.Type != "string" {
			return false
		}
	}
	return len(p.AnyOf) > 0
}

// goField is a property's Go name: PascalCase, with Go's initialisms (ID, URL, API).
func goField(k string) string {
	var words []string
	start := 0
	for i := 1; i <= len(k); i++ {
		if i == len(k) || k[i] == '_' || (unicode.IsUpper(rune(k[i])) && !unicode.IsUpper(rune(k[i-1]))) {
			words = append(words, strings.TrimPrefix(k[start:i], "_"))
			start = i
		}
	}
	var b strings.Builder
	for _, w := range words {
		if w == "" {
			continue
		}
		up := strings.ToUpper(w[:1]) + w[1:]
		switch strings.ToLower(w) {
		case "id", "url", "api", "json", "dom":
			up = strings.ToUpper(w)
		case "openai":
			up = "OpenAI"
		}
		b.WriteString(up)
	}
	return b.String()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
