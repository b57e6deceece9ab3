package export

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/hookrules"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/par"
	"github.com/binnacle-dev/bn/resolver"
)

// Options say what to export where.
type Options struct {
	Targets   []dialect.Dialect
	Root      string // the repository root; targets' directories are inside it
	Out       string // write here instead of the target's directory (one target)
	Agents    []string
	Prefix    string
	Force     bool
	Prune     bool
	AllLayers bool
	// Regenerate is the command a file's marker names; Target adds
	// --target NAME. Empty: bn config agents export.
	Regenerate string
	// Ext overrides the target's file ending (binnacle's Copilot user
	// agents are .md).
	Ext string
	// Record is the project's import record: shadowing files it names
	// are originals, which import --move-originals moves aside.
	Record importer.Record
	// Registry reads the files already in the tools' directories (nil:
	// every tool).
	Registry dialect.Registry
}

// Skip is an agent a target does not get, and why.
type Skip struct {
	Agent  string `json:"agent"`
	Reason string `json:"reason"`
	Fix    string `json:"fix,omitempty"`
	// OverLimit marks an agent whose definition holds a value over one
	// of bn's limits (agents.LimitError): no target can get it, so the
	// export fails, where a skip by policy or by one tool's rules does not.
	OverLimit bool `json:"over_limit,omitempty"`
}

// AgentLoss is one difference between an agent and its file.
type AgentLoss struct {
	Agent string `json:"agent"`
	dialect.Loss
	// Fingerprint names the difference for an accept node (every one
	// --strict would refuse has one); Accepted says one accepts it.
	Fingerprint string `json:"fingerprint,omitempty"`
	Accepted    bool   `json:"accepted,omitempty"`
}

// TargetReport is what an export did, or would do, for one tool.
type TargetReport struct {
	Target    string             `json:"target"`
	Dir       string             `json:"dir"`
	Written   bool               `json:"written"`
	OutOfDate int                `json:"out_of_date"`
	Files     []emit.PlannedFile `json:"files"`
	Skipped   []Skip             `json:"skipped"`
	Losses    []AgentLoss        `json:"losses"`
	// LeftOut are built-in agents not exported by default (Result.LeftOut).
	LeftOut []string `json:"built_ins_left_out,omitempty"`
	// LayersLeftOut are agents of the layers export does not read
	// (Result.LayersLeftOut).
	LayersLeftOut []LayerLeftOut `json:"layers_left_out,omitempty"`
	// Copies are the other tools' directories this export writes that
	// the tool reads too, finding each agent there again
	// (dialect.Info.LoadsCopies).
	Copies []Copy `json:"copies,omitempty"`
	// Shadowing are other files in the tool's directories that the tool
	// reads as one of these agents: the export refuses while any remains.
	Shadowing []Shadow `json:"shadowing"`
	// StaleAccepts are accept nodes for this target that matched no
	// difference: a warning, and an error under --strict.
	StaleAccepts []StaleAccept `json:"stale_accepts"`
	// Setup says what else the tool needs to load the files.
	Setup string `json:"setup,omitempty"`
	// Verified says whether the tool's client checks what bn writes for
	// it (its npm package, as the probes run it), or that none does.
	Verified string `json:"verified"`
	// Counts summarise the agents: written, overridden (a file that
	// replaces or merges into a built-in agent), renamed (written under
	// another id), skipped; and the differences (every loss but renames),
	// of which widenings.
	Counts Counts `json:"counts"`

	plan emit.Plan
	// hooked counts the files written with bn's hook.
	hooked int
	d      dialect.Dialect
	ext    string
	// defined are the rules of each agent written, as defined now: what
	// a hook would decide from once they are exported (Widenings).
	defined map[string]agents.Tools
}

