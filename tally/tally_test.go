package tally

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOf(t *testing.T) {
	msgs := [][2]string{{"b", "x"}, {"a", "x"}, {"a", "y"}, {"c", "z"}, {"b", "y"}, {"a", "z"}}
	got := Of(len(msgs), func(i int) (string, string) { return msgs[i][0], msgs[i][1] })
	assert.Equal(t, []Group{
		{Text: "a", Items: []string{"x", "y", "z"}},
		{Text: "b", Items: []string{"x", "y"}},
		{Text: "c", Items: []string{"z"}},
	}, got, "most frequent first, ties in the order they came")
	assert.Empty(t, Of(0, nil))
}
