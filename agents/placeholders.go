package agents

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
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
// are inserted literally and never expanded again. The filled prompt's
// size is counted, from the one scan of the prompt, before it is built: a
// prompt with many placeholders and a long value would otherwise take
// gigabytes. Over MaxPromptBytes it is refused with a *FillError.
func FillPlaceholders(prompt string, values map[string]string) (string, error) {
	if len(values) == 0 {
		return prompt, nil
	}
	matches := placeholderPattern().FindAllStringSubmatchIndex(prompt, -1)
	size, err := filledSize(prompt, values, matches)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(size)
	last := 0
	for _, m := range matches {
		if v, ok := values[prompt[m[2]:m[3]]]; ok {
			b.WriteString(prompt[last:m[0]])
			b.WriteString(v)
			last = m[1]
		}
	}
	b.WriteString(prompt[last:])
	return b.String(), nil
}

// FillError is a prompt that filled would be over MaxPromptBytes; Key is
// the placeholder whose value took it over.
type FillError struct {
	Key string
	Len int // the value's length
}

func (e *FillError) Error() string {
	return fmt.Sprintf("filled, the prompt would be over %d MiB, the most a prompt holds ({%s} is given %d bytes); give shorter values, or use fewer placeholders in the prompt", MaxPromptBytes>>20, e.Key, e.Len)
}

// CheckFill returns the *FillError FillPlaceholders would, without
// building the prompt.
func CheckFill(prompt string, values map[string]string) error {
	if len(values) == 0 {
		return nil
	}
	_, err := filledSize(prompt, values, placeholderPattern().FindAllStringSubmatchIndex(prompt, -1))
	return err
}

// filledSize counts the prompt filled at matches, stopping past the cap.
func filledSize(prompt string, values map[string]string, matches [][]int) (int, error) {
	size := len(prompt)
	for _, m := range matches {
		key := prompt[m[2]:m[3]]
		if v, ok := values[key]; ok {
			size += len(v) - (m[1] - m[0])
			if size > MaxPromptBytes {
				return 0, &FillError{Key: key, Len: len(v)}
			}
		}
	}
	return size, nil
}
