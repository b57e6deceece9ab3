package resolver

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/embedded"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/frontmatter"
	"github.com/binnacle-dev/bn/par"
)

// LayerName names a layer; layers apply in the order of Names.
type LayerName string

const (
	Embedded LayerName = "embedded"
	System   LayerName = "system"
	Session  LayerName = "session"
	Project  LayerName = "project"
)

// Names lists the layers, lowest precedence first.
var Names = []LayerName{Embedded, System, Session, Project}

// Below says whether layer l applies before layer o: the built-ins, then
// the shared sources (source:NAME), then Names' order.
func (l LayerName) Below(o LayerName) bool { return l.rank() < o.rank() }

func (l LayerName) rank() int {
	if strings.HasPrefix(string(l), "source:") {
		return 1
	}
	return map[LayerName]int{Embedded: 0, System: 2, Session: 3, Project: 4}[l]
}

// MaxPromptBytes bounds a prompt file: prompts are sent to a model and
// written into generated files, so a huge or binary file is a mistake.
const MaxPromptBytes = agents.MaxPromptBytes

// Layer is one directory of agent definitions.
type Layer struct {
	Name LayerName
	Dir  string // absolute; empty for the embedded layer
	// Label is how files of this layer are named in output: "embedded",
	// or a path (relative to the repo for the project layer).
	Label string
	// CacheDir is where the shared sources this layer names were fetched
	// to (system and project layers).
	CacheDir string
	// PolicyOnly: only the layer's policy is applied, not its agents,
	// models or settings. An export for the repository leaves a user's
	// own agents out, but never their policy: a policy only tightens.
	PolicyOnly bool
	fsys       fs.FS
}

// IsSource says whether the layer is a shared source.
func (l Layer) IsSource() bool { return strings.HasPrefix(string(l.Name), sourcePrefix) }

const sourcePrefix = "source:"

// EmbeddedLayer is the layer compiled into the binary.
func EmbeddedLayer() Layer {
	return Layer{Name: Embedded, Label: "embedded", fsys: embedded.Agents()}
}

// DiskLayer is a layer directory on disk; label is its display form.
func DiskLayer(name LayerName, dir, label string) Layer {
	return Layer{Name: name, Dir: dir, Label: label}
}

// Scope selects which layers feed a command.
type Scope int

const (
	// AllLayers is the normal view: embedded, system, session, project.
	AllLayers Scope = iota
	// Committed is for files committed to the repo: embedded and project
	// only, so one user's private layers never leak into the repo.
	Committed
	// User is for user-level files: embedded and system.
	User
)

// Layers returns the layers of the given scope, lowest precedence first.
func (p Paths) Layers(scope Scope) []Layer {
	all := []Layer{
		EmbeddedLayer(),
		DiskLayer(System, p.SystemDir, p.SystemDir),
		DiskLayer(Session, p.SessionDir, p.SessionDir),
		DiskLayer(Project, p.ProjectDir, filepath.ToSlash(filepath.Join(".binnacle", "agents"))),
	}
	all[1].CacheDir, all[3].CacheDir = p.CacheDir, p.CacheDir
	switch scope {
	case Committed:
		system, session := all[1], all[2]
		system.PolicyOnly, session.PolicyOnly = true, true
		return []Layer{all[0], system, session, all[3]}
	case User:
		return []Layer{all[0], all[1]}
	}
	return all
}

// FileLabel is how a file of this layer is shown to users.
func (l Layer) FileLabel(rel string) string {
	if l.Name == Embedded {
		return "embedded:" + rel
	}
	if l.Name == Project || l.IsSource() {
		return path.Join(l.Label, rel)
	}
	return filepath.Join(l.Dir, filepath.FromSlash(rel))
}

// loadedLayer is a layer after its files were read and decoded, once.
type loadedLayer struct {
	Layer
	markdown []*agents.File // markdown agent files, by name
	kdl      *agents.File   // config.kdl, if present
	// builtinModels gives bn's model catalog, models.kdl, when a command
	// first needs it (embedded layer only): most never do.
	builtinModels func() []*agents.ModelEntry
	// promptFiles are the prompt files config.kdl names, relative to the
	// layer. Their contents are read when a prompt is asked for, so the
	// layer as loaded does not depend on them.
	promptFiles map[string]bool
	// conventionPrompts maps an agent name to "<name>/prompt.md".
	conventionPrompts map[string]string
	fatal             agents.Diagnostics
	// seen is what the load saw of the directory (seenOf), for
	// LoadSteady to check against what is there once it is done.
	seen string
	// emptyKDL: its config.kdl was empty (and failed the layer).
	emptyKDL bool
	// onDisk: the layer's directory was there to open when it was loaded.
	onDisk bool
	// root is the layer's directory while it loads, and nil after: a
	// handle held as long as the set would keep the directory from being
	// removed or renamed on Windows. Prompts read later open it again.
	root  *os.Root
	index int // the layer's place in the resolution order
}

