package hookrules

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/resolver"
)

// Call is one call a tool's hook asks about.
type Call struct {
	Place
	Name  string           // the agent the hook command names
	Rules string           // the rules file it names (dialect.RulesPath)
	Call  dialect.HookCall // the call, as the tool gave it
	// Load resolves the layers of a scope as every bn command does,
	// failing closed: what the rules are checked against when the layers
	// changed since they were last found to give them.
	Load func(resolver.Scope) (*resolver.Set, error)
}

// Verdict is the hook's answer.
type Verdict struct {
	Allowed bool
	Reason  string // why not
	// Ask: allowed once the user agrees, which the tool asks before the
	// call; AskReason says which ask rule asks.
	Ask       bool
	AskReason string
}

// Decide answers a hook call from the agent's compiled rules: refused
// when they cannot be read whole, when the layers no longer give them,
// when the call would change what defines or enforces the agent, or when
// the rules do not allow it.
func Decide(c Call) Verdict {
	info := c.Tool
	export := "bn config agents export --target " + info.Name
	refuse := func(format string, args ...any) Verdict {
		return Verdict{Reason: fmt.Sprintf(format, args...)}
	}
	if c.Rules == "" {
		return refuse("the hook names no compiled rules (--rules), as the hooks an earlier bn wrote did: run %s to write the agent's file again", export)
	}
	path, err := c.locate(info)
	if err != nil {
		return refuse("%v", err)
	}
	r, data, err := Read(path)
	switch {
	case errors.Is(err, ErrMissing):
		return refuse("agent %s's compiled rules are missing (%s, in the repository holding %s, where the session started), so none of its calls the hook sees run: run %s in that repository, or start the session in the repository the agent was exported into", c.Name, path, info.Hook.ProjectDir, export)
	case err != nil:
		return refuse("agent %s's compiled rules cannot be read whole (%v), so none of its calls the hook sees run: run %s", c.Name, strings.TrimPrefix(err.Error(), ErrDamaged.Error()+": "), export)
	case r.Agent != c.Name || r.Tool != info.Name:
		return refuse("%s holds the rules of agent %s for %s, not of agent %s for %s: run %s", path, r.Agent, r.Tool, c.Name, info.Name, export)
	}
	if why := c.current(r, path, data); why != "" {
		return refuse("%s; until the rules export wrote match the definitions again, none of its calls the hook sees run: run %s", why, export)
	}
	return c.decide(r)
}

// ProjectRoot is the repository root a hook of the tool decides from:
// the repository holding the project directory the tool names in its
// hook's environment (dialect.Hook.ProjectDir, where the session
// started), found as git finds it (resolver.RepoRootFrom). A session
// started in a subfolder decides as one started at the root: Claude Code
// finds the agents of every .claude/agents from there up, and export
// writes them, with their compiled rules, at the repository's root. The
// working directory is never asked: the agent's cd moves it into any
// directory holding a .git, with rules of its own making. Without the
// variable the hook cannot tell which project's rules hold, and fails.
func ProjectRoot(info *dialect.Info, getenv func(string) string) (root, start string, err error) {
	name := info.Hook.ProjectDir
	dir := getenv(name)
	fix := fmt.Sprintf("%s sets it for the hooks it runs; to run the hook by hand, set %s to the repository the agent was exported into", info.Title, name)
	if dir == "" {
		return "", "", fmt.Errorf("%s is not set, so bn cannot tell which project's rules decide the call: %s", name, fix)
	}
	if !filepath.IsAbs(dir) {
		return "", "", fmt.Errorf("%s=%s is not an absolute path, so bn cannot tell which project's rules decide the call: %s", name, dir, fix)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", "", fmt.Errorf("%s=%s names no directory, so bn cannot tell which project's rules decide the call: %s", name, dir, fix)
	}
	if start, err = filepath.EvalSymlinks(dir); err == nil {
		root, err = resolver.RepoRootFrom(start)
	}
	if err != nil {
		return "", "", fmt.Errorf("%s=%s: %v, so bn cannot tell which project's rules decide the call: %s", name, dir, err, fix)
	}
	return root, start, nil
}

// Paths are the layers' paths a hook of the tool decides from: found
// from its ProjectRoot, whatever the working directory, -C or BN_REPO
// say; start is the directory the session started in.
func Paths(info *dialect.Info, in resolver.PathInputs) (p resolver.Paths, start string, err error) {
	root, start, err := ProjectRoot(info, in.Getenv)
	if err != nil {
		return resolver.Paths{}, "", err
	}
	in.RepoFlag = root
	p, err = resolver.DiscoverPaths(in)
	return p, start, err
}

