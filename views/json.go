package views

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// appendJSONString appends s as encoding/json writes a string with HTML
// escaping off: quotes, backslashes and control characters escaped, as
// are U+2028 and U+2029, and each byte of invalid UTF-8 written as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		escaped := ""
		switch {
		case r == utf8.RuneError && size == 1:
			escaped = `\ufffd`
		case r == '\u2028':
			escaped = `\u2028`
		case r == '\u2029':
			escaped = `\u2029`
		}
		if escaped != "" {
			b = append(b, s[start:i]...)
			b = append(b, escaped...)
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonWriter appends compact JSON as encoding/json writes it with HTML
// escaping off. Values of no fixed shape (a tool's own fields) go to
// encoding/json; the fixed ones are written here, which spares a command
// that prints one value encoding/json's first look at its types.
type jsonWriter struct {
	b     []byte
	comma bool // a member or element came before
	err   error
}

func (w *jsonWriter) key(name string) {
	if w.comma {
		w.b = append(w.b, ',')
	}
	w.b = appendJSONString(w.b, name)
	w.b = append(w.b, ':')
	w.comma = true
}

func (w *jsonWriter) open(c byte)  { w.b, w.comma = append(w.b, c), false }
func (w *jsonWriter) close(c byte) { w.b, w.comma = append(w.b, c), true }

func (w *jsonWriter) str(name, v string) { w.key(name); w.b = appendJSONString(w.b, v) }

func (w *jsonWriter) boolean(name string, v bool) { w.key(name); w.b = strconv.AppendBool(w.b, v) }

func (w *jsonWriter) integer(name string, v int64) { w.key(name); w.b = strconv.AppendInt(w.b, v, 10) }

func (w *jsonWriter) optional(name string, v *string) {
	w.key(name)
	if v == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = appendJSONString(w.b, *v)
}

func (w *jsonWriter) strings(name string, v []string) {
	w.key(name)
	if v == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('[')
	for i, s := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendJSONString(w.b, s)
	}
	w.close(']')
}

// value writes v through encoding/json.
func (w *jsonWriter) value(name string, v any) {
	w.key(name)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil && w.err == nil {
		w.err = err
	}
	w.b = append(w.b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// AppendJSON appends show's output as compact JSON, byte for byte what
// encoding/json writes for s with HTML escaping off.
func (s *Show) AppendJSON(b []byte) ([]byte, error) {
	w := &jsonWriter{b: b}
	w.open('{')
	w.str("name", s.Name)
	w.str("description", s.Description)
	w.str("execution", s.Execution)
	w.str("lifecycle", s.Lifecycle)
	w.str("source", s.Source)
	w.boolean("tools_merged", s.ToolsMerged)
	w.strings("tools_allow", s.ToolsAllow)
	w.strings("tools_deny", s.ToolsDeny)
	w.key("copilot")
	w.open('{')
	w.optional("model", s.Copilot.Model)
	w.optional("reasoning_effort", s.Copilot.ReasoningEffort)
	w.boolean("show_reasoning", s.Copilot.ShowReasoning)
	w.boolean("render_markdown", s.Copilot.RenderMarkdown)
	w.close('}')
	w.str("prompt_preview", s.PromptPreview)
	w.integer("prompt_length", int64(s.PromptLength))
	w.str("layer", s.Layer)
	w.str("tools_access", s.ToolsAccess)
	w.strings("tags", s.Tags)
	w.boolean("hidden", s.Hidden)
	if s.Extends != "" {
		w.str("extends", s.Extends)
	}
	if s.PromptFile != "" {
		w.str("prompt_file", s.PromptFile)
	}
	if len(s.Fields) > 0 {
		w.value("fields", s.Fields)
	}
	if len(s.Targets) > 0 {
		w.value("targets", s.Targets)
	}
	if len(s.MCPServers) > 0 {
		w.strings("mcp_servers", s.MCPServers)
	}
	w.key("sources")
	if s.Sources == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.open('[')
		for i, f := range s.Sources {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.open('{')
			w.str("layer", f.Layer)
			w.str("file", f.File)
			w.close('}')
		}
		w.close(']')
	}
	if s.Provenance != nil {
		w.value("provenance", s.Provenance)
	}
	w.close('}')
	return w.b, w.err
}
