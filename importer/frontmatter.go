package importer

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/goccy/go-yaml"
)

var keyLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):(?:\s+(.*))?$`)

// readFrontmatter returns the frontmatter fields and the body. Strict YAML
// first; if that fails, top-level `key: value` lines (with `- item` lists
// and indented continuations), which is how the agent tools read such files.
func readFrontmatter(src []byte) (fields map[string]any, body string, warnings []string, err error) {
	md, err := agents.SplitFrontmatter(src)
	if err != nil {
		return nil, "", nil, err
	}
	body = string(md.Body)
	if simple, ok := agents.SimpleFrontmatter(md.YAML); ok {
		return simple, body, nil, nil
	}
	if yerr := yaml.Unmarshal(md.YAML, &fields); yerr == nil {
		if fields == nil {
			fields = map[string]any{}
		}
		return fields, body, nil, nil
	} else {
		where, msg := "", yerr.Error()
		var ye yaml.Error
		if errors.As(yerr, &ye) {
			msg = ye.GetMessage()
			if tok := ye.GetToken(); tok != nil {
				where = fmt.Sprintf("%d:%d: ", tok.Position.Line+md.YAMLLine-1, tok.Position.Column)
			}
		}
		warnings = append(warnings, fmt.Sprintf("frontmatter is not strict YAML (%s%s); read line by line, as the agent tools do", where, msg))
	}
	fields = map[string]any{}
	var key string
	for _, line := range strings.Split(strings.ReplaceAll(string(md.YAML), "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch m := keyLine.FindStringSubmatch(line); {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case m != nil:
			key = m[1]
			if m[2] == "" {
				fields[key] = []any{}
			} else {
				fields[key] = unquote(m[2])
			}
		case key != "" && strings.HasPrefix(trimmed, "- ") && isList(fields[key]):
			fields[key] = append(fields[key].([]any), unquote(strings.TrimPrefix(trimmed, "- ")))
		case key != "" && line[0] == ' ' && isString(fields[key]):
			fields[key] = fields[key].(string) + " " + trimmed // a folded continuation
		default:
			return nil, "", nil, fmt.Errorf("frontmatter line %q is not `key: value`", line)
		}
	}
	return fields, body, warnings, nil
}

func isList(v any) bool   { _, ok := v.([]any); return ok }
func isString(v any) bool { _, ok := v.(string); return ok }

func unquote(s string) any {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		var items []any
		for _, it := range strings.Split(s[1:len(s)-1], ",") {
			if it = strings.TrimSpace(it); it != "" {
				items = append(items, unquote(it))
			}
		}
		return items
	}
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	return s
}

// stringList reads a list field written as a YAML list or a comma string.
func stringList(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
	}
	return out
}