// locate finds the rules file the hook names: relative to the repository
// root, or, for a file exported into the tool's directory in the home
// directory, relative to that. Its agent file must be beside it.
func (c Call) locate(info *dialect.Info) (string, error) {
	rel := filepath.ToSlash(c.Rules)
	if !strings.HasSuffix(rel, dialect.RulesExt) || files.CheckRel(rel) != nil {
		return "", fmt.Errorf("the hook names %q as the agent's compiled rules, which is not a file export writes (DIR/NAME%s inside the repository): run bn config agents export --target %s", c.Rules, dialect.RulesExt, info.Name)
	}
	bases := []string{c.Paths.RepoRoot}
	if c.Home != "" {
		bases = append(bases, c.Home)
	}
	for _, base := range bases {
		p := filepath.Join(base, filepath.FromSlash(rel))
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		agent := strings.TrimSuffix(p, dialect.RulesExt) + info.Ext
		if _, err := os.Stat(agent); err != nil {
			return "", fmt.Errorf("%s has no agent file beside it (%s): run bn config agents export --target %s", p, agent, info.Name)
		}
		return p, nil
	}
	return filepath.Join(c.Paths.RepoRoot, filepath.FromSlash(rel)), nil
}

// current says why the layers no longer give the rules of path, or ""
// when they do. The layers found to give them are remembered, by a
// fingerprint of their files, in bn's cache: while the fingerprint holds,
// nothing is decoded.
func (c Call) current(r Rules, path string, data []byte) string {
	scope := r.LayerScope()
	fp, settled := c.Paths.Fingerprint(scope)
	memo := c.memo(path)
	want := []byte(Digest(data) + " " + fp + "\n")
	if memo != "" {
		if old, err := os.ReadFile(memo); err == nil && bytes.Equal(old, want) {
			return ""
		}
	}
	set, err := c.Load(scope)
	if err != nil {
		return fmt.Sprintf("the definitions do not load (%s)", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	a, err := set.Lookup(r.Agent)
	if err != nil {
		return fmt.Sprintf("agent %s no longer resolves (%v)", r.Agent, err)
	}
	if !r.Same(a.Tools) {
		return fmt.Sprintf("agent %s's tools changed since export wrote %s", r.Agent, path)
	}
	if memo != "" && settled {
		// Remembered only once the files have settled: a change in the
		// same clock tick as the last would not show in the fingerprint.
		_, _ = emit.WriteFileAtomic(memo, want, 0o600)
	}
	return ""
}

// memo is where the fingerprint of the layers that give the rules of
// path is remembered ("" when bn has no cache directory).
func (c Call) memo(path string) string {
	if c.Paths.CacheDir == "" {
		return ""
	}
	abs, _ := filepath.Abs(path)
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(c.Paths.CacheDir, "hooks", hex.EncodeToString(sum[:12]))
}

// decide decides the call from the rules (package enforce), and refuses
// every change it would make to what defines or enforces the agent (the
// files it writes, the shell line's redirections among them).
func (c Call) decide(r Rules) Verdict {
	req, err := c.Tool.Hook.Request(c.Call)
	if err != nil {
		return Verdict{Reason: err.Error()}
	}
	// The commands the agent runs start in the environment the tool gave
	// the hook: its GIT_WORK_TREE and GIT_DIR move git for them too.
	ctx := enforce.Context{Root: c.Paths.RepoRoot, Dir: c.Call.Dir, Home: c.Home, CDPATH: os.Getenv("CDPATH"), Getenv: os.Getenv, Self: c.Self}
	if ctx.Dir == "" {
		ctx.Dir = ctx.Root
	}
	if runtime.GOOS == "windows" {
		ctx.Shells = []enforce.Shell{c.Tool.Hook.WindowsShell}
	}
	tools := r.Tools()
	uses := []agents.ToolPattern{req}
	if abs, ok := enforce.Absolute(req.Arg, ctx.Dir); ok && agents.Kind(req.Kind) == agents.KindCreate && files.Exists(abs) {
		// Writing over a file that exists edits it: a deny of edit(X)
		// holds against Write too.
		uses = append(uses, agents.ToolPattern{Kind: string(agents.KindEdit), Arg: req.Arg, HasArg: true})
	}
	pl := c.Place
	pl.Dir = ctx.Dir
	g := NewGuard(pl)
	var v Verdict
	for _, use := range uses {
		d := enforce.Decide(tools, use, ctx)
		if !d.Allowed {
			return Verdict{Reason: fmt.Sprintf("agent %s may not use %s: %s", r.Agent, agents.Brief(use.String(), 200), d.Reason)}
		}
		if d.Ask && !v.Ask {
			v.Ask, v.AskReason = true, fmt.Sprintf("agent %s asks before %s: %s", r.Agent, agents.Brief(use.String(), 200), d.AskReason)
		}
		if why := g.Writes(d, ctx.Dir, tools); why != "" {
			return Verdict{Reason: fmt.Sprintf("agent %s may not use %s: %s", r.Agent, agents.Brief(use.String(), 200), why)}
		}
	}
	v.Allowed = true
	return v
}
