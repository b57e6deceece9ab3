package agents

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ValueType is the type of a plain field's value.
type ValueType uint8

const (
	TypeString  ValueType = iota // one non-empty string
	TypeEnum                     // one of Field.Enum, case-insensitive
	TypeBool                     // true or false; a bare node means true
	TypeNumber                   // a number in [Field.Min, Field.Max]
	TypeInt                      // a whole number >= 1
	TypeWords                    // one or more single words
	TypeStrings                  // one or more non-empty strings
)

// MaxFieldBytes bounds a field's text: descriptions are shown in pickers
// and sent with every request that lists agents.
const MaxFieldBytes = 64 << 10

// MaxPromptBytes bounds a prompt, inline or in a file: prompts are sent to
// a model and written into other tools' files.
const MaxPromptBytes = 1 << 20

// LimitError is a value over one of bn's limits (MaxFieldBytes): no
// tool's file can get an agent that holds one, so import refuses it and
// an export that leaves it out fails.
type LimitError struct{ msg string }

func (e *LimitError) Error() string { return e.msg }

// Field is one plain field of a definition: how config.kdl and markdown
// frontmatter spell it, what it holds, how to read and set it. The
// decoders, the resolver, provenance, show, and the KDL writer all work
// from this one table.
type Field struct {
	Name string // the config.kdl node, the provenance and show key
	Doc  string
	Type ValueType
	Enum []string
	Min  float64
	Max  float64
	// BnOnly marks what bn and binnacle's launcher use and no tool's
	// agent file holds (leaving it out of one is not a loss).
	BnOnly bool
	// Multiline marks free text, which may hold tabs and line breaks.
	Multiline bool
	// get returns the field's value in d, and whether it is set.
	get func(d *Definition) (any, bool)
	// set assigns a checked value.
	set func(d *Definition, v any)
}

// Get returns the field's value in d and whether it is set there.
func (f *Field) Get(d *Definition) (any, bool) { return f.get(d) }

// Apply assigns a value that Check has passed.
func (f *Field) Apply(d *Definition, v any) { f.set(d, v) }

// Check validates a decoded value, which must already have the Go type the
// field's Type implies, and returns it in canonical form: v itself when it
// already is, so the value is not boxed again.
func (f *Field) Check(v any) (any, error) {
	switch f.Type {
	case TypeString:
		s := v.(string)
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("must not be empty")
		}
		if len(s) > MaxFieldBytes {
			return nil, &LimitError{fmt.Sprintf("is %d bytes; a field holds at most %d KiB (long text belongs in the prompt)", len(s), MaxFieldBytes>>10)}
		}
		if err := CheckText(s, f.Multiline); err != nil {
			return nil, err
		}
	case TypeEnum:
		e, err := ParseEnum(v.(string), f.Enum)
		if err != nil || e != v.(string) {
			return e, err
		}
	case TypeNumber:
		if n := v.(float64); n < f.Min || n > f.Max {
			return nil, fmt.Errorf("%v is out of range; use a number from %v to %v", n, f.Min, f.Max)
		}
	case TypeInt:
		if n := v.(int64); n < 1 {
			return nil, fmt.Errorf("%d: use a whole number of at least 1", n)
		}
	case TypeWords:
		for _, w := range v.([]string) {
			if w == "" || strings.ContainsAny(w, " \t\n,") {
				return nil, fmt.Errorf("%q must be one word without spaces or commas", w)
			}
			if err := CheckText(w, false); err != nil {
				return nil, fmt.Errorf("%q %w", w, err)
			}
		}
	case TypeStrings:
		for _, w := range v.([]string) {
			if strings.TrimSpace(w) == "" {
				return nil, fmt.Errorf("values must not be empty")
			}
			if err := CheckText(w, false); err != nil {
				return nil, fmt.Errorf("%q %w", w, err)
			}
		}
	}
	return v, nil
}

