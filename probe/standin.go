package probe

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Call is a tool call the stand-in asks the client to make, in the
// client's own tool name, with the input that tool takes.
type Call struct {
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
}

// Result is what came back from a call the stand-in asked for.
type Result struct {
	// Command is the shell command asked for, when not ShellProbe.
	Command string `json:"command,omitempty"`
	Ran     bool   `json:"ran"` // the client ran it and reported no error
	Output  string `json:"output"`
}

// Standin stands in for a model API on 127.0.0.1: Anthropic's Messages
// (POST …/messages), OpenAI's chat completions (POST …/chat/completions)
// and Gemini's generateContent (POST …:generateContent or
// …:streamGenerateContent), streamed or not. The first request that
// offers the agent's tools is the one recorded; if Ask names one of them,
// the answer is a call of it, and the request that carries its result
// records it. Every other request is answered with a line of text.
type Standin struct {
	Ask *Call
	// Via, when set, is asked of the first request that offers its tool,
	// before anything is recorded: how a client is made to start the
	// agent under test as a sub-agent, whose first request is then the
	// one recorded.
	Via *Call
	// Finish, when set, answers the sub-agent once Ask's result is in (or
	// at once, when Ask was not offered), if the request offers its tool:
	// how a sub-agent that must report its end is let go.
	Finish *Call
	URL    string // http://127.0.0.1:PORT

	mu        sync.Mutex
	offered   []string
	seen      bool
	delegated bool
	asked     bool
	finished  bool
	result    *Result
	srv       *http.Server
	ln        net.Listener
}

// Start listens on a free port of 127.0.0.1.
func (s *Standin) Start() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	s.ln, s.URL = ln, "http://"+ln.Addr().String()
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(ln)
	return nil
}

// Close stops the server.
func (s *Standin) Close() { s.srv.Close() }

// Observed returns the tools the client offered (nil: no request with
// tools came) and the asked call's result, if any.
func (s *Standin) Observed() ([]string, bool, *Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offered, s.seen, s.result
}

// api is the model API a request speaks.
type api int

const (
	anthropic api = iota
	chat
	gemini
)

// apiOf tells the API from a request's path.
func apiOf(path string) (api, bool) {
	switch {
	case strings.HasSuffix(path, "/messages"):
		return anthropic, true
	case strings.HasSuffix(path, "/chat/completions"):
		return chat, true
	case strings.HasSuffix(path, ":generateContent"), strings.HasSuffix(path, ":streamGenerateContent"):
		return gemini, true
	}
	return 0, false
}

// request is what the stand-in reads of any API's request.
type request struct {
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []json.RawMessage `json:"messages"` // Anthropic, chat
	Contents []json.RawMessage `json:"contents"` // Gemini
}

// The ids of the calls the stand-in makes, by which their results are
// told apart.
const (
	askID = "toolu_probe"
	viaID = "toolu_via"
)

