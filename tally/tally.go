package tally

import "slices"

// Group is one message and the items (agents, files) it came for, in the
// order they came.
type Group struct {
	Text  string
	Items []string
}

// Of groups n messages by their text: message(i) returns the i-th text
// and the item it is about. Groups come most frequent first; among equal
// counts, in the order they first came, so the output is stable.
func Of(n int, message func(i int) (text, item string)) []Group {
	var out []Group
	index := map[string]int{}
	for i := range n {
		text, item := message(i)
		g, ok := index[text]
		if !ok {
			g = len(out)
			index[text] = g
			out = append(out, Group{Text: text})
		}
		out[g].Items = append(out[g].Items, item)
	}
	slices.SortStableFunc(out, func(a, b Group) int { return len(b.Items) - len(a.Items) })
	return out
}
