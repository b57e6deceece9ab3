package importer

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/kdl"
)

// Options say what to import where.
type Options struct {
	Paths    []string
	Cwd      string
	From     dialect.Dialect // nil: by each file's location
	Config   string          // the config.kdl receiving the agents
	Force    bool
	Registry dialect.Registry
	Catalog  *agents.Catalog
	Decoder  config.Decoder
	// Version is the KDL version of a new config.kdl; an existing one
	// keeps its own.
	Version kdl.Version
	// CacheDir is where the git sources of a marketplace's plugins are
	// fetched to.
	CacheDir string
	// Root is the repository: the record names originals inside it
	// relative to it.
	Root string
	// Replaces says what an agent of the name that a lower layer defines
	// is ("the built-in agent"), or "" when none does: the imported agent
	// replaces it whole (replace #true), since the file said all it means.
	Replaces func(name string) string
}

// Imported is one agent brought in.
type Imported struct {
	Name   string   `json:"name"`
	File   string   `json:"file"`
	Format string   `json:"format"`
	Notes  []string `json:"notes"`
	// Replaces names the agent of a lower layer this one replaces.
	Replaces string `json:"replaces,omitempty"`
}

// Result is a planned import.
type Result struct {
	Config   string     `json:"config"`
	Written  bool       `json:"written"`
	Imported []Imported `json:"imported"`
	Skipped  []Skipped  `json:"skipped"`
	// Record is where each original and its hash are recorded.
	Record string `json:"record"`
	// Moved are the originals --move-originals moved aside, or left.
	Moved   []Move `json:"moved,omitempty"`
	changes []emit.Change
	record  Record
}

