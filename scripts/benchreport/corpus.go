//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/binnacle-dev/bn/kdl"
)

// corpusAgent is the part of a Claude Code agent file both tools carry:
// name, description and prompt.
type corpusAgent struct {
	name, description, body string
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// readCorpus reads agent files leniently (several real files carry
// frontmatter that strict YAML rejects), keeping top-level key: value lines.
func readCorpus(dir string) []corpusAgent {
	paths, err := filepath.Glob(filepath.Join(dir, "*.md"))
	check(err)
	sort.Strings(paths)
	var out []corpusAgent
	for _, p := range paths {
		src, err := os.ReadFile(p)
		check(err)
		parts := strings.SplitN(string(src), "\n---", 2)
		if len(parts) != 2 || !strings.HasPrefix(parts[0], "---") {
			continue
		}
		a := corpusAgent{body: strings.TrimSpace(strings.TrimPrefix(parts[1], "\n"))}
		for _, line := range strings.Split(parts[0], "\n") {
			k, v, ok := strings.Cut(line, ": ")
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			switch {
			case !ok:
			case k == "name":
				a.name = unsafeName.ReplaceAllString(v, "-")
			case k == "description":
				a.description = v
			}
		}
		if a.name != "" && a.description != "" && a.body != "" {
			out = append(out, a)
		}
	}
	return out
}

// writeBnProject writes the agents as a bn project layer: one config.kdl
// and a prompt file per agent.
func writeBnProject(repo string, as []corpusAgent) {
	dir := filepath.Join(repo, ".binnacle", "agents")
	check(os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	check(os.MkdirAll(dir, 0o755))
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "agent %s {\n    description %s\n    prompt-file %s\n}\n",
			kdl.Quote(a.name, kdl.V2), kdl.Quote(a.description, kdl.V2), kdl.Quote(a.name+".md", kdl.V2))
		check(os.WriteFile(filepath.Join(dir, a.name+".md"), []byte(a.body+"\n"), 0o644))
	}
	check(os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(b.String()), 0o644))
}

// writeRulesyncProject writes the same agents as rulesync's canonical files.
func writeRulesyncProject(repo string, as []corpusAgent) {
	dir := filepath.Join(repo, ".rulesync", "subagents")
	check(os.MkdirAll(dir, 0o755))
	for _, a := range as {
		desc, _ := json.Marshal(a.description) // a JSON string is a YAML double-quoted scalar
		content := fmt.Sprintf("---\nname: %s\ndescription: %s\ntargets: [\"*\"]\n---\n\n%s\n", a.name, desc, a.body)
		check(os.WriteFile(filepath.Join(dir, a.name+".md"), []byte(content), 0o644))
	}
}
