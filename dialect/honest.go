package dialect

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/enforce"
)

// Honest reports as advisory every limit of tools that a written file
// carries (as the tool's own rule, or decided by bn's hook) and that
// does not hold against what else the agent may do (enforce.Advisory): a
// hook's "enforced" becomes "advisory", and a limit the file carries
// with no word becomes an advisory loss of its own. A limit already
// reported widened or dropped stays so. An ask (tools.Ask) is judged as
// a deny is: a call that walks around a deny walks around the question
// too. Every limit a hook enforces is
// advisory where no probe has seen the hook hold: on Windows (goos), and
// in a tool whose hook was not seen to hold for a sub-agent (Hook.SubAgent).
func Honest(info *Info, tools agents.Tools, losses []Loss, goos string) []Loss {
	out := append(slices.Clone(losses), wordsWidened(info, tools, losses)...)
	judge := func(rule, list string) {
		why := enforce.Advisory(tools, rule, list != "allow")
		if why == "" {
			return
		}
		q := strconv.Quote(rule)
		detail := fmt.Sprintf("%s %s is advisory: %s", list, q, why)
		about := false
		for i, l := range out {
			if l.Field != "tools" || !strings.Contains(l.Detail, q) {
				continue
			}
			about = true
			if l.Kind == Enforced {
				hook := " (bn's hook refuses only the calls that break it themselves)"
				if list == "ask" {
					hook = " (bn's hook asks only before the calls the ask covers themselves)"
				}
				out[i] = Loss{Field: "tools", Kind: Advisory, Detail: detail + hook, Grants: l.Grants}
			}
		}
		p, _ := agents.ParseToolPattern(rule)
		if !about && !slices.ContainsFunc(p.Kinds(), func(k agents.Kind) bool { return reportedWhole(out, k) }) {
			out = append(out, Loss{Field: "tools", Kind: Advisory, Detail: detail})
		}
	}
	// An ask is also an allow of its pattern: judged first, a limit it
	// cannot hold is reported as the ask's.
	for _, r := range tools.Ask {
		judge(r, "ask")
	}
	for _, r := range tools.Deny {
		judge(r, "deny")
	}
	for _, r := range tools.Allow {
		judge(r, "allow")
	}
	// A rule the file cannot say for two kinds (write: edit and create) is
	// one limit, reported advisory once.
	kept := out[:0]
	for _, l := range out {
		if l.Kind != Advisory || !slices.ContainsFunc(kept, func(k Loss) bool { return k.Field == l.Field && k.Detail == l.Detail && k.Kind == l.Kind }) {
			kept = append(kept, l)
		}
	}
	out = kept
	if info.Hook == nil {
		return out
	}
	var unprobed []string
	if goos == "windows" {
		unprobed = append(unprobed, "on Windows no probe has run "+info.Title+" with bn's hook")
	}
	if !info.Hook.SubAgent {
		unprobed = append(unprobed, "started as another agent's sub-agent, no probe has seen "+info.Title+" run the hook in its file")
	}
	if len(unprobed) == 0 {
		return out
	}
	for i, l := range out {
		if l.Kind == Enforced {
			out[i] = Loss{Field: l.Field, Kind: Advisory, Detail: l.Detail + "; " + strings.Join(unprobed, ", and ") + ", so there the limit is advisory", Grants: l.Grants}
		}
	}
	return out
}

// wordsWidened are the shell limits a tool that matches a command's words
// as written (Info.ShellWords) and runs no hook of bn's lets through,
// where bn's own decision holds them: under a limited shell, an allow
// pattern lets a matched command write any file through a redirection
// or by itself (git diff --output=F) unless the agent may write every
// file anyway, and a deny or ask is walked around by the same command
// spelled another way where another pattern allows its program (git
// --no-pager push under git:*). Each grants
// its rule's own pattern, so that a policy denying it refuses the file.
func wordsWidened(info *Info, tools agents.Tools, losses []Loss) []Loss {
	whole := func(k agents.Kind) bool { return agents.Decide(tools, agents.ToolPattern{Kind: string(k)}).Allowed }
	if info.ShellWords == "" || info.Hook != nil || whole(agents.KindShell) {
		return nil
	}
	program := func(r string) string { // the first word of a shell pattern; "" for another rule
		p, err := agents.ParseToolPattern(r)
		if err != nil || !p.HasArg || p.Arg == "*" || !slices.Contains(p.Kinds(), agents.KindShell) {
			return ""
		}
		words := strings.Fields(strings.TrimSuffix(p.Arg, ":*"))
		if len(words) == 0 {
			return ""
		}
		return words[0]
	}
	var allows []string // the shell patterns allowed, an ask's own allow apart
	for _, r := range tools.Allow {
		if program(r) != "" && !slices.Contains(tools.Ask, r) {
			allows = append(allows, r)
		}
	}
	var out []Loss
	add := func(list, rule, why string) {
		q := strconv.Quote(rule)
		if slices.ContainsFunc(losses, func(l Loss) bool { return l.Field == "tools" && l.Kind == Widened && strings.Contains(l.Detail, q) }) {
			return
		}
		out = append(out, Loss{Field: "tools", Kind: Widened, Grants: []string{rule},
			Detail: fmt.Sprintf("%s %s: %s %s, so %s", list, q, info.Title, info.ShellWords, why)})
	}
	if !whole(agents.KindEdit) || !whole(agents.KindCreate) {
		for _, r := range allows {
			add("allow", r, "a command it matches may still write any file, through a redirection or an option of its own (git diff --output=F), which the definition does not allow")
		}
	}
	for _, list := range []struct {
		rules []string
		what  string
	}{{tools.Deny, "deny"}, {tools.Ask, "ask"}} {
		for _, r := range list.rules {
			// The same program allowed by another pattern runs the
			// command spelled another way (git --no-pager push).
			prog := program(r)
			i := slices.IndexFunc(allows, func(a string) bool { return a != r && program(a) == prog })
			if prog != "" && i >= 0 {
				add(list.what, r, fmt.Sprintf("the %s does not catch the command spelled another way (an option before its subcommand, quotes, a path to the program) that allow %q matches", list.what, allows[i]))
			}
		}
	}
	return out
}

// reportedWhole says whether losses already say the file grants kind k
// whole or leaves it out (Codex's and Cursor's files cannot limit it at
// all): a limit of k is then no limit the file carries. What a loss
// grants or drops says it (Loss.Kinds), never its words.
func reportedWhole(losses []Loss, k agents.Kind) bool {
	return slices.ContainsFunc(losses, func(l Loss) bool {
		return l.Field == "tools" && (l.Kind == Widened || l.Kind == Dropped) && slices.Contains(l.Kinds(), k)
	})
}

// Asked adds to what a tool's written file loses each ask of the
// definition's (agents.Tools.Ask) neither the file nor the tool's hook
// can say: the file allows the use, so it is widened. A tool that has
// Asks reports its own, as only its writer knows which it wrote back.
// Asked runs before Honest, so that an ask reported widened is not also
// reported advisory.
func Asked(info *Info, def *agents.Definition, losses []Loss) []Loss {
	if info.Asks {
		return losses
	}
	return append(losses, askLosses(info, def)...)
}