// Plan reads the source files and prepares the new config.kdl and prompt
// files, without writing anything. Each agent becomes a node of the
// config.kdl (edited in place: comments kept, the file's KDL version
// kept) and its prompt prompts/NAME.md beside it.
func Plan(opts Options) (*Result, error) {
	version := opts.Version
	if version == 0 {
		version = kdl.V2
	}
	doc, err := opts.Decoder.Edit(opts.Config, version)
	if err != nil {
		return nil, err
	}
	sources, skipped, err := Collect(opts.Paths, opts.Cwd, opts.CacheDir)
	if err != nil {
		return nil, err
	}
	recordPath := RecordPath(opts.Config)
	record, err := ReadRecord(recordPath)
	if err != nil {
		return nil, err
	}
	res := &Result{Config: opts.Config, Imported: []Imported{}, Skipped: skipped, Record: recordPath}
	if res.Skipped == nil {
		res.Skipped = []Skipped{}
	}
	skip := func(file, reason string) { res.Skipped = append(res.Skipped, Skipped{file, reason}) }
	dir := filepath.Dir(opts.Config)
	seen := map[string]int{} // agent -> its entry in res.Imported
	recorded := false        // an original recorded for an agent not imported now
	for _, src := range sources {
		data, err := Read(src)
		if err != nil {
			skip(src.Path, err.Error())
			continue
		}
		d := opts.From
		if f, ok := opts.Registry.Lookup(src.Format); d == nil && ok {
			d = f
		}
		if d == nil {
			d = opts.Registry.Detect(src.Path, data)
		}
		im, err := d.Read(dialect.Source{Path: src.Path, Rel: src.Rel, Data: data}, opts.Catalog)
		if err != nil {
			skip(src.Path, err.Error())
			continue
		}
		name := im.Def.Name
		// An agent bn could not export is refused before anything is
		// written or moved: its original stays where the tool reads it.
		if err := agents.CheckFields(&im.Def); err != nil {
			skip(src.Path, fmt.Sprintf("agent %q: %v; fix it in this file, then import it again", name, err))
			continue
		}
		original := Original{Agent: name, File: recordedPath(opts.Root, src.Path), Rel: filepath.ToSlash(src.Rel), Format: im.Format, SHA256: Hash(data)}
		// A second file of an agent (its file for another tool, say) is
		// the user's too, and a tool loads it: it is recorded, so it is
		// moved aside and compared with bn's file, never overwritten.
		if first, dup := seen[name]; dup {
			a := &res.Imported[first]
			a.Notes = append(a.Notes, fmt.Sprintf("also defined by %s (%s): recorded as another original of %s, not read into its definition, "+
				"which comes from %s; bn config agents diff shows what it says otherwise", src.Path, im.Format, name, a.File))
			record.Put(original)
			continue
		}
		if line := doc.AgentLine(name); line > 0 && !opts.Force {
			reason := fmt.Sprintf("agent %q is already defined at %s:%d; --force replaces it", name, opts.Config, line)
			// Another tool's file of an agent imported before: as in one
			// run, the user's file is recorded, so no export overwrites it.
			first, imported := record.Of(name)
			if imported && !slices.ContainsFunc(record.Originals, func(o Original) bool { return o.File == original.File }) {
				record.Put(original)
				recorded = true
				reason = fmt.Sprintf("agent %q is already defined at %s:%d, from %s: recorded as another of its originals "+
					"(--move-originals moves it aside); --force reads this file into it instead", name, opts.Config, line, first.File)
			}
			skip(src.Path, reason)
			continue
		}
		promptRel := "prompts/" + name + ".md"
		promptPath, err := files.Inside(dir, promptRel)
		if err != nil {
			skip(src.Path, "not written: "+err.Error())
			continue
		}
		prompt := []byte(im.Def.Prompt + "\n")
		if old, err := files.Read(promptPath, files.MaxAgentFile); err == nil && !bytes.Equal(old, prompt) && !opts.Force {
			skip(src.Path, fmt.Sprintf("%s already exists with other text; --force replaces it", promptPath))
			continue
		}
		def := im.Def
		def.Prompt = ""
		replaces := ""
		if opts.Replaces != nil {
			replaces = opts.Replaces(name)
		}
		if err := doc.SetAgent(name, config.AgentNode(def, config.NodeOptions{PromptFile: promptRel, Replace: replaces != ""})); err != nil {
			skip(src.Path, err.Error())
			continue
		}
		res.changes = append(res.changes, emit.Change{Path: promptPath, Content: prompt, Perm: 0o644, Sync: true})
		notes := im.Notes
		if notes == nil {
			notes = []string{}
		}
		if replaces != "" {
			notes = append(notes, fmt.Sprintf("replaces %s %q: written with replace #true, so nothing of it is merged in "+
				"(without that line, the file would change it field by field)", replaces, name))
		}
		seen[name] = len(res.Imported)
		res.Imported = append(res.Imported, Imported{Name: name, File: src.Path, Format: im.Format, Notes: notes, Replaces: replaces})
		record.Put(original)
	}
	text := doc.Bytes()
	// What bn writes it must read back: a failure here is a bn bug, and
	// nothing is written.
	if errs := opts.Decoder.KDL(opts.Config, text).Diags.Errors(); len(errs) > 0 {
		return nil, fmt.Errorf("internal error: the config.kdl bn would write does not load: %v", errs)
	}
	res.record = record
	if len(res.Imported) > 0 || recorded {
		// The record and then the config.kdl go last: a crash before them
		// leaves the old ones, whole, beside new prompt files nothing
		// names yet.
		res.changes = append(res.changes, emit.Change{Path: recordPath, Content: record.Format(), Perm: 0o644, Sync: true})
	}
	if len(res.Imported) > 0 {
		res.changes = append(res.changes, emit.Change{Path: opts.Config, Content: text, Perm: 0o644, Sync: true})
	}
	return res, nil
}

// MoveOriginals moves the recorded originals still in the repository to
// OriginalsDir (every one recorded, this import's and earlier ones'), and
// records where; with dryRun it only says what would move. Run it after
// Apply.
func (r *Result) MoveOriginals(root string, dryRun bool) error {
	moves, err := MoveOriginals(&r.record, root, dryRun)
	r.Moved = moves
	if dryRun || !slices.ContainsFunc(moves, func(m Move) bool { return m.To != "" }) {
		return err
	}
	// What moved is recorded: all of them, or after a failure those
	// that could not be put back.
	if werr := emit.ApplyAll([]emit.Change{{Path: r.Record, Content: r.record.Format(), Perm: 0o644, Sync: true}}); werr != nil && err == nil {
		err = werr
	}
	return err
}

// Apply writes the config.kdl and the prompt files as one unit: if any
// write fails, none of the new files remains and the old ones are as
// they were.
func (r *Result) Apply() error {
	if len(r.changes) == 0 {
		return nil
	}
	if err := emit.ApplyAll(r.changes); err != nil {
		return err
	}
	r.Written = true
	return nil
}
