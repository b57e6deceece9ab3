// Package enforce decides whether an agent may make one tool call: the
// one decision `check`, the enforcement hooks, the MCP server's
// check_tool and the probes share.
//
//	d := enforce.Decide(agent.Tools, use, enforce.Context{Root: root})
//	if !d.Allowed { refuse(d.Reason) }
//
// Decide takes the agent's rules, the tool use (a kind and its argument,
// written as bn's patterns are: "shell(git diff --stat)", "read(src/a.go)",
// "edit(/abs/path)") and a Context (the repository root, the working
// directory, the home directory, the shells the line may run in, and the
// file system it reads). It returns the Decision: allowed or
// not, the rule that made it, a reason a model can act on, the files the
// call reads and writes (Accesses, so a caller can protect paths of its
// own), and the risks bn knows but cannot decide (Advisory).
//
// Deny rules win; a use no rule allows is refused; an unrestricted agent
// is allowed what no deny rule refuses.
//
// A shell command line is decided as bash and zsh would run it (mvdan.cc/sh
// parses it, in both variants): every simple command in it, in lists,
// pipelines, subshells, conditions and substitutions, must be allowed.
// Under a shell limited by patterns (an allow such as "shell(git diff:*)")
// the line may run nothing its patterns do not name, so it is refused
// whenever it holds anything that runs code by another road: command and
// process substitution, arithmetic and parameter expansions that
// evaluate, eval, source, aliases, functions, traps, assignments before a
// command, a command word that is not a plain word, and the arguments
// through which an allowed program itself runs code or writes files (the
// table in programs.go), and any option of a reader or writer that bn's
// table of its options does not list (options.go). A redirection that writes is an edit or a create
// of its file, allowed only where the rules allow that kind on that path;
// a reading redirection is a read. When bn is unsure, it refuses and says
// why.
//
// Under a shell allowed whole, deny rules are matched on each command as
// the shell would run it: quotes and backslashes removed, a path reduced
// to its base name, and runners such as command, env, nice, timeout,
// xargs or sh -c seen through. Such denies cannot hold against an
// interpreter or a script, so export reports them as advisory.
//
// Path rules ("read(src/*)") match the path with "." and ".." cleaned and
// symlinks resolved, and on Windows as Win32 opens it (win32Path: .env.
// and .env::$DATA are .env; streams and \\?\ paths are refused); a
// path-limited rule never matches a path that resolves outside its
// pattern or outside the repository.
//
// Every input is bounded (MaxLine, MaxDepth): a line too long or nested
// too deep is refused with a reason, never decided by a parser that runs
// out of stack.
package enforce
