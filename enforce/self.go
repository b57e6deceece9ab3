package enforce

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// bn itself: its commands that write change what defines or enforces
// an agent (export rewrites the agent files and compiled rules the hook
// reads, import and init the layers' config.kdl, fetch the shared
// sources and their lock), wherever the files are, and launch starts the
// Copilot CLI as another agent, whose calls no hook of this one sees.
// They are refused where the rules limit writes, and by the hook's
// guard; the commands that only read are left to the rules.

// bnCommands are bn's commands (cmd/bn), each with the options that
// take a value (so that a value is not read as a command or a flag), and
// for one that writes, the flags with which it writes nothing.
var bnCommands = map[string]struct {
	reads  bool
	values []string // options that take the next word as their value
	quiet  []string // flags with which it writes nothing
	bools  []string // its other flags, which take no value
}{
	"":                             {reads: true}, // help, or --version
	"help":                         {reads: true},
	"completion":                   {reads: true},
	"config":                       {reads: true},
	"config agents":                {reads: true},
	"config agents list":           {reads: true},
	"config agents show":           {reads: true},
	"config agents emit":           {reads: true},
	"config agents copilot-config": {reads: true},
	"config agents validate":       {reads: true},
	"config agents check":          {reads: true},
	"config agents diff":           {reads: true},
	"config agents sources":        {reads: true},
	"config agents doctor":         {reads: true},
	"config agents verify":         {reads: true}, // but with --client-dir: bnCommand
	"mcp":                          {reads: true},
	"mcp serve":                    {reads: true},
	"system":                       {reads: true},
	"system emit":                  {reads: true},
	"session":                      {reads: true},
	"config agents export": {values: []string{"--target", "--out", "--prefix", "--agent"}, quiet: []string{"--check", "--dry-run"},
		bools: []string{"--force", "--prune", "--strict", "--all-layers", "-v", "--verbose"}},
	"config agents import": {values: []string{"--from", "--layer", "-o", "--output", "--kdl-version"}, quiet: []string{"--dry-run"},
		bools: []string{"--force", "--move-originals", "-v", "--verbose"}},
	"config agents init":   {values: []string{"--layer", "--kdl-version"}, bools: []string{"--force"}},
	"config agents fetch":  {quiet: []string{"--check"}},
	"config agents launch": {quiet: []string{"--dry-run"}, bools: []string{"--host"}},
	"session init":         {quiet: []string{"--check"}, bools: []string{"--force", "--write-copilot-prompts", "--write-mcp-vscode", "--write-mcp-json"}},
	"system host-init":     {quiet: []string{"--check"}, bools: []string{"--force", "--write-copilot-agents", "--write-mcp-copilot"}},
}

// bnReadOnly names the commands an agent may run, for the refusal.
const bnReadOnly = "list, show, check, diff, validate, verify, sources, doctor, emit, help, --version, and export, import, fetch, launch, session init and system host-init with --check or --dry-run, where they have it"

// bnCall decides bn's own arguments: a command that writes (or one bn
// cannot name: an argument not known before the line runs) is refused
// where the rules limit writes, and recorded for the hook's guard, which
// refuses it.
func bnCall(w *walker, c call) {
	command, why := bnCommand(c.args)
	if why == "" {
		return
	}
	why = strings.TrimSpace("bn "+command) + ", " + why + "; bn's commands that write change what defines or enforces the agent, so an agent may run only those that read (" + bnReadOnly + "): ask the user to run it"
	if w.mode == limited || w.e.limits(agents.KindEdit) || w.e.limits(agents.KindCreate) {
		w.refuse(refused(c.text, "it runs %s", why))
		return
	}
	w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: strings.TrimSpace("bn " + command), Defines: why})
}

// bnCommand is the command bn's arguments name and, when it may write,
// what it writes ("" when it only reads). A command that writes is taken
// to, with an option bn does not know, unless -h or one of its quiet
// flags says it writes nothing.
func bnCommand(args []word) (command, writes string) {
	var path []string
	name := func() string { return strings.Join(path, " ") }
	spec := bnCommands[""]
	quiet, unknown := false, ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static() {
			return name(), "whose argument " + a.src + " is not known before the line runs and may name a command that writes"
		}
		v := a.value()
		if v == "--" {
			break
		}
		if strings.HasPrefix(v, "-") && v != "-" {
			switch {
			case v == "-C" || v == "--repo" || slices.Contains(spec.values, v):
				i++ // its value
			case strings.HasPrefix(v, "--") && slices.Contains(spec.values, v[:max(strings.IndexByte(v, '='), 0)]):
			case slices.Contains([]string{"-H", "--human", "--json"}, v), strings.HasPrefix(v, "--repo="),
				strings.HasPrefix(v, "-C") && !strings.HasPrefix(v, "--"), slices.Contains(spec.bools, v):
			case slices.Contains(spec.quiet, v), v == "-h", v == "--help":
				quiet = true
			default:
				unknown = v
			}
			continue
		}
		if isLeaf(name()) {
			continue // an operand
		}
		next, ok := bnCommands[strings.TrimSpace(name()+" "+v)]
		switch {
		case !ok && name() == "config agents":
			return name() + " " + v, "which is not a command bn knows, so it may be one that writes"
		case !ok:
			// Another program's command (binnacle's bn agent, bn task):
			// bn's own are under config agents, session and system.
			return "", ""
		}
		path, spec = append(path, v), next
	}
	switch {
	case name() == "config agents verify" && slices.ContainsFunc(args, func(a word) bool { return strings.HasPrefix(a.value(), "--client-dir") }):
		return name(), "with --client-dir, which runs the programs in the directory it names as clients, and the agent may have written them"
	case spec.reads || quiet && unknown == "":
		return name(), ""
	case unknown != "":
		return name(), "which writes unless " + strings.Join(append(spec.quiet, "-h"), " or ") + " says not to, with " + unknown + ", an option bn does not know"
	case name() == "config agents launch":
		return name(), "which starts the Copilot CLI as another agent, whose calls this agent's hook does not see"
	}
	return name(), "which writes the layers' config.kdl, the shared sources or the agent files and compiled rules export writes"
}

