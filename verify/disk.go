package verify

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/probe"
	"github.com/binnacle-dev/bn/resolver"
)

// File states: how a file on disk compares with what export would write.
const (
	Same      = "same"        // as export would write it
	Missing   = "missing"     // not on disk: the tool loads no such agent; verified as export would write it
	OutOfDate = "out-of-date" // written by bn from another definition: export rewrites it
	Edited    = "edited"      // written by bn, then edited by hand
	NotBn     = "not-bn"      // not written by bn
	Stale     = "stale"       // written by bn for an agent no longer exported
)

// File is one file of a tool's agents directory, against a fresh render.
type File struct {
	Target string `json:"target"`
	Path   string `json:"path"` // in the repository, slash-separated
	Agent  string `json:"agent,omitempty"`
	State  string `json:"state"`
	// Detail says where the file differs from a fresh render.
	Detail string `json:"detail,omitempty"`
}

// subject is one agent file a client is asked about: what the tool will
// load from the repository (or, where nothing is on disk, what export
// would write), and what it is judged against.
type subject struct {
	agent string // the definition's name, or the file's as bn reads it
	id    string // the name the client knows the agent by
	rel   string // its path in the project, slash-separated
	file  string // what the client loads
	def   agents.Definition
	// hooked is the definition the file's hook decides from (probe.Run.Def).
	hooked *agents.Definition
	losses []dialect.Loss
	notes  []string
	// unread: bn cannot read the file; the client is asked about it as it
	// is, and nothing is judged but whether it loads.
	unread string
	uses   []probe.Use
}

// onDisk plans what verify asks a client about for one tool: every agent
// file export would write, as it is on disk (or as export would write it
// when it is not), and, unless agents are named, every other file of the
// tool's agents directory. It returns the files' states, the subjects, and the agents export
// would not write.
func onDisk(set *resolver.Set, d dialect.Dialect, root string, names []string) ([]File, []subject, []Result, error) {
	info := d.Info()
	plan, err := export.Plan(set, export.Options{Targets: []dialect.Dialect{d}, Root: root, Agents: names})
	if err != nil {
		return nil, nil, nil, err
	}
	rep := plan.Reports[0]
	var out []File
	var subs []subject
	var skipped []Result
	for _, s := range rep.Skipped {
		why := "not exported: " + s.Reason
		if s.Fix != "" {
			why += " (" + s.Fix + ")"
		}
		skipped = append(skipped, Result{Agent: s.Agent, Target: info.Name, Offered: []string{}, Differences: []probe.Difference{}, Error: why})
	}
	regenerate := export.Command(info.Name, "", "", false)
	cat := set.Catalog()
	planned := map[string]bool{}
	created := map[string]bool{}
	for _, f := range rep.Files {
		created[f.Path] = f.Action == emit.Create
	}
	for _, f := range rep.Files {
		planned[f.Path] = true
		if strings.HasSuffix(f.Path, dialect.RulesExt) && f.Action == emit.Create && created[strings.TrimSuffix(f.Path, dialect.RulesExt)+info.Ext] {
			// The rules of an agent not exported yet: its file's missing
			// says it all. (Missing beside an agent file on disk, they
			// are drift: the file's hook refuses every use without them.)
			continue
		}
		rel := relSlash(root, f.Path)
		var old []byte
		if f.Action != emit.Create {
			if old, err = files.ReadInto(f.Path, nil, files.MaxAgentFile); err != nil {
				return nil, nil, nil, fmt.Errorf("%s: %w", rel, err)
			}
		}
		file := File{Target: info.Name, Path: rel, Agent: f.Agent, State: state(f.Action)}
		if file.State != Same && file.State != Missing && f.Action != emit.Stale {
			file.Detail = firstDifference(old, f.Content())
		}
		out = append(out, file)
		if strings.HasSuffix(f.Path, dialect.RulesExt) {
			continue // the rules a hook decides from: each run writes its own
		}
		if f.Agent == "" { // stale: loaded by the tool all the same
			subs = append(subs, foreign(d, cat, root, f.Path, old))
			continue
		}
		s, err := owned(set, d, f.Agent, regenerate)
		if err != nil {
			skipped = append(skipped, Result{Agent: f.Agent, Target: info.Name, Offered: []string{}, Differences: []probe.Difference{}, Error: err.Error()})
			continue
		}
		s.rel = rel
		for _, l := range rep.Losses {
			if l.Agent == f.Agent {
				s.losses = append(s.losses, l.Loss)
			}
		}
		if f.Action != emit.Keep && f.Action != emit.Create {
			// The tool loads the file as it is: asked about it, judged
			// against the definition.
			read := foreign(d, cat, root, f.Path, old)
			s.file, s.unread = read.file, read.unread
			s.notes = append(s.notes, read.notes...)
			if read.agent != "" && read.unread == "" {
				s.id = read.id
			}
		}
		subs = append(subs, s)
	}
	if len(names) > 0 {
		// The agents named: the other files are not asked about (and
		// bn's own among them are not planned, so not known as bn's).
		return out, subs, skipped, nil
	}
	// The files bn did not write, which the tool loads beside bn's.
	dir := filepath.Join(root, filepath.FromSlash(info.Dir))
	err = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case e.IsDir():
			if path != dir && !info.Recursive {
				return filepath.SkipDir
			}
			return nil
		case planned[path] || !e.Type().IsRegular() || !slices.ContainsFunc(info.ReadExts, func(ext string) bool { return strings.HasSuffix(e.Name(), ext) }):
			return nil
		}
		data, err := files.ReadInto(path, nil, files.MaxAgentFile)
		if err != nil {
			return nil
		}
		rel := relSlash(root, path)
		out = append(out, File{Target: info.Name, Path: rel, State: NotBn})
		subs = append(subs, foreign(d, cat, root, path, data))
		return nil
	})
	return out, subs, skipped, err
}

