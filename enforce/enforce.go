package enforce

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/binnacle-dev/bn/agents"
)

// Shell is a language a command line may run in.
type Shell string

// The shells. Bash and Zsh are decided; a line for PowerShell or cmd is
// refused under any limit of the shell (bn does not parse them).
const (
	Bash       Shell = "bash"
	Zsh        Shell = "zsh"
	POSIX      Shell = "sh"
	PowerShell Shell = "powershell"
	Cmd        Shell = "cmd"
)

// Context is where a tool use runs.
type Context struct {
	// Root is the repository root (absolute). Relative path patterns are
	// relative to it, and a path-limited rule matches nothing outside it.
	Root string
	// Dir is the working directory a relative path or a shell line starts
	// from; empty means Root.
	Dir string
	// Home expands "~" in redirections; empty refuses a "~" target under
	// a limit.
	Home string
	// CDPATH is the CDPATH the shell starts with: when set, cd to a
	// relative name looks for it there first, so bn cannot tell where
	// the shell goes.
	CDPATH string
	// Shells are the shells the line may run in; nil means bash and zsh,
	// which is what the coding tools bn enforces for run on Linux and
	// macOS (the user's shell, one of the two). A line is allowed only
	// when every one of them would run it as bn decided.
	Shells []Shell
	// FS is the file system the decision reads: it resolves symlinks,
	// lists directories and opens the archives unpackers read; nil is the
	// operating system's.
	FS FS
	// Origin, when set, says where a rule came from; reasons name it.
	Origin func(list, rule string) string
	// Getenv reads the environment the line starts in (the hook's, which
	// the agent's client passes on to the commands it runs); nil: none
	// bn knows of. git takes GIT_WORK_TREE, GIT_DIR and GIT_COMMON_DIR
	// from it.
	Getenv func(string) string
	// Self is bn's own executable (empty: unknown): a command word that
	// runs it under another name (a link to it, a copy) is decided as bn
	// (runsSelf), whose commands that write the hook's guard refuses.
	Self string
	// treeTime bounds how long a decision reads a directory tree (findGit),
	// as globBudget bounds its entries; 0 is a second. A test of the bound
	// shortens it here, not in a package variable other tests share.
	treeTime time.Duration
}

// Decision is the answer to "may this agent make this call?".
type Decision struct {
	Allowed bool
	// Rule is the pattern that decided, empty when none did (no allow
	// rule matched, or the call was refused for what it is).
	Rule string
	// List is "deny", "allow", "unrestricted", "builtin" (a shell builtin
	// that runs nothing, allowed wherever the shell is), or "".
	List string
	// Command is the simple command of a shell line that decided: the
	// first one refused, or the last one allowed.
	Command string
	// Reason says why, in words a model can act on.
	Reason string
	// Accesses are the files the call reads or writes that bn can see: a
	// path tool's own path, a shell line's redirections, the files its
	// programs write through arguments bn knows (git diff --output=F), and
	// every operand of a program that writes the files its arguments name
	// (cp, rm), which the rules do not decide but the hook's guard does.
	Accesses []Access
	// Advisory are risks of an allowed call that bn knows and cannot
	// decide: what an allowed program may do by itself.
	Advisory []string
	// Unparsed: the shell line is not one bn could parse as the shell
	// would; it is allowed only where the shell is open with no limit,
	// and then its accesses are unknown.
	Unparsed bool
	// Ask: the call is allowed once the user agrees (an ask rule covers
	// it, or bn cannot tell that none does); AskRule is the rule, and
	// AskReason says why.
	Ask       bool
	AskRule   string
	AskReason string
}

// Access is one file a call reads or writes.
type Access struct {
	// Kind is read, edit (change an existing file) or create (create or
	// overwrite).
	Kind agents.Kind `json:"kind"`
	// Path is as the call wrote it.
	Path string `json:"path"`
	// Resolved is the absolute path with "." and ".." cleaned and
	// symlinks resolved; empty when it is not known before the call runs.
	Resolved string `json:"resolved,omitempty"`
	// Unknown says why bn cannot tell where the call writes or reads
	// (a name made when the line runs, a relative path after a cd bn
	// cannot follow); empty when Resolved is known.
	Unknown string `json:"unknown,omitempty"`
	// Linked is a command of the line that makes a link (ln -s a b)
	// which a write may go through: bn resolves only the links that
	// exist when it decides, so the write is unplaced (Unknown).
	Linked string `json:"linked,omitempty"`
	// LinkIn: Linked may bring in links made elsewhere (cp -a, mv, tar
	// x, git checkout copy, move, unpack or check out symlinks) rather
	// than make one.
	LinkIn bool `json:"link_in,omitempty"`
	// ResolvedNow is, for a Linked write, where it leads through the
	// links there are when bn decides: refused there, it is refused in
	// any order the line runs.
	ResolvedNow string `json:"resolved_now,omitempty"`
	// Tree: the call writes every file under Path, a directory (git
	// checkout -- dir).
	Tree bool `json:"tree,omitempty"`
	// Removes: the call removes or moves Path away whole, a directory
	// with everything under it (rm, mv's sources).
	Removes bool `json:"removes,omitempty"`
	// Fix says how to make a write bn cannot place (Unknown), or one of
	// every file under Path (Tree), one the guard can let through, where
	// naming the path is not the way (a copy of more than bn reads, go
	// install); empty otherwise.
	Fix string `json:"fix,omitempty"`
	// Defines says why the call changes what defines or enforces an
	// agent wherever its files are (bn's own export, import, init): the
	// hook's guard refuses it.
	Defines string `json:"defines,omitempty"`
}

// maxReason bounds the text a decision quotes of the call: a model reads
// the reason, and a line of megabytes is not read back to it.
const maxReason = 1 << 10