const (
	configFile = "config.kdl"
	// modelsFile is the built-in catalog, in the embedded layer only. It is
	// compiled in as a Go value (models_gen.go), so that show, which looks
	// its agent's model up, does not parse it at every start.
	modelsFile = "models.kdl"
)

//go:generate go run ./internal/modelsgen

// readDir lists the layer directory in name order.
func (ll *loadedLayer) readDir() ([]fs.DirEntry, error) {
	if ll.root == nil {
		return fs.ReadDir(ll.fsys, ".")
	}
	return fs.ReadDir(files.Listing(ll.root), ".")
}

// load reads the layer directory. A missing directory is an empty layer;
// any other failure to read it is fatal (fail closed).
func load(l Layer, dec config.Decoder) *loadedLayer {
	ll := &loadedLayer{Layer: l, conventionPrompts: map[string]string{}}
	if l.fsys == nil {
		root, err := os.OpenRoot(l.Dir)
		if errors.Is(err, fs.ErrNotExist) {
			return ll
		}
		if err != nil {
			ll.failf("", "cannot open the %s layer directory: %v", l.Name, files.Cause(err))
			return ll
		}
		ll.root, ll.fsys, ll.onDisk = root, root.FS(), true
		defer func() {
			root.Close()
			ll.root, ll.fsys = nil, nil
		}()
	}
	entries, err := ll.readDir()
	if err != nil {
		ll.failf("", "cannot read the %s layer directory: %v", l.Name, files.Cause(err))
		return ll
	}
	ll.seen = seenOf(entries, -1)
	var kdlFile *agents.File
	promptFiles := map[string]bool{}
	ll.promptFiles = promptFiles
	for _, e := range entries {
		switch {
		case e.Name() == configFile:
			src, err := ll.readFile(configFile, files.MaxConfigFile)
			if err != nil {
				// Seen as still sees it: a config.kdl bn refuses to read (a
				// link out of the layer) is not a rewrite to wait out, and
				// one removed or replaced meanwhile still is.
				ll.seen = seenOf(entries, configSize(ll.Dir))
				ll.failFile(err)
				return ll
			}
			ll.seen = seenOf(entries, int64(len(src)))
			if len(bytes.TrimSpace(src)) == 0 {
				// Caught between its truncation and its new content, a
				// config.kdl is empty: read as no definitions, it would give
				// every agent it narrows its wider self back.
				ll.failf(configFile, "is empty, as a file caught while it is rewritten is; bn reads no layer from it. "+
					"If it is being written, run the command again; otherwise give it at least a comment, or remove it")
				ll.emptyKDL = true
				return ll
			}
			kdlFile = dec.KDL(ll.FileLabel(configFile), src).File
			for _, name := range kdlFile.PromptFiles {
				promptFiles[name] = true
			}
		case e.Name() == modelsFile && l.Name == Embedded:
			ll.builtinModels = builtinModels
		}
	}
	var agentFiles []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
			if agents.CheckName(name) != nil {
				continue
			}
			rel := name + "/prompt.md"
			if fi, err := fs.Stat(ll.fsys, rel); err == nil && !fi.IsDir() {
				ll.conventionPrompts[name] = rel
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				ll.failf(rel, "%v", files.OpenError(err))
			}
		case !strings.HasSuffix(name, ".md") || promptFiles[name] || strings.EqualFold(name, "README.md"):
			// not an agent file: config.kdl, a prompt file, notes, *.deprecated
		case !files.IsRegular(e):
			ll.failf(name, "is %s, not a regular file; remove it or rename it so it does not end in .md", files.Kind(e))
		default:
			agentFiles = append(agentFiles, name)
		}
	}
	kdlBroken := kdlFile != nil && kdlFile.Diags.HasErrors()
	decoded := make([]*agents.File, len(agentFiles))
	errs := make([]error, len(agentFiles))
	par.Do(len(agentFiles), 64, func(i int) {
		name := agentFiles[i]
		src, err := ll.readFile(name, MaxPromptBytes) // the body is a prompt
		switch {
		case err != nil:
			errs[i] = err
		case kdlBroken && !frontmatter.Has(src):
			// Probably a prompt file that the broken config.kdl names;
			// the layer already fails on config.kdl, so say only that.
		default:
			decoded[i] = decodeAgentFile(dec, ll.FileLabel(name), name, src)
		}
	})
	for i := range agentFiles {
		if errs[i] != nil {
			ll.failFile(errs[i])
		} else if decoded[i] != nil {
			ll.markdown = append(ll.markdown, decoded[i])
		}
	}
	sort.Slice(ll.markdown, func(i, j int) bool { return ll.markdown[i].Path < ll.markdown[j].Path })
	ll.kdl = kdlFile
	for _, f := range ll.files() {
		ll.fatal = append(ll.fatal, f.Diags.Errors()...)
	}
	return ll
}

