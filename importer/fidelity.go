package importer

import (
	"fmt"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// BodyDiff measures how a prompt changed between a source file and bn's
// output for it. Leading and trailing blank lines are not content.
type BodyDiff struct {
	Total      int // lines of the longer side
	Changed    int // lines that differ in more than whitespace
	Whitespace int // lines that differ only in whitespace
	Unified    string
}

// Fidelity is (1 - changed/total) × 100, with whitespace-only changes not
// counted as changes.
func (d BodyDiff) Fidelity() float64 {
	if d.Total == 0 {
		return 100
	}
	return (1 - float64(d.Changed)/float64(d.Total)) * 100
}

// Status is a one-phrase summary.
func (d BodyDiff) Status() string {
	switch {
	case d.Changed == 0 && d.Whitespace == 0:
		return "identical"
	case d.Changed == 0:
		return fmt.Sprintf("whitespace only (%d lines)", d.Whitespace)
	}
	return fmt.Sprintf("%d lines differ", d.Changed)
}

// CompareBodies diffs two prompts line by line.
func CompareBodies(source, target, sourceName, targetName string) BodyDiff {
	a, b := strings.TrimSpace(source)+"\n", strings.TrimSpace(target)+"\n"
	d := BodyDiff{Total: max(strings.Count(a, "\n"), strings.Count(b, "\n"))}
	if a == b {
		return d
	}
	raw := changedLines(a, b)
	d.Changed = changedLines(normalizeLines(a), normalizeLines(b))
	d.Whitespace = max(raw-d.Changed, 0)
	d.Unified = udiff.Unified(sourceName, targetName, a, b)
	return d
}

// changedLines counts the larger of deleted and inserted lines: a line
// edited in place counts once.
func changedLines(a, b string) int {
	ud, err := udiff.ToUnifiedDiff("a", "b", a, udiff.Lines(a, b), 0)
	if err != nil {
		return max(strings.Count(a, "\n"), strings.Count(b, "\n"))
	}
	del, ins := 0, 0
	for _, h := range ud.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Delete:
				del++
			case udiff.Insert:
				ins++
			}
		}
	}
	return max(del, ins)
}

// normalizeLines collapses runs of whitespace in every line, so lines that
// differ only in spacing compare equal; line count is kept.
func normalizeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// FieldDiffs lists the frontmatter fields that differ between two agents.
func FieldDiffs(source, target *Agent) []string {
	var out []string
	cmp := func(field, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s: %q became %q", field, a, b))
		}
	}
	cmp("description", source.Description, target.Description)
	cmp("model", source.Model, target.Model)
	cmp("effort", source.ReasoningEffort, target.ReasoningEffort)
	sameSet := func(a, b []string) bool {
		return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
	}
	if !sameSet(source.Allow, target.Allow) {
		out = append(out, fmt.Sprintf("tools: %s became %s", strings.Join(source.Allow, ", "), strings.Join(target.Allow, ", ")))
	}
	if !sameSet(source.Deny, target.Deny) {
		out = append(out, fmt.Sprintf("denied tools: %s became %s", strings.Join(source.Deny, ", "), strings.Join(target.Deny, ", ")))
	}
	if !sameSet(source.Tags, target.Tags) {
		out = append(out, fmt.Sprintf("tags: %s became %s", strings.Join(source.Tags, ", "), strings.Join(target.Tags, ", ")))
	}
	if source.Hidden != target.Hidden {
		out = append(out, fmt.Sprintf("hidden: %v became %v", source.Hidden, target.Hidden))
	}
	return out
}