// state names a planned file's action as a state on disk.
func state(a emit.Action) string {
	switch a {
	case emit.Keep:
		return Same
	case emit.Create:
		return Missing
	case emit.Update:
		return OutOfDate
	case emit.Edited:
		return Edited
	case emit.Stale:
		return Stale
	}
	return NotBn
}

// owned is an agent of the set, rendered for d as export writes it, less
// what would run something of the repository's (harmless).
func owned(set *resolver.Set, d dialect.Dialect, name, regenerate string) (subject, error) {
	a, err := set.Lookup(name)
	if err != nil {
		return subject{}, err
	}
	def, err := a.WithPrompt()
	if err != nil {
		return subject{}, err
	}
	safe, notes := harmless(def, d.Info())
	content, id, _, err := export.Definition(set, safe, d, "", regenerate)
	if err != nil {
		return subject{}, err
	}
	return subject{agent: name, id: id, file: string(content), def: def, hooked: &safe, notes: notes, uses: uses(def, id)}, nil
}

// runsSomething finds, in a file bn cannot read, a key that may make the
// tool run a command of the file's choosing: hooks, MCP servers.
var runsSomething = regexp.MustCompile(`(?mi)^\s*\[?["']?(hooks|mcp[\w-]*)`)

// foreign is a file on disk as the tool would load it, judged against
// what bn reads in it. A file that would start the repository's own
// commands (its MCP servers, its hooks other than bn's) is asked about
// as bn reads it, without them: verify runs no command of the
// repository's.
func foreign(d dialect.Dialect, cat *agents.Catalog, root, path string, data []byte) subject {
	info := d.Info()
	rel := relSlash(root, path)
	dirRel := strings.TrimPrefix(rel, info.Dir+"/")
	stem := filepath.Base(path)
	for _, ext := range info.ReadExts {
		if s, ok := strings.CutSuffix(stem, ext); ok {
			stem = s
			break
		}
	}
	s := subject{agent: stem, id: stem, rel: rel, file: string(data)}
	src := dialect.Source{Path: rel, Rel: dirRel, Data: data}
	if c := info.Companion; c != nil {
		// The file's prompt, beside its directory on disk (Path is for
		// messages).
		src.Companion = func(name string) ([]byte, error) {
			return files.ReadInto(filepath.Join(c.CompanionDir(filepath.Dir(path)), name), nil, files.MaxAgentFile)
		}
	}
	im, err := d.Read(src, cat)
	if err != nil {
		s.unread = err.Error()
		if runsSomething.Match(data) {
			s.file = ""
			s.unread += "; it names hooks or MCP servers, which verify does not start: not run"
		}
		s.uses = uses(agents.Definition{}, stem)
		return s
	}
	s.agent, s.id, s.def = im.Def.Name, im.Def.Name, im.Def
	s.uses = uses(im.Def, s.id)
	safe, notes := harmless(im.Def, info)
	if len(notes) > 0 {
		out, err := d.Render(safe, s.id, "", cat)
		if err != nil {
			s.file, s.unread = "", err.Error()
			return s
		}
		s.file = string(out.Content)
		s.notes = append(notes, "verified as bn reads the file, without what it would start")
	}
	return s
}

// firstDifference says where a file on disk first differs from what
// export would write.
func firstDifference(disk, fresh []byte) string {
	a, b := bytes.Split(disk, []byte("\n")), bytes.Split(fresh, []byte("\n"))
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y []byte
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		switch {
		case i >= len(a):
			return fmt.Sprintf("line %d: on disk the file ends; export writes %q", i+1, clip(y))
		case i >= len(b):
			return fmt.Sprintf("line %d: on disk %q; export writes no more", i+1, clip(x))
		case !bytes.Equal(x, y):
			return fmt.Sprintf("line %d: on disk %q; export writes %q", i+1, clip(x), clip(y))
		}
	}
	return ""
}

func clip(b []byte) string {
	s := string(bytes.TrimSuffix(b, []byte("\r")))
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// relSlash is path relative to root, slash-separated.
func relSlash(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
