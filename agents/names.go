package agents

import (
	"fmt"
	"regexp"
	"strings"
)

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// CheckName returns an error when name is not a valid agent name. Names
// become file names in every target, so they are kept to a portable set.
func CheckName(name string) error {
	if namePattern.MatchString(name) {
		return nil
	}
	return fmt.Errorf("invalid agent name %q: use 1-64 letters, digits, '-' or '_', starting with a letter or digit", name)
}

// Closest returns the candidate nearest to word by edit distance, if it is
// near enough to be a plausible typo, else "".
func Closest(word string, candidates []string) string {
	best, bestDist := "", 2+len([]rune(word))/3
	lw := strings.ToLower(word)
	for _, c := range candidates {
		d := editDistance(lw, strings.ToLower(c))
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// DidYouMean formats Closest as a hint, or "" when nothing is close.
func DidYouMean(word string, candidates []string) string {
	if c := Closest(word, candidates); c != "" {
		return fmt.Sprintf("did you mean %q?", c)
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, by rune.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
