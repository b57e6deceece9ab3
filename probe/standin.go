package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Call is a tool call the stand-in asks the client to make, in the
// client's own tool name, with the input that tool takes.
type Call struct {
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
	// Deferred: the client offers the tool only through tool_search (it
	// loads such tools on demand) and runs it when called.
	Deferred bool `json:"-"`
}

// Result is what came back from a call the stand-in asked for.
type Result struct {
	// Command is the shell command asked for, when not ShellProbe.
	Command string `json:"command,omitempty"`
	// Path is the file a write asked for wrote, when it was a write.
	Path   string `json:"path,omitempty"`
	Ran    bool   `json:"ran"` // the client ran it and reported no error
	Output string `json:"output"`
	// NotOffered: the call was not asked, as the agent is not offered
	// its tool.
	NotOffered bool `json:"not_offered,omitempty"`
}

// Standin stands in for a model API on 127.0.0.1: Anthropic's Messages
// (POST …/messages), OpenAI's chat completions (POST …/chat/completions)
// and Responses (POST …/responses), and Gemini's generateContent (POST
// …:generateContent or …:streamGenerateContent), streamed or not. The first request that
// offers the agent's tools is the one recorded; if Ask names one of them,
// the answer is a call of it, and the request that carries its result
// records it; the calls of Then are asked after it, one at a time. Every
// other request is answered with a line of text.
type Standin struct {
	Ask *Call
	// Then are more calls asked of the agent after Ask, each once the one
	// before has its result: several uses of its tools in one run. A call
	// of a tool the agent is not offered is not asked (its result: not
	// offered).
	Then []*Call
	// Before, when set, runs before each of Ask and Then is asked, with
	// its index (Ask is 0): what a probe sets up for that call.
	Before func(i int)
	// Via, when set, is asked of the first request that offers its tool,
	// before anything is recorded: how a client is made to start the
	// agent under test as a sub-agent, whose first request is then the
	// one recorded.
	Via *Call
	// Finish, when set, answers the sub-agent once Ask's result is in (or
	// at once, when Ask was not offered), if the request offers its tool:
	// how a sub-agent that must report its end is let go.
	Finish *Call
	// Await, when set, answers the main agent once Via's result is in:
	// the call by which it waits for the sub-agent it started, made from
	// that result (Codex starts sub-agents in the background and ends its
	// run when the main agent stops), or nil for a text answer (Qwen Code,
	// whose result says whether the sub-agent was found).
	Await func(viaResult string) *Call
	// AwaitAgain: the main agent is answered with Await's call each time
	// it asks until the sub-agent's result is in (oh-my-pi's hub wait
	// returns after a few seconds whether or not the sub-agent is done).
	AwaitAgain bool
	// Nested: the sub-agent is offered Via too (Qwen Code's agent
	// tool), so it is told from the main agent by its conversation, which
	// does not hold the Via call (the client echoes call ids).
	Nested bool
	// Watch, when set, reads every request's body (a client that reports
	// a sub-agent's failure in a later turn, as Qwen Code does).
	Watch func(body []byte)
	// Fan, when set, are calls asked all at once of the first request
	// that offers their tool (OpenAI's chat API, Anthropic's Messages):
	// how a main agent is made to start many sub-agents side by side. Later requests are answered
	// with text.
	Fan    []*Call
	fanned bool
	URL    string // http://127.0.0.1:PORT

	mu        sync.Mutex
	offered   []string
	seen      bool
	delegated bool
	awaited   int
	asked     bool
	finished  bool
	results   []*Result
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
	var first *Result
	if len(s.results) > 0 {
		first = s.results[0]
	}
	return s.offered, s.seen, first
}

// Delegated says whether a client was asked for Via, the call that
// starts the agent under test: it was offered the tool for it.
func (s *Standin) Delegated() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.delegated
}

// Results are the results of Ask and Then, in order, as far as they came.
func (s *Standin) Results() []*Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.results)
}

// asks are Ask and Then.
func (s *Standin) asks() []*Call {
	if s.Ask == nil {
		return nil
	}
	return append([]*Call{s.Ask}, s.Then...)
}

// notOffered is the result of a call of a tool the agent is not offered.
const notOffered = "not offered"

// api is the model API a request speaks.
type api int

const (
	anthropic api = iota
	chat
	responses
	gemini
)

