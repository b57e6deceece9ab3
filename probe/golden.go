package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// Case is one agent file and what the client did with it.
type Case struct {
	Name string `json:"name"`
	File string `json:"file"`
	// Command is the shell command the stand-in asks for, when not
	// ShellProbe.
	Command string `json:"command,omitempty"`
	Observation
	// Sub is what the client offers the agent started as a sub-agent, for
	// a client that verify starts so (dialect.Info.SubWithheld); nil when
	// the client did not start it.
	Sub *SubObservation `json:"sub,omitempty"`
}

// SubObservation is what a client offers an agent it started as a
// sub-agent.
type SubObservation struct {
	Offered []string `json:"offered"`
}

// Golden is one client's observations of its fixture agents. The first
// case is the agent file with no tool limits: the tools it is offered are
// those the probes can see at all.
type Golden struct {
	Client string `json:"client"` // the tool, as bn names it
	Cases  []Case `json:"cases"`
}

// Run is one client run: the client's command, the agent's name and
// file, and what else the run needs.
type Run struct {
	// Context, when set, stops the run: once it is done, the client is
	// killed with the processes it started, and none is started.
	Context         context.Context
	Bin, Name, File string
	// Env is added to the sandbox's environment: a PATH with bn, for the
	// hooks an exported file runs (HookEnv).
	Env []string
	// Def is the definition File was rendered from. Where the file carries
	// bn's hook, the sandbox, which is the repository the hook decides in,
	// holds what export writes beside it (the agent's compiled rules) and a
	// project layer that gives those rules.
	Def *agents.Definition
	// Command is the shell command the stand-in asks for (ShellProbe
	// when empty and there are no Uses).
	Command string
	// Uses, when set, are the uses the stand-in asks for instead, one
	// after another in the run.
	Uses []Use
	// Permissions are the client's permission flags, in place of
	// allowing every tool (Copilot: the --allow-tool and --deny-tool
	// flags bn-agent passes).
	Permissions []string
	// Files are more files of the project, by path relative to it (a
	// hook's configuration).
	Files map[string]string
}

// ctx is the run's Context, or context.Background() when it has none.
func (r Run) ctx() context.Context { return orBackground(r.Context) }

// orBackground is ctx, or context.Background() when nil.
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// Use is one use of a tool the stand-in asks an agent for: a shell
// command, or writing a new file (Path, relative to the project).
type Use struct {
	Command string `json:"command,omitempty"`
	Path    string `json:"path,omitempty"`
}

// Runner runs one client as one agent.
type Runner func(Run) (Observation, error)

// Runners are the clients the probes run, by the tool bn names.
var Runners = map[string]Runner{"claude": Claude, "claude-plugin": ClaudePlugin, "cline": Cline, "codex": Codex, "copilot": Copilot, "gemini": Gemini, "kilo": Kilo, "omp": OMP, "opencode": OpenCode, "pi": Pi, "qwen": Qwen}

// GoldenPath is where a client's golden file lives, under the dialect
// package's testdata.
func GoldenPath(root, client string) string {
	return filepath.Join(root, "dialect", "testdata", "probes", client+".json")
}

// ReadGolden reads a golden file.
func ReadGolden(path string) (Golden, error) { return readJSON[Golden](path) }

// Write writes a golden file, stably.
func (g Golden) Write(path string) error { return writeJSON(path, g) }

// readJSON reads a golden file of any shape.
func readJSON[T any](path string) (T, error) {
	var v T
	b, err := os.ReadFile(path)
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// writeJSON writes a golden file stably: indented, with a final newline.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// HookEnv is what a client run adds for the hooks an exported file runs
// (bn config agents check NAME --hook TOOL --rules FILE): the directory
// of bn first on PATH.
func HookEnv(bnDir string) []string {
	return []string{"PATH=" + bnDir + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// unpacks name, by client, the variable that says where a client unpacks
// itself as it starts: the Copilot CLI unpacks 235 MB into its cache
// (about 3.5 s of CPU) on each run in a fresh home, which a cache shared
// by the runs of one verify unpacks once.
var unpacks = map[string]string{"copilot": "COPILOT_CACHE_HOME"}

// CacheEnv is what a run of tool's client adds to unpack itself once into
// dir, a directory the runs share (none when the client does not unpack).
func CacheEnv(tool, dir string) []string {
	if v, ok := unpacks[tool]; ok {
		return []string{v + "=" + dir}
	}
	return nil
}