// Counts are per-target agent totals.
type Counts struct {
	Agents     int `json:"agents"`
	Overridden int `json:"overridden"`
	Renamed    int `json:"renamed"`
	Skipped    int `json:"skipped"`
	Losses     int `json:"losses"`
	Widened    int `json:"widened"`
	// Accepted counts the differences the definitions accept (accept
	// nodes): reported, and not refused by --strict.
	Accepted int `json:"accepted"`
	// Enforced counts limits a file cannot say that a hook written with
	// it enforces: not differences, since the tool refuses what the
	// definition does not allow.
	Enforced int `json:"enforced"`
	// Advisory counts limits a file carries that do not hold against
	// what else the agent may do (dialect.Honest): differences.
	Advisory int `json:"advisory"`
}

// Result is a planned export.
type Result struct {
	Reports []*TargetReport
	// Conflicts are files in the way that bn did not write.
	Conflicts []string
	// LeftOut are the built-in agents left out by default: the
	// repository is not a binnacle project (resolver.Set.Exported).
	LeftOut []string
	// LayersLeftOut are the agents only a private layer (system, session)
	// defines, which export reads only with --all-layers.
	LayersLeftOut []LayerLeftOut
	// Shadows are files a tool would read beside bn's (TargetReport.Shadowing).
	Shadows []Shadow
	// Display shortens paths in messages.
	Display func(string) string
	record  importer.Record
	root    string
	// base is the directory every file is written inside: --out, else
	// the repository.
	base string

	catalog *agents.Catalog
}

// LayerLeftOut is an agent of a layer the export does not read.
type LayerLeftOut struct {
	Agent string `json:"agent"`
	Layer string `json:"layer"`
}

// Plan renders every agent for every target and decides what to write.
func Plan(set *resolver.Set, opts Options) (*Result, error) {
	if opts.Prefix != "" {
		// The prefix becomes part of every file name: it may not lead
		// anywhere else.
		if err := files.CheckSegment(opts.Prefix + "x"); err != nil {
			return nil, fmt.Errorf("--prefix %q: a prefix %v; use letters, digits, '-', '_' or '.'", opts.Prefix, strings.TrimPrefix(err.Error(), "is "))
		}
	}
	res := &Result{Display: func(s string) string { return s }, record: opts.Record, root: opts.Root, base: cmp.Or(opts.Out, opts.Root)}
	names := opts.Agents
	explicit := len(names) > 0
	if !explicit {
		for _, n := range set.Names() {
			a, _ := set.Agent(n)
			if !set.Exported(a) {
				if set.BuiltInsUnsaid() {
					res.LeftOut = append(res.LeftOut, n)
				}
				continue
			}
			names = append(names, n)
		}
		for _, a := range set.LeftOutAgents() {
			res.LayersLeftOut = append(res.LayersLeftOut, LayerLeftOut{Agent: a.Name, Layer: string(a.Layer)})
		}
	}
	// Resolve every agent, read its prompt and fill its placeholders once,
	// for all targets.
	defs := make([]agentDef, len(names))
	for i, name := range names {
		a, err := set.Lookup(name)
		if err != nil {
			if explicit {
				return nil, err
			}
			if err := badAccepts(set, name); err != nil {
				return nil, err
			}
			defs[i] = agentDef{def: agents.Definition{Name: name}, err: err}
			continue
		}
		def, err := a.WithPrompt()
		if err != nil {
			defs[i] = agentDef{def: agents.Definition{Name: name}, err: err}
			continue
		}
		var filled []dialect.Loss
		def.Prompt, filled, err = fillPlaceholders(def)
		if err != nil {
			defs[i] = agentDef{def: agents.Definition{Name: name}, err: err}
			continue
		}
		defs[i] = agentDef{def: def, filled: filled}
	}
	// The catalog is built on first use; built here, the renderers that
	// run side by side only read it.
	catalog := set.Catalog()
	res.catalog = catalog
	left := set.LeftOutAccepts()
	for _, d := range opts.Targets {
		rep, err := planTarget(catalog, opts, d, defs, explicit, set.PolicyDenies())
		if err != nil {
			return nil, err
		}
		rep.StaleAccepts = append(rep.StaleAccepts, leftOut(left, d.Info().Name, opts.Agents)...)
		rep.LeftOut, rep.LayersLeftOut = res.LeftOut, res.LayersLeftOut
		res.Conflicts = append(res.Conflicts, rep.plan.Conflicts()...)
		res.Shadows = append(res.Shadows, rep.Shadowing...)
		res.Reports = append(res.Reports, rep)
	}
	sharedCopies(res.Reports, opts.Root)
	layers, err := resolver.LayerDirs(set.Layers)
	if err != nil {
		return nil, err
	}
	if err := checkPlaces(res.Reports, layers, opts.Root); err != nil {
		return nil, err
	}
	return res, nil
}

