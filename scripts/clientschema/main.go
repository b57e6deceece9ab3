//go:build unix

// Command clientschema vendors the agent-file schema of a client built on
// OpenCode (OpenCode itself, Kilo) from the client as pinned: it starts
// `CLIENT serve` in a temporary home, reads the OpenAPI document the
// server publishes at /doc (generated from the client's own config
// schema), and writes its AgentConfig schema, with every definition it
// refers to, as a JSON Schema (2020-12) under $defs. `make schemas` runs
// it for each such client; bn embeds the result (dialect/schema).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "", "the client's command (opencode, kilo)")
	pkg := flag.String("package", "", "the client's npm package as pinned (name@version), recorded in the schema")
	out := flag.String("out", "", "the schema file to write")
	flag.Parse()
	if *bin == "" || *pkg == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: clientschema -bin CLIENT -package NAME@VERSION -out FILE")
		os.Exit(2)
	}
	doc, err := serveDoc(*bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "clientschema:", err)
		os.Exit(1)
	}
	schema, err := agentSchema(doc, *pkg, filepath.Base(*bin))
	if err != nil {
		fmt.Fprintln(os.Stderr, "clientschema:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, schema, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "clientschema:", err)
		os.Exit(1)
	}
}

var listening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// serveDoc runs the client's server on a free port of 127.0.0.1, in a
// temporary home, and returns its OpenAPI document.
func serveDoc(bin string) ([]byte, error) {
	home, err := os.MkdirTemp("", "clientschema-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--port", "0", "--hostname", "127.0.0.1")
	cmd.Dir = home
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"), "NO_PROXY=127.0.0.1"}
	// The client's launcher starts the server as a child: the whole
	// process group is stopped at the end.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() }()
	lines := bufio.NewScanner(stdout)
	var base string
	for lines.Scan() {
		if m := listening.FindStringSubmatch(lines.Text()); m != nil {
			base = m[1]
			break
		}
	}
	if base == "" {
		return nil, fmt.Errorf("%s serve printed no address", bin)
	}
	go io.Copy(io.Discard, stdout)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/doc", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s/doc: %s", base, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

const components = "#/components/schemas/"

// agentSchema takes AgentConfig and the definitions it refers to out of
// an OpenAPI document, as a JSON Schema of its own.
func agentSchema(doc []byte, pkg, client string) ([]byte, error) {
	var api struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &api); err != nil {
		return nil, err
	}
	defs := map[string]any{}
	todo := []string{"AgentConfig"}
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if _, done := defs[name]; done {
			continue
		}
		raw, ok := api.Components.Schemas[name]
		if !ok {
			return nil, fmt.Errorf("the OpenAPI document has no schema %s", name)
		}
		for _, m := range regexp.MustCompile(`"`+regexp.QuoteMeta(components)+`([^"]+)"`).FindAllSubmatch(raw, -1) {
			todo = append(todo, string(m[1]))
		}
		var v any
		if err := json.Unmarshal(bytes.ReplaceAll(raw, []byte(components), []byte("#/$defs/")), &v); err != nil {
			return nil, err
		}
		defs[name] = v
	}
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	slices.Sort(names)
	schema := map[string]any{
		"$schema":  "https://json-schema.org/draft/2020-12/schema",
		"$comment": "The agent-file frontmatter schema of npm " + pkg + ": its AgentConfig, from the OpenAPI document `" + client + " serve` publishes at /doc. Written by scripts/clientschema (make schemas); do not edit.",
		"$ref":     "#/$defs/AgentConfig",
		"$defs":    defs,
	}
	b, err := json.MarshalIndent(schema, "", "  ")
	return append(b, '\n'), err
}
