package enforce

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/require"
)

// maxWrongRefusals is the largest share of testdata/ordinary.txt's lines
// bn may refuse: a line an agent runs in ordinary work, under rules made
// for that work. Refusing everything would be safe and useless.
const maxWrongRefusals = 0.02

// ordinaryLine is a line of the corpus, the rules it runs under, and
// whether it is refused on purpose (and why).
type ordinaryLine struct {
	agent   oracleAgent
	line    string
	refused string
}

func readOrdinary(t testing.TB) []ordinaryLine {
	f, err := os.Open("testdata/ordinary.txt")
	require.NoError(t, err)
	defer f.Close()
	var out []ordinaryLine
	var agent oracleAgent
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
			continue
		case strings.HasPrefix(l, "@"):
			name, rules, _ := strings.Cut(strings.TrimPrefix(l, "@"), ": ")
			agent = oracleAgent{name: name}
			for _, r := range strings.Split(rules, " | ") {
				switch deny, ok := strings.CutPrefix(r, "deny "); {
				case r == "all":
					agent.tools.All = true
				case ok:
					agent.tools.Deny = append(agent.tools.Deny, deny)
				default:
					agent.tools.Allow = append(agent.tools.Allow, r)
				}
			}
			continue
		}
		line, why, _ := strings.Cut(l, " # refused: ")
		out = append(out, ordinaryLine{agent, line, why})
	}
	require.NoError(t, sc.Err())
	return out
}

// TestOrdinaryLines: the lines agents run stay allowed (at most
// maxWrongRefusals of them refused), those refused on purpose stay
// refused, and the allowed ones run in the oracle like any other.
func TestOrdinaryLines(t *testing.T) {
	root, home := oracleTree(t)
	ctx := Context{Root: root, Home: home}
	var wrong, meant int
	var allowed []oracleLine
	lines := readOrdinary(t)
	for _, l := range lines {
		d := Decide(l.agent.tools, agents.ToolPattern{Kind: "shell", Arg: l.line, HasArg: true}, ctx)
		switch {
		case l.refused != "" && d.Allowed:
			t.Errorf("%s: %q is marked refused (%s) but is allowed: %s", l.agent.name, l.line, l.refused, d.Reason)
		case l.refused != "":
			meant++
		case !d.Allowed:
			wrong++
			t.Logf("wrong refusal: %s: %q: %s", l.agent.name, l.line, d.Reason)
		default:
			allowed = append(allowed, oracleLine{l.agent, l.line})
		}
	}
	rate := float64(wrong) / float64(len(lines)-meant)
	t.Logf("ordinary lines: %d, refused on purpose %d, wrong refusals %d (%.1f%%, at most %.1f%%)", len(lines), meant, wrong, 100*rate, 100*maxWrongRefusals)
	if rate > maxWrongRefusals {
		t.Errorf("%.1f%% of ordinary lines refused, over the %.1f%% allowed", 100*rate, 100*maxWrongRefusals)
	}
	if testing.Short() {
		return
	}
	for _, b := range oracleCheck(t, buildRecorder(t), root, home, allowed) {
		t.Error(b)
	}
}