// Copy is another tool's directory that a tool reads too.
type Copy struct {
	Target string `json:"target"`
	Dir    string `json:"dir"`
}

// sharedCopies notes, for each tool that loads every copy of an agent
// (dialect.Info.LoadsCopies), the directories of the repository it reads
// that this export writes agents into for another tool.
func sharedCopies(reps []*TargetReport, root string) {
	for _, rep := range reps {
		info := rep.d.Info()
		if !info.LoadsCopies || rep.Counts.Agents == 0 {
			continue
		}
		for _, sd := range info.Dirs(dialect.Env{Cwd: root, RepoRoot: root, ProjectOnly: true}) {
			for _, other := range reps {
				if other != rep && sd.Location == dialect.ProjectLocation && other.Dir == sd.Path && other.Counts.Agents > 0 {
					rep.Copies = append(rep.Copies, Copy{Target: other.Target, Dir: other.Dir})
				}
			}
		}
	}
}

// agentDef is one agent resolved for export: its definition with the
// prompt read and the placeholders filled, or why it cannot be exported.
type agentDef struct {
	def    agents.Definition
	filled []dialect.Loss // what filling the placeholders changed
	err    error
}

// planTarget renders every agent for one target and plans its files.
func planTarget(catalog *agents.Catalog, opts Options, d dialect.Dialect, defs []agentDef, explicit bool, denies []resolver.PolicyDeny) (*TargetReport, error) {
	info := d.Info()
	dir := filepath.Join(opts.Root, filepath.FromSlash(info.Dir))
	switch {
	case opts.Out != "" && info.Beside():
		// Its files beside the agents directory stay inside --out too:
		// the directory stands for the repository.
		dir = filepath.Join(opts.Out, filepath.FromSlash(info.Dir))
	case opts.Out != "":
		dir = opts.Out
	}
	ext := info.Ext
	if opts.Ext != "" {
		ext = opts.Ext
	}
	regenerate := opts.Regenerate
	if regenerate == "" {
		regenerate = Command(info.Name, opts.Prefix, opts.Out, opts.AllLayers)
	}
	rep := &TargetReport{Target: info.Name, Dir: dir, Files: []emit.PlannedFile{}, Skipped: []Skip{}, Losses: []AgentLoss{}, Setup: info.Setup,
		Verified: info.Verified(), Shadowing: []Shadow{}, StaleAccepts: []StaleAccept{}, d: d, ext: ext, defined: map[string]agents.Tools{}}
	byID := map[string]string{} // the tool's id -> agent
	var wants, ruleWants, companionWants []emit.Want
	owner := map[string]string{} // file -> agent
	type written struct{ agent, path string }
	folded := map[string]written{} // file, lower case -> agent
	baseDir := opts.Out
	if baseDir == "" {
		baseDir = opts.Root
	}
	base, err := files.OpenDir(baseDir)
	if err != nil {
		return nil, err
	}
	if err := checkDir(dir, info); err != nil {
		return nil, err
	}
	// Rendering is most of a target's plan: the agents are rendered side
	// by side, then reported in order.
	rendered := make([]agentFile, len(defs))
	// Each agent's id there first: an agent that names another (a
	// sub-agent it may start, a hand-off) names it by its id there.
	ids := map[string]string{}
	for i, ad := range defs {
		if ad.err != nil {
			continue
		}
		f := &rendered[i]
		if f.id, f.idLosses, f.skip = targetID(info, ad.def, opts.Prefix); f.skip == nil && f.id != ad.def.Name {
			ids[ad.def.Name] = f.id
		}
	}
	marker := emit.Marker(regenerate)
	par.Do(len(defs), 16, func(i int) {
		if defs[i].err == nil && rendered[i].skip == nil {
			renderAgent(&rendered[i], d, info, catalog, base, opts, defs[i].def, ids, marker, ext)
		}
	})
	for i, ad := range defs {
		if ad.err != nil {
			rep.skip(ad.def.Name, ad.err.Error(), "fix the agent (bn config agents validate lists every problem)")
			var limit *agents.LimitError
			rep.Skipped[len(rep.Skipped)-1].OverLimit = errors.As(ad.err, &limit)
			continue
		}
		def, f := ad.def, &rendered[i]
		if f.skip != nil {
			rep.Skipped = append(rep.Skipped, *f.skip)
			rep.Counts.Skipped++
			continue
		}
		if f.renderErr != nil {
			rep.skip(def.Name, f.renderErr.Error(), "")
			continue
		}
		if f.pathErr != nil {
			// Another id helps when the name is the problem, not when a
			// directory on the way is (a symlink out, a file): the
			// error names that and its fix.
			fix := ""
			var name idPathError
			if errors.As(f.pathErr, &name) {
				fix = fmt.Sprintf("give it a plain file name there: %s { id \"…\" }", info.Name)
			}
			rep.skip(def.Name, f.pathErr.Error(), fix)
			continue
		}
		id, out, path := f.id, f.out, f.path
		losses := slices.Concat(ad.filled, f.idLosses, out.Losses, f.hookLosses)
		// Names that differ only in case are one file on macOS's and
		// Windows' usual file systems, and names that differ only in how
		// an accented letter is encoded (NFC or NFD) are one on macOS's: a
		// checkout there would keep one.
		key := strings.ToLower(norm.NFC.String(path))
		if other, dup := folded[key]; dup {
			where := path
			switch {
			case owner[path] != "":
			case strings.EqualFold(other.path, path):
				where = fmt.Sprintf("%s and %s, one file on macOS and Windows, whose file names ignore case,", other.path, path)
			case norm.NFC.String(other.path) == norm.NFC.String(path):
				where = fmt.Sprintf("%s and %s, one file on macOS, whose file names ignore how an accented letter is encoded (é as one character or as e and an accent),", other.path, path)
			default: // they differ in both
				where = fmt.Sprintf("%s and %s, one file on macOS, whose file names ignore both case and how an accented letter is encoded (é as one character or as e and an accent),", other.path, path)
			}
			return nil, fmt.Errorf("agents %q and %q would both be written to %s for %s; give one another name there (%s { id \"…\" })",
				other.agent, def.Name, where, info.Title, info.Name)
		}
		folded[key] = written{def.Name, path}
		owner[path] = def.Name
		byID[id] = def.Name
		wants = append(wants, emit.Want{Path: path, Agent: def.Name, Content: out.Content})
		if c := info.Companion; c != nil {
			// The agent's second file, in the same write as the first.
			companionWants = append(companionWants, emit.Want{Path: c.Path(path, ext), Content: out.Companion})
		}
		rep.defined[def.Name] = def.Tools
		if f.rules != nil {
			ruleWants = append(ruleWants, emit.Want{Path: rulesPath(path, ext), Agent: def.Name, Content: f.rules})
			rep.hooked++
		}
		rep.Counts.Agents++
		if id != def.Name {
			rep.Counts.Renamed++
		}
		acc := &acceptor{d: d, denies: denies, def: def, used: map[string]bool{}}
		for _, l := range losses {
			al := AgentLoss{Agent: def.Name, Loss: l}
			accepted, err := acc.mark(info.Name, &al)
			if err != nil {
				return nil, err
			}
			rep.Losses = append(rep.Losses, al)
			if accepted {
				rep.Counts.Accepted++
			}
			switch l.Kind {
			case dialect.Override:
				rep.Counts.Overridden++
			case dialect.Widened:
				rep.Counts.Widened++
			case dialect.Advisory:
				rep.Counts.Advisory++
			case dialect.Enforced:
				rep.Counts.Enforced++
				continue
			}
			if l.Kind != dialect.Renamed {
				rep.Counts.Losses++
			}
		}
		rep.StaleAccepts = append(rep.StaleAccepts, acc.stale(info.Name)...)
	}
	if info.Package != nil && len(wants) > 0 {
		// What the tool needs beside the agent files to load them.
		for _, w := range info.Package(opts.Root, dir, marker) {
			if err := beside(base, baseDir, w.Path, info); err != nil {
				return nil, err
			}
			wants = append(wants, emit.Want{Path: w.Path, Content: emit.Seal(w.Content)})
		}
	}
	if h := info.Hook; h != nil && h.Setup != "" && rep.hooked > 0 {
		rep.Setup = strings.TrimPrefix(rep.Setup+"; "+h.Setup, "; ")
	}
	// bn's files from before are looked for in every directory the tool
	// reads below its own; --out names any directory (/, ..), and only it
	// and the directories written to are looked in there.
	deep := info.Recursive && (opts.Out == "" || info.Beside())
	plan, err := emit.PlanFiles(dir, ext, deep, wants, opts.Force, opts.Prune && !explicit)
	if err != nil {
		return nil, err
	}
	if info.Hook != nil {
		// The rules each hook decides from, beside its file, in the same
		// write as the files.
		rules, err := emit.PlanFiles(dir, dialect.RulesExt, deep, ruleWants, opts.Force, opts.Prune && !explicit)
		if err != nil {
			return nil, err
		}
		for i, f := range rules.Files {
			switch {
			case f.Action == emit.Stale && owner[strings.TrimSuffix(f.Path, dialect.RulesExt)+ext] != "":
				// The rules of an agent written now without a hook are
				// no one's: removed, as no file names them.
				rules.Files[i].Action = emit.Remove
			case f.Action == emit.Edited:
				// Rules are bn's alone, never edited by hand: one that
				// no longer matches its digest is damaged, and replaced.
				rules.Files[i].Action = emit.Update
			}
		}
		plan.Add(rules)
	}
	if c := info.Companion; c != nil {
		// The directory itself, not each companion: a stale one is
		// removed from it too.
		if err := beside(base, baseDir, c.CompanionDir(dir), info); err != nil {
			return nil, err
		}
		// Companion files no agent written now names are stale as agent
		// files are: removed with --prune.
		// bn's agent files on disk say which companions are bn's.
		records, err := emit.CompanionRecords(dir, ext, deep, wants, func(p string) string { return c.Path(p, ext) })
		if err != nil {
			return nil, err
		}
		companions, err := emit.PlanCompanions(c.CompanionDir(dir), c.Ext, deep, companionWants, records, opts.Force, opts.Prune && !explicit)
		if err != nil {
			return nil, err
		}
		plan.Add(companions)
	}
	if opts.Out == "" {
		reg := opts.Registry
		if reg == nil {
			reg = dialect.All()
		}
		rep.Shadowing = append(rep.Shadowing, Foreign(d, opts.Root, reg, catalog, byID, owner, opts.Record)...)
	}
	if explicit { // a partial export does not judge other files
		plan.Files = slices.DeleteFunc(plan.Files, func(f emit.PlannedFile) bool { return f.Action == emit.Stale })
	}
	rep.plan = plan
	rep.OutOfDate = plan.OutOfDate() + len(rep.Shadowing)
	rep.Files = append(rep.Files, plan.Files...)
	return rep, nil
}

