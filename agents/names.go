package agents

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/binnacle-dev/bn/files"
)

// CheckName returns an error when name is not a valid agent name: 1-64
// letters, digits, '-', '_' and '.', starting with a letter or digit, not
// ending in '.', without "..", and not a name Windows keeps for a device
// (con, nul, com1.x). Names become file names in every target (and the
// prompt's, prompts/NAME.md), so they are kept to a portable set that can
// name no directory; dots are allowed because real agents use them
// (powershell-5.1-expert) and the tools accept them.
func CheckName(name string) error {
	if !validName(name) {
		return fmt.Errorf("invalid agent name %q: use %s", name, NameRule)
	}
	if files.IsDeviceName(name) {
		return fmt.Errorf("invalid agent name %q: Windows keeps %s for a device, so no file can be named after it there; give the agent another name, such as %q", name, strings.ToUpper(strings.SplitN(name, ".", 2)[0]), "my-"+name)
	}
	return nil
}

// NameRule is what validName accepts, said whole for the messages that
// refuse a name (an agent's, a source's): "trail." fails only its end.
const NameRule = "1-64 letters, digits, '-', '_' or '.', starting with a letter or digit, not ending in '.' and without '..'"

func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 || !isAlnum(name[0]) || name[len(name)-1] == '.' || strings.Contains(name, "..") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Closest returns the candidate nearest to word by edit distance, if it is
// near enough to be a plausible typo, else "". Ties go to the candidate
// listed first, so callers pass candidates in a stable order.
func Closest(word string, candidates []string) string {
	best, bestDist := "", 2+len([]rune(word))/4
	lw := strings.ToLower(word)
	n := utf8.RuneCountInString(lw)
	for _, c := range candidates {
		// The distance is at least the difference in length: a name far
		// longer than every candidate is near none, found without the
		// quadratic work.
		lc := strings.ToLower(c)
		if abs(n-utf8.RuneCountInString(lc)) >= bestDist {
			continue
		}
		d := editDistance(lw, lc)
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func abs(n int) int { return max(n, -n) }

// DidYouMean formats Closest as a hint, or "" when nothing is close.
func DidYouMean(word string, candidates []string) string {
	if c := Closest(word, candidates); c != "" {
		return fmt.Sprintf("did you mean %q?", c)
	}
	return ""
}

// editDistance is the optimal-string-alignment distance between a and b,
// by rune: insertions, deletions, substitutions and adjacent swaps ("aks"
// is one edit from "ask").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