// CheckFields checks every plain field d sets, as config.kdl's reader
// checks each (Check), and its prompt, tool entries and tools' own
// values for control characters (CheckText): a definition read from
// another tool's file must hold only what bn's own files can, or bn could
// not export it.
func CheckFields(d *Definition) error {
	for _, f := range Fields {
		if v, set := f.Get(d); set {
			if _, err := f.Check(v); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
		}
	}
	if err := CheckText(d.Prompt, true); err != nil {
		return fmt.Errorf("%s: %w", NodePrompt, err)
	}
	for _, list := range [][]string{d.Tools.Allow, d.Tools.Deny, d.Tools.Ask} {
		for _, p := range list {
			if err := CheckText(p, false); err != nil {
				return fmt.Errorf("%s: %q %w", NodeTools, p, err)
			}
		}
	}
	for _, m := range d.MCPServers {
		if err := CheckText(m.Name, false); err != nil {
			return fmt.Errorf("mcp-servers: %q %w", m.Name, err)
		}
		if m.Config != nil {
			if err := CheckData(m.Config); err != nil {
				return fmt.Errorf("mcp-servers: %s: %w", m.Name, err)
			}
		}
	}
	for _, tool := range slices.Sorted(maps.Keys(d.Targets)) {
		t := d.Targets[tool]
		if err := CheckText(t.ID, false); err != nil {
			return fmt.Errorf("%s.id: %w", tool, err)
		}
		for _, k := range t.Fields.Keys {
			if err := CheckData(t.Fields.Values[k]); err != nil {
				return fmt.Errorf("%s.%s: %w", tool, k, err)
			}
		}
	}
	return nil
}

func stringField(name, doc string, acc func(*Definition) *string) *Field {
	return &Field{Name: name, Doc: doc, Type: TypeString,
		get: func(d *Definition) (any, bool) { return *acc(d), *acc(d) != "" },
		set: func(d *Definition, v any) { *acc(d) = v.(string) }}
}

func enumField(name, doc string, values []string, acc func(*Definition) *string) *Field {
	f := stringField(name, doc, acc)
	f.Type, f.Enum = TypeEnum, values
	return f
}

func boolField(name, doc string, acc func(*Definition) *bool) *Field {
	return &Field{Name: name, Doc: doc, Type: TypeBool,
		get: func(d *Definition) (any, bool) { return *acc(d), true },
		set: func(d *Definition, v any) { *acc(d) = v.(bool) }}
}

func optBoolField(name, doc string, acc func(*Definition) **bool) *Field {
	return &Field{Name: name, Doc: doc, Type: TypeBool,
		get: func(d *Definition) (any, bool) {
			if p := *acc(d); p != nil {
				return *p, true
			}
			return nil, false
		},
		set: func(d *Definition, v any) { b := v.(bool); *acc(d) = &b }}
}

func numberField(name, doc string, lo, hi float64, acc func(*Definition) **float64) *Field {
	return &Field{Name: name, Doc: doc, Type: TypeNumber, Min: lo, Max: hi,
		get: func(d *Definition) (any, bool) {
			if p := *acc(d); p != nil {
				return *p, true
			}
			return nil, false
		},
		set: func(d *Definition, v any) { n := v.(float64); *acc(d) = &n }}
}

func listField(name, doc string, t ValueType, acc func(*Definition) *[]string) *Field {
	return &Field{Name: name, Doc: doc, Type: t,
		get: func(d *Definition) (any, bool) { return *acc(d), len(*acc(d)) > 0 },
		set: func(d *Definition, v any) { *acc(d) = slices.Clone(v.([]string)) }}
}