// beside refuses a file or directory export writes beside the agent files
// (the companions' directory, a package's manifest) when a symlink on the
// way leads out of base, as agentPath does for the agent files: the whole
// plan fails, so that nothing is written.
func beside(base files.Dir, baseDir, p string, info *dialect.Info) error {
	rel, err := filepath.Rel(baseDir, p)
	if err == nil {
		_, err = base.Join(filepath.ToSlash(rel))
	}
	if err != nil {
		return fmt.Errorf("cannot write %s's files: %w; nothing was written", info.Title, err)
	}
	return nil
}

// checkDir refuses a target directory that cannot hold files: it, or the
// nearest part of it that exists, is not a directory.
func checkDir(dir string, info *dialect.Info) error {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil:
			return fmt.Errorf("cannot write %s's agents into %s: %s is a file, not a directory; move it away, or pass --out; nothing was written", info.Title, dir, d)
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("cannot write %s's agents into %s: %w; nothing was written", info.Title, dir, err)
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// agentFile is one agent rendered for a target, or why it is not.
type agentFile struct {
	id                 string
	idLosses           []dialect.Loss
	skip               *Skip
	out                dialect.Rendered
	path               string
	renderErr, pathErr error
	// rules are the compiled rules the file's hook decides from (nil:
	// no hook), and hookLosses what export says of them.
	rules      []byte
	hookLosses []dialect.Loss
}

// renderAgent renders and seals one agent's file, under the id f holds,
// and finds its path; ids are the other agents' ids there that differ
// from their names.
func renderAgent(f *agentFile, d dialect.Dialect, info *dialect.Info, catalog *agents.Catalog, base files.Dir, opts Options, def agents.Definition, ids map[string]string, marker, ext string) {
	if len(ids) > 0 {
		def = def.Clone()
		dialect.RenameRefs(&def, info, ids)
	}
	if f.out, f.renderErr = d.Render(def, f.id, marker, catalog); f.renderErr != nil {
		return
	}
	f.out.Losses = dialect.Honest(info, def.Tools, dialect.Asked(info, &def, f.out.Losses), runtime.GOOS)
	f.out.Content = seal(f.out)
	f.path, f.pathErr = agentPath(base, opts, info, f.id, ext)
	if len(dialect.HookKinds(info, &def)) > 0 {
		scope := resolver.Committed
		if opts.AllLayers {
			scope = resolver.AllLayers
		}
		f.rules = hookrules.Encode(hookrules.New(&def, info.Name, scope), marker)
		for _, rule := range hookrules.Exceptions(opts.Root, info, def.Tools) {
			f.hookLosses = append(f.hookLosses, dialect.Loss{Field: "tools", Kind: dialect.SelfEdit,
				Detail: fmt.Sprintf("allow %q lets the agent edit what defines or enforces it (its layers, %s's files, its compiled rules): it can widen itself, and bn's hook lets it", rule, info.Title)})
		}
	}
}

// seal is a rendered agent file as export writes it: sealed, recording
// its companion's digest when it has one, which makes the companion bn's.
func seal(out dialect.Rendered) []byte {
	if out.Companion != nil {
		return emit.Seal(emit.WithCompanion(out.Content, out.Companion))
	}
	return emit.Seal(out.Content)
}

// agentPath is where an agent's file goes: inside the target's directory
// (or --out, which base is then), whatever the id says and wherever
// symlinks there lead.
func agentPath(base files.Dir, opts Options, info *dialect.Info, id, ext string) (string, error) {
	if strings.Contains(id, "/") && !info.Recursive {
		return "", idPathError{fmt.Errorf("id %q names a subdirectory, and %s reads no agents from subdirectories", id, info.Title)}
	}
	if err := files.CheckRel(id + ext); err != nil {
		return "", idPathError{fmt.Errorf("not written: its file name %w", err)}
	}
	rel := id + ext
	if opts.Out == "" || info.Beside() {
		rel = info.Dir + "/" + rel
	}
	p, err := base.Join(rel)
	if err != nil {
		return "", fmt.Errorf("not written: %w", err)
	}
	return p, nil
}

// idPathError is an agent's file path refused for its id, which another
// id (the tool's section's) fixes.
type idPathError struct{ error }

func (e idPathError) Unwrap() error { return e.error }

func (r *TargetReport) skip(agent, reason, fix string) {
	r.Skipped = append(r.Skipped, Skip{Agent: agent, Reason: reason, Fix: fix})
	r.Counts.Skipped++
}

// Command is the export command that regenerates a target's files.
func Command(target, prefix, out string, allLayers bool) string {
	c := "bn config agents export --target " + target
	if prefix != "" {
		c += " --prefix " + prefix
	}
	if out != "" {
		c += " --out " + out
	}
	if allLayers {
		c += " --all-layers"
	}
	return c
}

// targetID names the agent in the target: its id there (the tool's
// section) or its name, with the prefix, mapped to what the tool can hold.
// A name the tool would ignore or never invoke skips the agent.
func targetID(info *dialect.Info, def agents.Definition, prefix string) (string, []dialect.Loss, *Skip) {
	var losses []dialect.Loss
	id := def.Name
	if t := def.Targets[info.Name]; t != nil && t.ID != "" {
		id = t.ID
	}
	id = prefix + id
	if info.MapID != nil {
		if s := info.MapID(id); s != id {
			losses = append(losses, dialect.Loss{Field: "name", Kind: dialect.Renamed,
				Detail: fmt.Sprintf("written as %q: %s names are %s; the agents that name it name it so there", s, info.Title, info.IDRule)})
			id = s
		}
	}
	if prefix != "" && len(losses) == 0 {
		losses = append(losses, dialect.Loss{Field: "name", Kind: dialect.Renamed, Detail: fmt.Sprintf("named %q in %s (--prefix)", id, info.Title)})
	}
	if b, ok := info.BuiltIn(id); ok {
		fix := fmt.Sprintf("pass --prefix, or name it for %s only: %s { id \"…\" }", info.Title, info.Name)
		switch b.On {
		case dialect.Ignored:
			return "", nil, &Skip{Agent: def.Name, Reason: fmt.Sprintf("%q is a built-in %s agent; %s ignores a project agent of that name", id, info.Title, info.Title), Fix: fix}
		case dialect.Shadowed:
			return "", nil, &Skip{Agent: def.Name, Reason: fmt.Sprintf("%q is a built-in %s agent; %s loads a project agent of that name but never runs it", id, info.Title, info.Title), Fix: fix}
		case dialect.Merges:
			losses = append(losses, dialect.Loss{Field: "name", Kind: dialect.Override,
				Detail: fmt.Sprintf("%s merges this file into its built-in %q agent, field by field", info.Title, b.Name)})
		default:
			losses = append(losses, dialect.Loss{Field: "name", Kind: dialect.Override,
				Detail: fmt.Sprintf("replaces %s's built-in %q agent", info.Title, b.Name)})
		}
	}
	return id, losses, nil
}

// fillPlaceholders fills the prompt's {key} placeholders that the agent
// gives a text for: bn fills them when it launches an agent with a task,
// while other tools start an agent with the task as its first message.
func fillPlaceholders(def agents.Definition) (string, []dialect.Loss, error) {
	if len(def.Placeholders) == 0 {
		return def.Prompt, nil, nil
	}
	var losses []dialect.Loss
	for _, k := range agents.Placeholders(def.Prompt) {
		if text, ok := def.Placeholders[k]; ok {
			losses = append(losses, dialect.Loss{Field: "prompt", Kind: dialect.Changed,
				Detail: fmt.Sprintf("{%s} is filled only when bn launches the agent; written as %q", k, text)})
		}
	}
	filled, err := agents.FillPlaceholders(def.Prompt, def.Placeholders)
	if err != nil {
		return "", nil, fmt.Errorf("agent %q: its placeholders: %w", def.Name, err)
	}
	return filled, losses, nil
}

// Apply writes every target's files, all or none. It refuses while files
// bn did not write are in the way.
func (r *Result) Apply() error {
	changes, err := r.Changes()
	if err != nil {
		return err
	}
	// Written through directories opened from the repository (or
	// --out): one swapped for a symlink since the plan checked it fails
	// the write, instead of taking it elsewhere.
	if err := emit.ApplyIn(r.base, changes); err != nil {
		return err
	}
	for _, rep := range r.Reports {
		rep.Written = true
	}
	return nil
}

// Unchanged says whether the target's files already hold what the export
// writes: it writes and removes none.
func (r *TargetReport) Unchanged() bool { return len(r.plan.Changes()) == 0 }

// Changes are the writes the export makes, for a caller that writes them
// with others as one unit; a conflict with a file bn does not own refuses.
func (r *Result) Changes() ([]emit.Change, error) {
	if len(r.Shadows) > 0 {
		return nil, ShadowError(r.Shadows, r.Display)
	}
	if len(r.Conflicts) > 0 {
		fix := "pass --force to overwrite"
		for _, c := range r.Conflicts {
			// Only an original still where import read it moves aside;
			// at the place of one moved already is another file (bn's
			// own, edited by hand), which --move-originals leaves.
			if o, ok := r.record.ByPath(r.root, c); ok && o.Moved == "" {
				fix = "import recorded them as originals: bn config agents import --move-originals moves them aside, keeping them for diff; --force overwrites them"
				break
			}
		}
		return nil, fmt.Errorf("not generated by bn, or edited by hand since, so left alone: %s; %s; nothing was written", strings.Join(r.Conflicts, ", "), fix)
	}
	var changes []emit.Change
	for _, rep := range r.Reports {
		changes = append(changes, rep.plan.Changes()...)
	}
	return changes, nil
}

// Differences counts what a strict export refuses: every skipped agent,
// every loss the definitions do not accept, and every stale accept. A
// rename is reported, not refused: the agent means the same under the
// name the tool gives it.
func (r *Result) Differences() int {
	skips, losses, stale := r.Refused()
	return skips + losses + stale
}

// Refused is what Differences counts, apart: the skipped agents, the
// losses not accepted, and the stale accepts.
func (r *Result) Refused() (skips, losses, stale int) {
	for _, rep := range r.Reports {
		skips += len(rep.Skipped)
		losses += rep.Counts.Losses - rep.Counts.Accepted
		stale += len(rep.StaleAccepts)
	}
	return skips, losses, stale
}

// OverLimit names the agents skipped for a value over one of bn's
// limits, once each.
func (r *Result) OverLimit() []string {
	var out []string
	for _, rep := range r.Reports {
		for _, s := range rep.Skipped {
			if s.OverLimit && !slices.Contains(out, s.Agent) {
				out = append(out, s.Agent)
			}
		}
	}
	return out
}

// OutOfDate counts files that differ from what the export would write.
func (r *Result) OutOfDate() int {
	n := 0
	for _, rep := range r.Reports {
		n += rep.OutOfDate
	}
	return n
}

// One renders a single resolved agent for a target as export would: the
// file's content, its id there, and what it cannot hold.
func One(set *resolver.Set, a *resolver.Agent, d dialect.Dialect, prefix, regenerate string) ([]byte, string, []dialect.Loss, error) {
	def, err := a.WithPrompt()
	if err != nil {
		return nil, "", nil, err
	}
	return Definition(set, def, d, prefix, regenerate)
}

// Definition is One for a definition whose prompt is read.
func Definition(set *resolver.Set, def agents.Definition, d dialect.Dialect, prefix, regenerate string) ([]byte, string, []dialect.Loss, error) {
	var losses []dialect.Loss
	var err error
	def.Prompt, losses, err = fillPlaceholders(def)
	if err != nil {
		return nil, "", nil, err
	}
	id, idLosses, skip := targetID(d.Info(), def, prefix)
	if skip != nil {
		return nil, "", nil, fmt.Errorf("agent %q: %s (%s)", def.Name, skip.Reason, skip.Fix)
	}
	out, err := d.Render(def, id, emit.Marker(regenerate), set.Catalog())
	if err != nil {
		return nil, "", nil, err
	}
	return seal(out), id, append(append(losses, idLosses...), dialect.Honest(d.Info(), def.Tools, dialect.Asked(d.Info(), &def, out.Losses), runtime.GOOS)...), nil
}
