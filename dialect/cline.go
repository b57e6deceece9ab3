package dialect

import (
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// cline is the Cline CLI (3.x): agent configs in .cline/agents and
// ~/.cline/agents (the workspace's winning; a name is matched without
// regard to case, and the first file of a name wins), files ending .yaml
// or .yml that hold YAML frontmatter and a markdown body, the prompt.
// name and description are required; tools is a list or a comma string of
// Cline's tool names (an older name such as read_file is read as the tool
// it became; a name Cline does not know matches nothing), and without it
// the agent has every tool; an empty list is none. The model is a
// providerId and a modelId; maxIterations bounds its turns. Each agent is
// offered to the model as a tool named subagent_<name>. Per the Cline
// 3.0 CLI (@cline/core's configured-agent loader and tool filter), and what
// the probes saw it offer.
type cline struct{}

var clineInfo = &Info{
	Name: "cline", Title: "Cline", Dir: ".cline/agents", Ext: ".yaml", ReadExts: []string{".yaml", ".yml"},
	Marks:     []string{".cline/agents/"},
	Signature: []string{"providerId", "modelId", "maxIterations"},
	Doc:       "`.cline/agents/*.yaml` (frontmatter and a markdown body), then `~/.cline/agents`; known by `name`, whatever its case; the first file of a name wins",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".cline", "agents"), Location: ProjectLocation, Format: "cline"},
			userDir(filepath.Join(env.Home, ".cline", "agents"), "cline")}
	},
	Own: []string{"submit_and_exit"},
	Vocabulary: []Word{
		{Name: "read_files", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "read_file", Kinds: []agents.Kind{agents.KindRead}, Legacy: true},
		{Name: "search_codebase", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "search_files", Kinds: []agents.Kind{agents.KindGrep}, Legacy: true},
		{Name: "list_code_definition_names", Kinds: []agents.Kind{agents.KindGrep}, Legacy: true},
		{Name: "editor", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}, Write: true},
		{Name: "apply_patch", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}},
		{Name: "write_to_file", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}, Legacy: true},
		{Name: "replace_in_file", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}, Legacy: true},
		{Name: "apply_diff", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}, Legacy: true},
		{Name: "run_commands", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "execute_command", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "bash", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "list_files", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "fetch_web_content", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "skills", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
		{Name: "use_skill", Kinds: []agents.Kind{agents.KindSkill}, Legacy: true},
		{Name: "ask_question", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "modelId", Hint: true, Check: checkString},
		{Key: "providerId", Hint: true, Check: checkString},
		{Key: "skills", Hint: true, Check: checkStrings},
	},
	ModelsAs:   "opencode",
	Partial:    "widen",
	PartialWhy: "Cline's agent files list tool names only: a name grants the whole tool",
	Client:     "cline@3.0.65",
	Exports:    true,
}

var clineFile = &listFile{info: clineInfo, tools: "tools", model: "modelId", provider: "providerId", maxTurns: "maxIterations",
	has: carried{"skills": true}, entry: clineEntry}

// clineEntry reads a tool name as Cline does: without regard to case.
func clineEntry(r reader, name string) ([]string, bool) {
	if w, ok := r.word(name, true); ok {
		return kindPatterns(w.Kinds, ""), true
	}
	return nil, false
}

func (cline) Info() *Info { return clineInfo }

func (cline) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	return clineFile.read(src, cat, readSkills)
}

func (cline) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return clineFile.render(def, id, marker, cat, func(d *frontmatterDoc) []Loss {
		writeSkills(d, &def, clineInfo)
		return nil
	})
}
