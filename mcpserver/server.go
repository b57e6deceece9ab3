package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"sync"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/hookrules"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/views"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type listAgentsIn struct {
	Tag string `json:"tag,omitempty" jsonschema:"only agents with this tag"`
	All bool   `json:"all,omitempty" jsonschema:"include hidden agents"`
}

type agentIn struct {
	Name    string `json:"name" jsonschema:"the agent's name"`
	Explain bool   `json:"explain,omitempty" jsonschema:"say which layer and file set each field"`
}

type emitIn struct {
	Name        string            `json:"name" jsonschema:"the agent's name"`
	Description string            `json:"description,omitempty" jsonschema:"fills the {description} placeholder (the task)"`
	Set         map[string]string `json:"set,omitempty" jsonschema:"values for other {key} placeholders"`
}

type checkIn struct {
	Name string `json:"name" jsonschema:"the agent's name"`
	Tool string `json:"tool" jsonschema:"the tool use, for example shell(git push) or binnacle/task_create"`
}

// Loader returns the current definitions, failing closed like the CLI.
type Loader func() (*resolver.Set, error)

// CachedLoader keeps the layers loaded and re-reads changed ones.
func CachedLoader(layers []resolver.Layer, dec config.Decoder, refuse func(error) error) Loader {
	cache := resolver.NewCache(layers, dec)
	return func() (*resolver.Set, error) {
		set := cache.Set()
		if err := set.Fatal(); err != nil {
			return nil, refuse(err)
		}
		return set, nil
	}
}

// New builds the server. Calls are served one at a time: resolved agents
// are shared between calls. check_tool decides uses where ctx says (the
// repository root and the home directory), refusing what guard holds.
func New(version string, load Loader, ctx enforce.Context, guard *hookrules.Guard) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bn", Version: version}, nil)
	var mu sync.Mutex
	lookup := func(name string) (*resolver.Agent, error) {
		set, err := load()
		if err != nil {
			return nil, err
		}
		return set.Lookup(name)
	}
	withPrompt := func(name string) (*resolver.Agent, string, error) {
		a, err := lookup(name)
		if err != nil {
			return nil, "", err
		}
		prompt, err := a.Prompt()
		return a, prompt, err
	}
	addTool(s, &mcp.Tool{Name: "list_agents", Description: "List the resolved agent definitions."}, &mu,
		func(in listAgentsIn) (views.List, error) {
			set, err := load()
			if err != nil {
				return views.List{}, err
			}
			return views.ListData(set, in.Tag, in.All), nil
		})
	addTool(s, &mcp.Tool{Name: "show_agent", Description: "Show one resolved agent: tools, model settings, prompt preview, sources."}, &mu,
		func(in agentIn) (views.Show, error) {
			set, err := load()
			if err != nil {
				return views.Show{}, err
			}
			a, prompt, err := withPrompt(in.Name)
			if err != nil {
				return views.Show{}, err
			}
			return views.ShowData(a, prompt, in.Explain, set.Catalog()), nil
		})
	addTool(s, &mcp.Tool{Name: "emit_prompt", Description: "Return an agent's resolved prompt, with its {placeholders} filled."}, &mu,
		func(in emitIn) (views.Emit, error) {
			a, prompt, err := withPrompt(in.Name)
			if err != nil {
				return views.Emit{}, err
			}
			values := maps.Clone(in.Set)
			if values == nil {
				values = map[string]string{}
			}
			if in.Description != "" {
				values["description"] = in.Description
			}
			return views.EmitData(a.Name, prompt, values)
		})
	addTool(s, &mcp.Tool{Name: "check_tool", Description: "Say whether an agent may use a tool, and which rule decides (deny wins)."}, &mu,
		func(in checkIn) (views.Check, error) {
			req, err := agents.ParseToolPattern(in.Tool)
			if err != nil {
				return views.Check{}, fmt.Errorf("tool: %w", err)
			}
			a, err := lookup(in.Name)
			if err != nil {
				return views.Check{}, err
			}
			return views.CheckData(a, in.Tool, req, ctx, guard), nil
		})
	return s
}

// addTool registers a tool whose answer bn marshals itself, once, under mu.
// The SDK validates the arguments against the schema it infers from In and
// advertises Out's schema; left to it, the answer would also be marshalled,
// parsed back and validated against the schema of the very type it was
// marshalled from, a third of what a call costs. A test holds every
// answer to the advertised schema instead.
func addTool[In, Out any](s *mcp.Server, t *mcp.Tool, mu *sync.Mutex, h func(In) (Out, error)) {
	schema, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: the output schema: %v", t.Name, err)) // a type of bn's own
	}
	t.OutputSchema = schema
	mcp.AddTool(s, t, func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		mu.Lock()
		out, err := h(in)
		mu.Unlock()
		if err != nil {
			return nil, nil, err
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, nil, err
		}
		// Returned as the result, with no value beside it: the SDK then
		// neither marshals nor validates it again.
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(data), Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, nil
	})
}

// Serve runs the server on in and out until the client closes in, then
// answers every request already received before returning.
func Serve(ctx context.Context, server *mcp.Server, in io.Reader, out io.Writer) error {
	err := server.Run(ctx, newFrames(in, out).transport())
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client hung up: a normal end
	}
	return err
}