// The plain fields, in the order bn writes them.
var (
	FieldDescription = multiline(stringField("description", "what the agent does; tools show it and use it to pick agents",
		func(d *Definition) *string { return &d.Description }))
	FieldExecution = enumField("execution", "where binnacle runs it: host or container", []string{string(Host), string(Container)},
		func(d *Definition) *string { return (*string)(&d.Execution) })
	FieldLifecycle = bnOnly(enumField("lifecycle", "stateful agents end with `bn goodbye`; stateless ones only answer",
		[]string{string(Stateful), string(Stateless)}, func(d *Definition) *string { return (*string)(&d.Lifecycle) }))
	FieldMode = enumField("mode", "who starts it: the user (primary), another agent (subagent), or both (all)", Modes,
		func(d *Definition) *string { return &d.Mode })
	FieldModel           = stringField("model", "the model to run, in any tool's spelling", func(d *Definition) *string { return &d.Model })
	FieldReasoningEffort = enumField("reasoning-effort", "how hard the model thinks", ReasoningEfforts,
		func(d *Definition) *string { return &d.ReasoningEffort })
	FieldShowReasoning  = bnOnly(boolField("show-reasoning", "Copilot: show the model's reasoning", func(d *Definition) *bool { return &d.ShowReasoning }))
	FieldRenderMarkdown = bnOnly(boolField("render-markdown", "Copilot: render answers as markdown",
		func(d *Definition) *bool { return &d.RenderMarkdown }))
	FieldTemperature = numberField("temperature", "sampling temperature, 0 to 2", 0, 2,
		func(d *Definition) **float64 { return &d.Temperature })
	FieldTopP     = numberField("top-p", "nucleus sampling, 0 to 1", 0, 1, func(d *Definition) **float64 { return &d.TopP })
	FieldMaxTurns = &Field{Name: "max-turns", Doc: "the most turns (steps) the agent takes", Type: TypeInt,
		get: func(d *Definition) (any, bool) {
			if d.MaxTurns != nil {
				return *d.MaxTurns, true
			}
			return nil, false
		},
		set: func(d *Definition, v any) { n := v.(int64); d.MaxTurns = &n }}
	FieldModelInvocable = optBoolField("model-invocable", "whether a model may start it on its own (false: only the user)",
		func(d *Definition) **bool { return &d.ModelInvocable })
	FieldHidden = boolField("hidden", "usable, but kept out of pickers and `list` (Copilot: user-invocable false)",
		func(d *Definition) *bool { return &d.Hidden })
	FieldColor = stringField("color", "the colour tools show it in: a name (red, blue, …) or #rrggbb",
		func(d *Definition) *string { return &d.Color })
	FieldTags   = bnOnly(listField("tags", "words to group agents by", TypeWords, func(d *Definition) *[]string { return &d.Tags }))
	FieldSkills = listField("skills", "skills loaded when it starts", TypeStrings, func(d *Definition) *[]string { return &d.Skills })
)

// multiline marks a field of free text.
func multiline(f *Field) *Field {
	f.Multiline = true
	return f
}

// bnOnly marks a field no tool's agent file holds.
func bnOnly(f *Field) *Field {
	f.BnOnly = true
	return f
}

// Fields lists every plain field.
var Fields = []*Field{
	FieldDescription, FieldExecution, FieldLifecycle, FieldMode, FieldModel, FieldReasoningEffort,
	FieldShowReasoning, FieldRenderMarkdown, FieldTemperature, FieldTopP, FieldMaxTurns, FieldModelInvocable,
	FieldHidden, FieldColor, FieldTags, FieldSkills,
}

// LookupField finds a plain field by name.
func LookupField(name string) *Field {
	for _, f := range Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Structural nodes of an agent besides the plain fields.
const (
	NodeTools         = "tools"
	NodePrompt        = "prompt"
	NodePromptFile    = "prompt-file"
	NodePromptAppend  = "prompt-append"
	NodePromptPrepend = "prompt-prepend"
	NodeExtends       = "extends"
	NodeDisable       = "disable"
	// NodeReplace makes a layer's node the whole definition: what lower
	// layers said of the agent is dropped, as import writes an agent that
	// shares a built-in's name.
	NodeReplace      = "replace"
	NodeMCPServer    = "mcp-server"
	NodePlaceholders = "placeholders"
	// NodeAccept accepts reviewed differences of the agent's files by
	// their fingerprints, so that export --strict passes them.
	NodeAccept = "accept"
)

// AgentNodeNames lists every node an agent may hold, for suggestions;
// tools adds its sections.
func AgentNodeNames(tools []string) []string {
	out := make([]string, 0, len(Fields)+11+len(tools))
	for _, f := range Fields {
		out = append(out, f.Name)
	}
	out = append(out, NodeTools, NodePrompt, NodePromptFile, NodePromptAppend, NodePromptPrepend, NodeExtends, NodeDisable, NodeReplace, NodeMCPServer, NodePlaceholders, NodeAccept)
	return append(out, tools...)
}
