package mcpserver

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/hookrules"
	"github.com/binnacle-dev/bn/resolver"
)

// Main runs the server as a command: bn-mcp [--repo DIR]. It returns the
// exit status.
func Main(args []string, version string) int {
	fs := flag.NewFlagSet("bn-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	repo := fs.String("repo", "", "use `DIR` as the repository root")
	fs.StringVar(repo, "C", "", "the same as --repo")
	fs.StringVar(repo, "cwd", "", "the same as --repo (binnacle's spelling)")
	showVersion := fs.Bool("version", false, "print the version")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, `{"error": "usage: bn mcp serve [--cwd DIR]"}`)
		return 2
	}
	if *showVersion {
		fmt.Println("bn-mcp", version)
		return 0
	}
	paths, err := resolver.ProcessPaths(*repo)
	if err != nil {
		fail(err)
		return 1
	}
	if os.Getenv("GOGC") == "" {
		// The server keeps the layers, a few megabytes, and the SDK
		// allocates about 300 KB per call decoding the request: with the
		// collector's default, it collects every few calls, a third of a
		// call's time. Collecting when the heap has grown fivefold costs
		// that much more memory only.
		debug.SetGCPercent(400)
	}
	dec := config.Decoder{Sections: dialect.All()}
	load := CachedLoader(paths.Layers(resolver.AllLayers), dec, func(err error) error { return resolver.LoadError{Err: err} })
	g := hookrules.AnyToolGuard(paths, os.Getenv("HOME"))
	if err := Serve(context.Background(), New(version, load, enforce.Context{Root: paths.RepoRoot, Home: os.Getenv("HOME")}, &g), os.Stdin, os.Stdout); err != nil {
		fail(err)
		return 1
	}
	return 0
}

func fail(err error) {
	data, _ := json.Marshal(map[string]string{"error": err.Error()})
	fmt.Fprintln(os.Stderr, string(data))
}
