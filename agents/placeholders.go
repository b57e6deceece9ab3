package agents

import (
	"regexp"
	"slices"
	"sync"
)

// A {key} in a prompt is filled when bn launches the agent with a task
// (bn-agent, emit --set); files for other tools get the definition's text
// for it instead.
var placeholderPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([a-z][a-z0-9_-]*)\}`) })

// PlaceholderKey reports whether key can name a {key} placeholder.
func PlaceholderKey(key string) bool { return placeholderPattern().MatchString("{" + key + "}") }

// Placeholders lists the {key} placeholders in a prompt.
func Placeholders(prompt string) []string {
	var out []string
	for _, m := range placeholderPattern().FindAllStringSubmatch(prompt, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// FillPlaceholders replaces {key} with its value in one pass, so values
// are inserted literally and never expanded again.
func FillPlaceholders(prompt string, values map[string]string) string {
	if len(values) == 0 {
		return prompt
	}
	return placeholderPattern().ReplaceAllStringFunc(prompt, func(m string) string {
		if v, ok := values[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}
