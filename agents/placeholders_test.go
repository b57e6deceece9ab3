package agents

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Placeholders are filled in one pass: a value holding {another} is
// inserted as written, never filled again.
func TestFillPlaceholders(t *testing.T) {
	prompt := "Do {description}. Then {other}. Keep {unknown}."
	assert.Equal(t, []string{"description", "other", "unknown"}, Placeholders(prompt))
	got, err := FillPlaceholders(prompt, map[string]string{"description": "fix {other}", "other": "test"})
	require.NoError(t, err)
	assert.Equal(t, "Do fix {other}. Then test. Keep {unknown}.", got)
	assert.True(t, PlaceholderKey("task-1"))
	assert.False(t, PlaceholderKey("Task"))
}

// A filled prompt over MaxPromptBytes is refused before it is built:
// many placeholders times a long value would take gigabytes. CheckFill
// finds the same without filling.
func TestFillPlaceholdersCap(t *testing.T) {
	for _, tc := range []struct {
		name   string
		prompt string
		value  string
		err    bool
	}{
		{"at the cap", strings.Repeat("{d}", 1024), strings.Repeat("v", MaxPromptBytes/1024), false},
		{"one byte over", strings.Repeat("{d}", 1024) + "x", strings.Repeat("v", MaxPromptBytes/1024), true},
		{"many placeholders, long value", strings.Repeat("{d}", 70000), strings.Repeat("v", 100000), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			values := map[string]string{"d": tc.value}
			got, err := FillPlaceholders(tc.prompt, values)
			// CheckFill, which validate runs, says the same without building it.
			check := CheckFill(tc.prompt, values)
			if tc.err {
				require.ErrorContains(t, err, "filled, the prompt would be over 1 MiB")
				var fe *FillError
				require.ErrorAs(t, check, &fe)
				assert.Equal(t, FillError{Key: "d", Len: len(tc.value)}, *fe)
				assert.Equal(t, err.Error(), check.Error())
				return
			}
			require.NoError(t, check)
			require.NoError(t, err)
			assert.Len(t, got, MaxPromptBytes)
		})
	}
}