// isLeaf says whether a command of bn has no subcommands.
func isLeaf(command string) bool {
	if command == "" {
		return false
	}
	for k := range bnCommands {
		if strings.HasPrefix(k, command+" ") {
			return false
		}
	}
	return true
}

// program is what bn knows of the program a command word runs: by its
// base name, or bn's own when the word runs bn's executable under
// another name (runsSelf).
func (w *walker) program(cw word, d dirs) *program {
	if baseName(cw.value()) != "bn" && w.e.runsSelf(cw, d) {
		return w.e.programs["bn"]
	}
	return w.lookup(cw.value())
}

// runsSelf says whether a command word runs bn's executable (Context.Self)
// under another name: the file the word names (a path, from each
// directory the line may be in; a name, the first on PATH) is bn's, by a
// link, hard or symbolic, or is a copy of it, of the same size and
// content (read only when the sizes match, so a line is decided fast). A
// copy changed in any byte is another program: the guard holds the lines
// agents write, not one set on getting round it (docs/enforcement.md).
func (e *engine) runsSelf(cw word, d dirs) bool {
	if e.ctx.Self == "" || !cw.static() || cw.value() == "" {
		return false
	}
	if !e.selfRead {
		e.self, _ = os.Stat(e.ctx.Self)
		e.selfRead = true
	}
	if e.self == nil {
		return false
	}
	for _, f := range e.commandFiles(cw.value(), d) {
		if os.SameFile(f.info, e.self) || f.info.Size() == e.self.Size() && sameContent(f.path, e.ctx.Self) {
			return true
		}
	}
	return false
}

// commandFile is a regular file a command word may run, with its stat.
type commandFile struct {
	path string
	info fs.FileInfo
}

// regularFile is the commandFile at path, if it is a regular file.
func regularFile(path string) (commandFile, bool) {
	fi, err := os.Stat(path)
	return commandFile{path, fi}, err == nil && fi.Mode().IsRegular()
}

// commandFiles are the files a shell may run for a command word: a path
// from each known directory the line may be in; for a name, the files by
// that name in the first PATH entry that has one (with .exe on Windows;
// a relative entry from each directory the line may be in).
func (e *engine) commandFiles(name string, d dirs) []commandFile {
	names := []string{name}
	if runtime.GOOS == "windows" && filepath.Ext(name) == "" {
		names = append(names, name+".exe")
	}
	var out []commandFile
	add := func(path string) {
		if f, ok := regularFile(path); ok {
			out = append(out, f)
		}
	}
	if strings.ContainsAny(name, `/\`) {
		for _, n := range names {
			if filepath.IsAbs(n) {
				add(n)
				continue
			}
			for _, dir := range d.at {
				if dir != "" {
					add(filepath.Join(dir, n))
				}
			}
		}
		return out
	}
	if e.ctx.Getenv == nil {
		return nil
	}
	for _, entry := range filepath.SplitList(e.ctx.Getenv("PATH")) {
		at := []string{entry}
		if !filepath.IsAbs(entry) { // from each directory the line may be in
			at = nil
			for _, dir := range d.at {
				if dir != "" {
					at = append(at, filepath.Join(dir, entry))
				}
			}
		}
		for _, dir := range at {
			for _, n := range names {
				add(filepath.Join(dir, n))
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// sameContent compares two files of the same size byte for byte.
func sameContent(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 1<<16), make([]byte, 1<<16)
	for {
		na, errA := io.ReadFull(fa, ba)
		nb, errB := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if errA != nil || errB != nil { // the end of both, at the same byte
			return errors.Is(errA, io.EOF) && errors.Is(errB, io.EOF) || errors.Is(errA, io.ErrUnexpectedEOF) && errors.Is(errB, io.ErrUnexpectedEOF)
		}
	}
}