// apiOf tells the API from a request's path.
func apiOf(path string) (api, bool) {
	switch {
	case strings.HasSuffix(path, "/messages"):
		return anthropic, true
	case strings.HasSuffix(path, "/chat/completions"):
		return chat, true
	case strings.HasSuffix(path, "/responses"):
		return responses, true
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
	Input    []json.RawMessage `json:"input"`    // Responses
}

// maxAwaits bounds how often the main agent is asked to wait.
const maxAwaits = 24

// The ids of the calls the stand-in makes, by which their results are
// told apart.
const (
	askID   = "toolu_probe"
	viaID   = "toolu_via"
	awaitID = "toolu_await"
)

// askIDOf is the id of the ith call asked (Ask, then Then's).
func askIDOf(i int) string {
	if i == 0 {
		return askID
	}
	return fmt.Sprintf("%s%d", askID, i)
}

func (s *Standin) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	s.answer(w, r, body)
}

// answer answers one request, whose body has been read.
func (s *Standin) answer(w http.ResponseWriter, r *http.Request, body []byte) {
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
	if s.Watch != nil {
		s.Watch(body)
	}
	var req request
	_ = json.Unmarshal(body, &req)
	turns := req.Messages
	switch a {
	case gemini:
		turns = req.Contents
		req.Stream = strings.Contains(r.URL.Path, ":stream") || r.URL.Query().Get("alt") == "sse"
	case responses:
		turns = req.Input
	}
	names := toolNames(req.Tools)
	if a == anthropic {
		names = append(names, deferredTools(turns)...)
	}
	if calls := s.fanOut(a, names); calls != nil {
		if a == chat {
			writeOpenAI(w, req.Stream, fanned(calls))
		} else {
			writeAnthropic(w, req.Stream, fanned(calls))
		}
		return
	}
	call, id := s.decide(a, turns, names, len(req.Tools) > 0)
	switch a {
	case chat:
		writeOpenAI(w, req.Stream, one(call, id))
	case gemini:
		writeGemini(w, req.Stream, call)
	case responses:
		writeResponses(w, call, id)
	default:
		writeAnthropic(w, req.Stream, one(call, id))
	}
}

// fanOut says whether to answer with Fan, once.
func (s *Standin) fanOut(a api, names []string) []*Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.Fan) == 0 || s.fanned || (a != chat && a != anthropic) || !slices.Contains(names, s.Fan[0].Tool) {
		return nil
	}
	s.fanned = true
	return s.Fan
}

// decide records the request and says which call, if any, to answer with.
func (s *Standin) decide(a api, turns []json.RawMessage, names []string, hasTools bool) (*Call, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	offers := func(c *Call) bool {
		return c != nil && (slices.Contains(names, c.Tool) || c.Deferred && slices.Contains(names, "tool_search"))
	}
	asks := s.asks()
	// next asks the next of asks the agent is offered; those it is not
	// offered are recorded as such.
	next := func() (*Call, string) {
		for len(s.results) < len(asks) {
			c := asks[len(s.results)]
			if slices.Contains(s.offered, c.Tool) || c.Deferred && slices.Contains(s.offered, "tool_search") {
				if s.Before != nil {
					s.Before(len(s.results))
				}
				return c, askIDOf(len(s.results))
			}
			s.results = append(s.results, &Result{Output: notOffered, NotOffered: true})
		}
		if offers(s.Finish) && !s.finished {
			s.finished = true
			return s.Finish, viaID
		}
		return nil, ""
	}
	if s.asked && len(s.results) < len(asks) {
		i := len(s.results)
		if res, ok := askResult(a, turns, asks[i].Tool, askIDOf(i)); ok {
			s.results = append(s.results, res)
			return next()
		}
	}
	if s.Via != nil && !s.delegated {
		if offers(s.Via) {
			s.delegated = true
			return s.Via, viaID
		}
		return nil, ""
	}
	if s.delegated && offers(s.Via) && (!s.Nested || mentions(turns, viaID)) {
		// The main agent again: it waits for the sub-agent it started
		// (Await), or the sub-agent did not start. Where the sub-agent is
		// offered Via too (Nested), the main agent is the one whose
		// conversation holds the call that started it.
		again := s.AwaitAgain && len(s.results) == 0 && s.awaited < maxAwaits
		if out, ok := callOutput(a, turns, viaID); ok && s.Await != nil && (s.awaited == 0 || again) {
			s.awaited++
			return s.Await(out), fmt.Sprintf("%s_%d", awaitID, s.awaited)
		}
		return nil, ""
	}
	if !hasTools && !s.seen && !hasUserPrompt(turns) {
		// A side request (a title, a summary) offers no tools; the
		// agent's first turn is the first that carries its tools,
		// unless it has none: then the first request with the prompt.
		return nil, ""
	}
	if !s.seen {
		s.seen, s.offered = true, names
		if len(asks) > 0 {
			s.asked = true
		}
		return next()
	}
	return nil, ""
}

