package agents

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Placeholders are filled in one pass: a value holding {another} is
// inserted as written, never filled again.
func TestFillPlaceholders(t *testing.T) {
	prompt := "Do {description}. Then {other}. Keep {unknown}."
	assert.Equal(t, []string{"description", "other", "unknown"}, Placeholders(prompt))
	got := FillPlaceholders(prompt, map[string]string{"description": "fix {other}", "other": "test"})
	assert.Equal(t, "Do fix {other}. Then test. Keep {unknown}.", got)
	assert.True(t, PlaceholderKey("task-1"))
	assert.False(t, PlaceholderKey("Task"))
}