// Decide decides whether an agent with tools may make the tool use. It
// never panics: an internal failure refuses.
func Decide(tools agents.Tools, use agents.ToolPattern, ctx Context) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = Decision{Reason: fmt.Sprintf("bn could not decide this call (%v), so it is refused", r)}
		}
		d.Reason, d.Command, d.AskReason = agents.Brief(d.Reason, maxReason), agents.Brief(d.Command, maxReason), agents.Brief(d.AskReason, maxReason)
	}()
	d = decide(tools, use, ctx)
	if d.Allowed && len(tools.Ask) > 0 {
		d.Ask, d.AskRule, d.AskReason = asks(tools, use, ctx)
	}
	return d
}

// asks says whether an allowed call asks the user first. An ask rule is
// matched as a deny is, as the shell would run each command of a line:
// a call the rules would refuse with the asks denied asks, and so does
// one bn cannot see through that well (where asking is the safe side).
func asks(tools agents.Tools, use agents.ToolPattern, ctx Context) (bool, string, string) {
	strict := tools.Clone()
	strict.Deny = append(strict.Deny, tools.Ask...)
	d := decide(strict, use, ctx)
	switch {
	case d.Allowed:
		return false, "", ""
	case d.List == "deny" && slices.Contains(tools.Ask, d.Rule) && !slices.Contains(tools.Deny, d.Rule):
		return true, d.Rule, fmt.Sprintf("ask rule %q: the tool asks the user before the call", d.Rule)
	}
	return true, "", "bn cannot tell that no ask rule covers the call (" + d.Reason + "), so the tool asks the user first"
}

// decide is Decide without the ask rules.
func decide(tools agents.Tools, use agents.ToolPattern, ctx Context) (d Decision) {
	e := newEngine(tools, ctx)
	kinds := use.Kinds()
	switch {
	case use.HasArg && slices.Contains(kinds, agents.KindShell):
		return e.shell(use.Arg)
	case use.HasArg && pathKinds(kinds):
		return e.path(kinds, use.Arg)
	}
	return e.plain(use)
}

// engine holds the parsed rules and the context of one decision.
type engine struct {
	ctx      Context
	all      bool
	allow    []rule
	deny     []rule
	programs map[string]*program // programTable, read only
	// gitStartWhy caches gitStart; nil until a git command writes.
	gitStartWhy *string
	// self caches the stat of Context.Self for runsSelf; selfRead says
	// it was taken (self stays nil when it failed).
	self     fs.FileInfo
	selfRead bool
}

// rule is one parsed pattern of the agent.
type rule struct {
	text  string
	p     agents.ToolPattern
	kinds []agents.Kind
	bad   bool // did not parse: a deny refuses everything, an allow allows nothing
	sh    shellPattern
}

func newEngine(tools agents.Tools, ctx Context) *engine {
	if ctx.Dir == "" {
		ctx.Dir = ctx.Root
	}
	if ctx.FS == nil {
		ctx.FS = osFS{}
	}
	if ctx.Shells == nil {
		ctx.Shells = []Shell{Bash, Zsh}
	}
	e := &engine{ctx: ctx, all: tools.All, programs: programTable()}
	parse := func(s string) rule {
		p, err := agents.ParseToolPattern(s)
		r := rule{text: s, p: p, bad: err != nil, kinds: p.Kinds()}
		if err == nil && slices.Contains(r.kinds, agents.KindShell) {
			r.sh = compileShellPattern(p)
		}
		return r
	}
	for _, s := range tools.Deny {
		e.deny = append(e.deny, parse(s))
	}
	for _, s := range tools.Allow {
		e.allow = append(e.allow, parse(s))
	}
	return e
}

// whole reports whether r covers every use of kind k.
func (r rule) whole(k agents.Kind) bool {
	return !r.bad && slices.Contains(r.kinds, k) && (!r.p.HasArg || r.p.Arg == "*")
}

// plain decides a use that is not a shell line or a path: a kind alone,
// a URL, an MCP tool, a sub-agent.
func (e *engine) plain(use agents.ToolPattern) Decision {
	for _, r := range e.deny {
		if r.bad || r.p.Overlaps(use) {
			return e.denied(r, "")
		}
	}
	if e.all {
		return e.unrestricted()
	}
	for _, r := range e.allow {
		if !r.bad && r.p.Matches(use) {
			return e.allowed(r, "")
		}
	}
	return Decision{Reason: "no allow rule matches"}
}

func (e *engine) describe(list, text string) string {
	s := fmt.Sprintf("%s rule %q", list, text)
	if e.ctx.Origin != nil {
		if o := e.ctx.Origin(list, text); o != "" {
			s += " (" + o + ")"
		}
	}
	return s
}

func (e *engine) denied(r rule, command string) Decision {
	return Decision{Rule: r.text, List: "deny", Command: command, Reason: e.describe("deny", r.text)}
}

func (e *engine) allowed(r rule, command string) Decision {
	return Decision{Allowed: true, Rule: r.text, List: "allow", Command: command, Reason: e.describe("allow", r.text)}
}

func (e *engine) unrestricted() Decision {
	reason := "the agent is unrestricted (every tool) and no deny rule matches"
	if e.ctx.Origin != nil {
		if o := e.ctx.Origin("unrestricted", ""); o != "" {
			reason += " (" + o + ")"
		}
	}
	return Decision{Allowed: true, List: "unrestricted", Reason: reason}
}

// refused is a refusal no rule made: what the call is, and what to do.
func refused(command, format string, args ...any) Decision {
	return Decision{Command: command, Reason: fmt.Sprintf(format, args...)}
}

// kindNames lists kinds for messages.
func kindNames(ks []agents.Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, "/")
}