// decodeAgentFile decodes a markdown agent file without keeping its body:
// list never needs it, and show reads it again from rel.
func decodeAgentFile(dec config.Decoder, label, rel string, src []byte) *agents.File {
	f := dec.Markdown(label, src, true)
	for _, s := range f.Specs {
		if s.Prompt.Set && s.Prompt.Value.FromBody {
			s.Prompt.Value.File = rel
		}
	}
	return f
}

// files lists the layer's agent files in application order: markdown
// files, then config.kdl (an agent both define is an error: resolve.go).
func (ll *loadedLayer) files() []*agents.File {
	if ll.kdl == nil {
		return ll.markdown
	}
	return append(ll.markdown[:len(ll.markdown):len(ll.markdown)], ll.kdl)
}

// failFile records a fatal problem reading one file of the layer.
func (ll *loadedLayer) failFile(err error) {
	var fe fileError
	if errors.As(err, &fe) {
		ll.fatal = append(ll.fatal, agents.Diagnostic{Severity: agents.Error, Pos: agents.Pos{File: fe.file}, Message: fe.msg})
		return
	}
	ll.failf("", "%v", err)
}

func (ll *loadedLayer) failf(rel, format string, args ...any) {
	file := ll.Label
	if rel != "" {
		file = ll.FileLabel(rel)
	}
	ll.fatal = append(ll.fatal, agents.Diagnostic{Severity: agents.Error, Pos: agents.Pos{File: file}, Message: fmt.Sprintf(format, args...)})
}

// fileError is a problem with one layer file; its message reads after the
// file's name.
type fileError struct {
	file, msg string
}

func (e fileError) Error() string { return e.file + " " + e.msg }

// readFile reads rel inside the layer. Disk layers go through os.Root, so
// a symlink cannot lead outside the layer directory; nothing that is not
// a regular file is ever read.
func (ll *loadedLayer) readFile(rel string, limit int64) ([]byte, error) {
	var b []byte
	var err error
	switch {
	case ll.root != nil: // while the layer loads
		b, err = files.ReadIn(ll.root, rel, limit)
	case ll.fsys != nil: // compiled in
		b, err = files.ReadFS(ll.fsys, rel, limit)
	default: // a prompt, read after the load
		b, err = files.ReadInDir(ll.Dir, rel, limit)
	}
	if err != nil {
		msg := err.Error()
		if errors.Is(err, files.ErrOutside) {
			msg = fmt.Sprintf("resolves outside the %s layer directory (a symlink?); files must stay inside it", ll.Name)
		}
		return nil, fileError{ll.FileLabel(rel), msg}
	}
	return b, nil
}

// readPrompt reads a prompt file: confined, at most 1 MiB, UTF-8 text.
// With fromBody, rel is a markdown agent file and its body is the prompt.
func (ll *loadedLayer) readPrompt(rel string, fromBody bool) (string, error) {
	b, err := ll.readFile(rel, MaxPromptBytes)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fileError{ll.FileLabel(rel), "is not UTF-8 text"}
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		// A prompt goes to a model and into other tools' files; a NUL
		// says the file is binary, or would cut the prompt short there.
		return "", fileError{ll.FileLabel(rel), fmt.Sprintf("holds a NUL byte (at byte %d): a prompt is text", i)}
	}
	if err := agents.CheckText(string(b), true); err != nil {
		// Written to other tools' files and shown on terminals.
		return "", fileError{ll.FileLabel(rel), err.Error()}
	}
	if fromBody {
		md, err := frontmatter.Split(b)
		if err != nil {
			return "", fileError{ll.FileLabel(rel), err.Error()}
		}
		b = md.Body
	}
	return strings.TrimSpace(strings.TrimPrefix(string(b), "\uFEFF")), nil
}