// mentions says whether a conversation holds a call id.
func mentions(turns []json.RawMessage, id string) bool {
	for _, t := range turns {
		if bytes.Contains(t, []byte(id)) {
			return true
		}
	}
	return false
}

// toolNames reads the offered tools' names: Anthropic's {name}, OpenAI's
// {function: {name}}, Gemini's {functionDeclarations: [{name}]}, and the
// Responses API's {name}, {type} for a hosted tool (web_search) and
// {type: namespace, name, tools} for a group, whose tools are named
// NAMESPACE.TOOL.
func toolNames(tools []json.RawMessage) []string {
	names := []string{}
	for _, t := range tools {
		var v struct {
			Type     string `json:"type"`
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
			Declarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if json.Unmarshal(t, &v) != nil {
			continue
		}
		switch {
		case v.Type == "namespace":
			for _, m := range v.Tools {
				names = append(names, v.Name+"."+m.Name)
			}
			continue
		case v.Name == "" && v.Function.Name != "":
			v.Name = v.Function.Name
		case v.Name == "" && v.Declarations == nil:
			v.Name = v.Type
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

// deferredHead opens the list of tools Claude Code offers by name only,
// loaded on demand through its ToolSearch tool (WebFetch, TaskCreate, …).
const deferredHead = "The following deferred tools are now available via ToolSearch."

// deferredTools reads the tools a request offers by name only, one a
// line in a system reminder after deferredHead.
func deferredTools(turns []json.RawMessage) []string {
	var out []string
	for _, t := range turns {
		var m struct {
			Content any `json:"content"`
		}
		if json.Unmarshal(t, &m) != nil {
			continue
		}
		_, list, ok := strings.Cut(textOf(m.Content), deferredHead)
		if !ok {
			continue
		}
		list, _, _ = strings.Cut(list, "</system-reminder>")
		lines := strings.Split(list, "\n")
		for _, line := range lines[1:] { // the rest of the head's line says how to load them
			if line = strings.TrimSpace(line); line != "" && !strings.ContainsAny(line, " .:") {
				out = append(out, line)
			}
		}
	}
	return out
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

// callOutput finds the output of the call with id among the turns: a
// Responses function_call_output, or an OpenAI chat tool message.
func callOutput(a api, turns []json.RawMessage, id string) (string, bool) {
	if a != responses && a != chat {
		return "", false
	}
	for _, t := range turns {
		var item struct {
			Type       string `json:"type"`
			CallID     string `json:"call_id"`
			Output     any    `json:"output"`
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    any    `json:"content"`
		}
		if json.Unmarshal(t, &item) != nil {
			continue
		}
		if item.Type == "function_call_output" && item.CallID == id {
			return textOf(item.Output), true
		}
		if item.Role == "tool" && item.ToolCallID == id {
			return textOf(item.Content), true
		}
	}
	return "", false
}

// askResult finds the result of an asked call (tool, id) among the turns.
func askResult(a api, turns []json.RawMessage, tool, id string) (*Result, bool) {
	if a == responses { // Codex: "Process exited with code N" heads a command's output
		text, ok := callOutput(a, turns, id)
		if !ok {
			return nil, false
		}
		ran := !refused(text) // refused before it ran
		if strings.Contains(text, "exited with code ") {
			ran = strings.Contains(text, "exited with code 0\n")
		}
		return &Result{Ran: ran, Output: commandOutput(text)}, true
	}
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
			if m.Role == "tool" && m.ToolCallID == id {
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
				if c["type"] == "tool_result" && c["tool_use_id"] == id {
					// Claude Code appends reminders (the agents it has, …)
					// whose words say nothing of the call.
					text := reminders.ReplaceAllString(textOf(c["content"]), "")
					return &Result{Ran: c["is_error"] != true && !refused(text), Output: text}, true
				}
			}
		}
	}
	return nil, false
}

// reminders are the notes Claude Code appends to a tool's result.
var reminders = regexp.MustCompile(`(?s)\s*<system-reminder>.*?</system-reminder>`)

// refused recognises a client's refusal that is not marked an error (Qwen
// Code passes a hook's refusal on as the tool's whole answer, and the
// reason bn's hook gave for asking where it refuses the ask).
func refused(text string) bool {
	t := strings.ToLower(text)
	for _, s := range []string{"denied", "not allowed", "requires approval", "rejected", "permission", "hook error", "blocked", "bn refused:", "bn: agent "} {
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

// asked is a call the answer makes, with its id.
type asked struct {
	id   string
	call *Call
}

// one is the answer's calls when it makes call (or none, when nil).
func one(call *Call, id string) []asked {
	if call == nil {
		return nil
	}
	return []asked{{id, call}}
}

// fanned are calls made at once, each with an id of its own.
func fanned(calls []*Call) []asked {
	out := make([]asked, len(calls))
	for i, c := range calls {
		out[i] = asked{fmt.Sprintf("toolu_fan%d", i), c}
	}
	return out
}

// writeAnthropic answers in Anthropic's Messages API: text, or the calls.
func writeAnthropic(w http.ResponseWriter, stream bool, calls []asked) {
	stop := "end_turn"
	blocks := []map[string]any{{"type": "text", "text": "done"}}
	if len(calls) > 0 {
		stop, blocks = "tool_use", nil
		for _, c := range calls {
			blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.id, "name": c.call.Tool, "input": callInput(c.call)})
		}
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "msg_probe", "type": "message", "role": "assistant", "model": "probe-model",
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}})
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
	for i, b := range blocks {
		if b["type"] == "tool_use" {
			input, _ := json.Marshal(b["input"])
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		} else {
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": "done"}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 1}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

// writeOpenAI answers in OpenAI's chat API: text, or the calls.
func writeOpenAI(w http.ResponseWriter, stream bool, calls []asked) {
	var toolCalls []any
	for i, c := range calls {
		input, _ := json.Marshal(callInput(c.call))
		toolCalls = append(toolCalls, map[string]any{"index": i, "id": c.id, "type": "function",
			"function": map[string]any{"name": c.call.Tool, "arguments": string(input)}})
	}
	finish := "stop"
	content := "done"
	if toolCalls != nil {
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

// commandOutput is what a Codex command printed: the text after its
// "Output:" line, or all of it.
func commandOutput(text string) string {
	if _, out, ok := strings.Cut(text, "\nOutput:\n"); ok {
		return out
	}
	return text
}

// writeResponses answers in the Responses API's stream: one output item,
// a message or a call; a call of NAMESPACE.TOOL names its namespace.
func writeResponses(w http.ResponseWriter, call *Call, id string) {
	item := map[string]any{"type": "message", "role": "assistant", "id": "msg_probe",
		"content": []any{map[string]any{"type": "output_text", "text": "done"}}}
	if call != nil {
		input, _ := json.Marshal(callInput(call))
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": id, "name": call.Tool, "arguments": string(input)}
		if ns, name, ok := strings.Cut(call.Tool, "."); ok {
			item["namespace"], item["name"] = ns, name
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
	}
	event(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_probe"}})
	event(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	event(map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_probe",
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}})
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

// Hub is one stand-in for many conversations at once, each its own
// Standin, told apart by a word of its own in the requests (the marker
// its prompt carries): how one client process serves many agents.
type Hub struct {
	URL string

	mu    sync.Mutex
	convs map[string]*Standin
	srv   *http.Server
}

// Start listens on a free port of 127.0.0.1.
func (h *Hub) Start() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	h.URL = "http://" + ln.Addr().String()
	h.srv = &http.Server{Handler: http.HandlerFunc(h.serve)}
	go h.srv.Serve(ln)
	return nil
}

// Close stops the server.
func (h *Hub) Close() { h.srv.Close() }

// Add routes the requests that hold marker to s.
func (h *Hub) Add(marker string, s *Standin) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.convs == nil {
		h.convs = map[string]*Standin{}
	}
	h.convs[marker] = s
}

// firstUserText is the text of a request's first user message (chat,
// Messages), or all of the body when it has none.
func firstUserText(body []byte) string {
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) == nil {
		for _, m := range req.Messages {
			if m.Role == "user" {
				return textOf(m.Content)
			}
		}
	}
	return string(body)
}

// Marker is the word that tells a conversation's requests apart: it goes
// into the prompt the client is given.
func Marker(i int) string { return fmt.Sprintf("%s%04d", promptWord, i) }

func (h *Hub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	// A conversation is its first user message's: a main agent's holds
	// the markers of the sub-agents it starts in its calls, not there.
	first := []byte(firstUserText(body))
	h.mu.Lock()
	var s *Standin
	for marker, c := range h.convs {
		if bytes.Contains(first, []byte(marker)) {
			s = c
			break
		}
	}
	h.mu.Unlock()
	if s == nil {
		s = &Standin{} // a side request: answered with text
	}
	s.answer(w, r, body)
}