func (s *Standin) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	a, ok := apiOf(r.URL.Path)
	if r.Method != http.MethodPost || !ok {
		if strings.HasSuffix(r.URL.Path, "/models") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"object":"list","data":[{"id":"probe-model","object":"model","owned_by":"probe"}]}`)
			return
		}
		http.NotFound(w, r)
		return
	}
	var req request
	_ = json.Unmarshal(body, &req)
	turns := req.Messages
	if a == gemini {
		turns = req.Contents
		req.Stream = strings.Contains(r.URL.Path, ":stream") || r.URL.Query().Get("alt") == "sse"
	}
	call, id := s.decide(a, turns, toolNames(req.Tools), len(req.Tools) > 0)
	switch a {
	case chat:
		writeOpenAI(w, req.Stream, call, id)
	case gemini:
		writeGemini(w, req.Stream, call)
	default:
		writeAnthropic(w, req.Stream, call, id)
	}
}

// decide records the request and says which call, if any, to answer with.
func (s *Standin) decide(a api, turns []json.RawMessage, names []string, hasTools bool) (*Call, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	offers := func(c *Call) bool { return c != nil && slices.Contains(names, c.Tool) }
	if s.asked && s.result == nil {
		if res, ok := askResult(a, turns, s.Ask.Tool); ok {
			s.result = res
			if offers(s.Finish) && !s.finished {
				s.finished = true
				return s.Finish, viaID
			}
			return nil, ""
		}
	}
	if s.Via != nil && !s.delegated {
		if offers(s.Via) {
			s.delegated = true
			return s.Via, viaID
		}
		return nil, ""
	}
	if s.delegated && offers(s.Via) {
		return nil, "" // the main agent again: the sub-agent did not start
	}
	if !hasTools && !s.seen && !hasUserPrompt(turns) {
		// A side request (a title, a summary) offers no tools; the
		// agent's first turn is the first that carries its tools,
		// unless it has none: then the first request with the prompt.
		return nil, ""
	}
	if !s.seen {
		s.seen, s.offered = true, names
		if offers(s.Ask) {
			s.asked = true
			return s.Ask, askID
		}
		if offers(s.Finish) {
			s.finished = true
			return s.Finish, viaID
		}
	}
	return nil, ""
}

// toolNames reads the offered tools' names: Anthropic's {name}, OpenAI's
// {function: {name}}, Gemini's {functionDeclarations: [{name}]}.
func toolNames(tools []json.RawMessage) []string {
	names := []string{}
	for _, t := range tools {
		var v struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
			Declarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		}
		if json.Unmarshal(t, &v) != nil {
			continue
		}
		if v.Name == "" {
			v.Name = v.Function.Name
		}
		if v.Name != "" {
			names = append(names, v.Name)
		}
		for _, d := range v.Declarations {
			names = append(names, d.Name)
		}
	}
	return names
}

// hasUserPrompt says whether the messages hold the probe's prompt.
func hasUserPrompt(msgs []json.RawMessage) bool {
	for _, m := range msgs {
		if strings.Contains(string(m), promptWord) {
			return true
		}
	}
	return false
}

// promptWord is in the prompt every probe run gives the client.
const promptWord = "bnprobe"

// askResult finds the result of the asked call (tool) among the turns.
func askResult(a api, turns []json.RawMessage, tool string) (*Result, bool) {
	for i := len(turns) - 1; i >= 0; i-- {
		var m struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    any    `json:"content"`
			Parts      []struct {
				FunctionResponse *struct {
					Name     string         `json:"name"`
					Response map[string]any `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		}
		if json.Unmarshal(turns[i], &m) != nil {
			continue
		}
		switch a {
		case chat: // a "tool" message follows the call; an error is in its text
			if m.Role == "tool" && m.ToolCallID == askID {
				text := textOf(m.Content)
				return &Result{Ran: !refused(text), Output: text}, true
			}
		case gemini: // a functionResponse part: {output} or {error}
			for _, p := range m.Parts {
				if r := p.FunctionResponse; r != nil && r.Name == tool {
					text, failed := r.Response["error"].(string)
					if !failed {
						text, _ = r.Response["output"].(string)
					}
					return &Result{Ran: !failed && !refused(text), Output: text}, true
				}
			}
		default: // a tool_result block
			blocks, _ := m.Content.([]any)
			for _, b := range blocks {
				c, _ := b.(map[string]any)
				if c["type"] == "tool_result" && c["tool_use_id"] == askID {
					text := textOf(c["content"])
					return &Result{Ran: c["is_error"] != true && !refused(text), Output: text}, true
				}
			}
		}
	}
	return nil, false
}

// refused recognises a client's refusal that is not marked an error.
func refused(text string) bool {
	t := strings.ToLower(text)
	for _, s := range []string{"denied", "not allowed", "requires approval", "rejected", "permission", "hook error", "blocked"} {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// textOf flattens a message content: a string or a list of text blocks.
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					b.WriteString(t)
				}
			}
		}
		return b.String()
	}
	return ""
}

func writeAnthropic(w http.ResponseWriter, stream bool, call *Call, id string) {
	input, _ := json.Marshal(callInput(call))
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		block := map[string]any{"type": "text", "text": "done"}
		stop := "end_turn"
		if call != nil {
			block = map[string]any{"type": "tool_use", "id": id, "name": call.Tool, "input": callInput(call)}
			stop = "tool_use"
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "msg_probe", "type": "message", "role": "assistant", "model": "probe-model",
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_probe", "type": "message",
		"role": "assistant", "model": "probe-model", "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": 1, "output_tokens": 1}}})
	stop := "end_turn"
	if call != nil {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": id, "name": call.Tool, "input": map[string]any{}}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		stop = "tool_use"
	} else {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "done"}})
	}
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 1}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

func writeOpenAI(w http.ResponseWriter, stream bool, call *Call, id string) {
	input, _ := json.Marshal(callInput(call))
	var toolCalls []any
	finish := "stop"
	content := "done"
	if call != nil {
		toolCalls = []any{map[string]any{"index": 0, "id": id, "type": "function",
			"function": map[string]any{"name": call.Tool, "arguments": string(input)}}}
		finish, content = "tool_calls", ""
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		msg := map[string]any{"role": "assistant", "content": content}
		if toolCalls != nil {
			msg["tool_calls"] = toolCalls
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-probe", "object": "chat.completion", "created": 0, "model": "probe-model",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-probe", "object": "chat.completion.chunk", "created": 0, "model": "probe-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	delta := map[string]any{"role": "assistant", "content": content}
	if toolCalls != nil {
		delta = map[string]any{"role": "assistant", "tool_calls": toolCalls}
	}
	chunk(delta, nil)
	chunk(map[string]any{}, finish)
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-probe", "object": "chat.completion.chunk", "created": 0, "model": "probe-model",
		"choices": []any{}, "usage": map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
	fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", b)
}

func callInput(c *Call) map[string]any {
	if c == nil {
		return map[string]any{}
	}
	return c.Input
}

func writeGemini(w http.ResponseWriter, stream bool, call *Call) {
	part := map[string]any{"text": "done"}
	if call != nil {
		part = map[string]any{"functionCall": map[string]any{"name": call.Tool, "args": callInput(call)}}
	}
	b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
		"content": map[string]any{"role": "model", "parts": []any{part}}}},
		"usageMetadata": map[string]int{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}})
	if stream {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", b)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
