package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessage bounds one JSON-RPC message; a longer line gets an error
// and the server keeps serving.
const MaxMessage = 4 << 20

// drainTimeout bounds how long the server waits, after the client closed
// its input, for answers still being worked out.
const drainTimeout = 30 * time.Second

// frames stands between stdin and the SDK's stdio transport. It hands the
// SDK one well-formed JSON message per line, answers malformed and
// oversized lines itself (the SDK would drop the connection), and, when
// the client closes its input, holds the end of input back until every
// request received has been answered: a client may write all its
// requests and close stdin at once.
type frames struct {
	src     *bufio.Reader
	out     io.Writer
	buf     []byte     // the line being handed to the SDK
	mu      sync.Mutex // guards out, pending, partial
	cond    *sync.Cond
	pending map[string]bool
	partial []byte // output not yet ending in a new line
	// initialized: an initialize request was handed on. The SDK answers a
	// second one with an error of code 0, which no client reads as one.
	initialized bool
}

func newFrames(in io.Reader, out io.Writer) *frames {
	f := &frames{src: bufio.NewReaderSize(in, 64<<10), out: out, pending: map[string]bool{}}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// transport is the SDK's stdio transport over f.
func (f *frames) transport() mcp.Transport {
	return &mcp.IOTransport{Reader: f, Writer: frameWriter{f}, MaxLineLength: -1}
}

// Read implements io.Reader for the SDK.
func (f *frames) Read(p []byte) (int, error) {
	for len(f.buf) == 0 {
		line, err := f.line()
		if len(line) > 0 && f.accept(line) {
			f.buf = append(append(f.buf[:0], line...), '\n')
		}
		if err != nil && len(f.buf) == 0 {
			if errors.Is(err, io.EOF) {
				f.drain()
			}
			return 0, err
		}
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

// Close implements io.Closer for the SDK: stdin stays open.
func (f *frames) Close() error { return nil }

// line reads one line, at most MaxMessage bytes; a longer one is skipped
// to its end and answered with an error.
func (f *frames) line() ([]byte, error) {
	var line []byte
	for {
		chunk, err := f.src.ReadSlice('\n')
		if len(line)+len(chunk) > MaxMessage {
			// Skip the rest of this line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = f.src.ReadSlice('\n')
			}
			f.reply(nil, -32600, fmt.Sprintf("message longer than %d bytes", MaxMessage))
			if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
			line = line[:0]
			continue
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(line), err
	}
}

// accept says whether a line is a JSON-RPC 2.0 message the SDK can take,
// and answers it when not: the SDK ends the connection on a malformed
// message, losing the requests in flight.
func (f *frames) accept(line []byte) bool {
	var msg struct {
		JSONRPC *string          `json:"jsonrpc"`
		ID      json.RawMessage  `json:"id"`
		Method  *json.RawMessage `json:"method"`
		Params  json.RawMessage  `json:"params"`
		Result  json.RawMessage  `json:"result"`
		Error   json.RawMessage  `json:"error"`
	}
	// Unmarshal checks the line is JSON before it decodes (a syntax
	// error), so the line is not scanned for that apart.
	err := json.Unmarshal(line, &msg)
	if syntax := (*json.SyntaxError)(nil); errors.As(err, &syntax) {
		f.reply(nil, -32700, "parse error: the line is not valid JSON")
		return false
	}
	if nestedDeeper(line, maxNesting) {
		f.reply(nil, -32600, fmt.Sprintf("invalid request: the message nests objects and arrays more than %d deep", maxNesting))
		return false
	}
	if line[0] != '{' || err != nil {
		what := "a JSON-RPC object"
		if line[0] == '[' {
			what += " (MCP has no batches: send each message on its own line)"
		}
		f.reply(nil, -32600, "invalid request: expected "+what)
		return false
	}
	id := msg.ID
	if len(id) > 0 && (id[0] == '-' || id[0] >= '0' && id[0] <= '9') && !exactInteger(id) {
		// The SDK reads a number id as a float64 made int64: 1.5 would be
		// answered as 1, 2^53+1 as 2^53, and 1e999 not at all; checked
		// before makeID, so that each is told this under its own id.
		f.reply(id, -32600, fmt.Sprintf("invalid request: a number id must be an integer from -%d to %d, to be answered under that id", maxExactID, maxExactID))
		return false
	}
	rpcID, ok := makeID(id)
	if !ok {
		f.reply(nil, -32600, "invalid request: id must be a string or a number")
		return false
	}
	invalid := func(why string) bool {
		f.reply(id, -32600, "invalid request: "+why)
		return false
	}
	var method string
	switch {
	case msg.JSONRPC == nil || *msg.JSONRPC != "2.0":
		return invalid(`jsonrpc must be "2.0"`)
	case msg.Method != nil && json.Unmarshal(*msg.Method, &method) != nil || msg.Method != nil && method == "":
		return invalid("method must be a non-empty string")
	case msg.Method == nil && (len(id) == 0 || string(id) == "null" || len(msg.Result) == 0 == (len(msg.Error) == 0)):
		return invalid("a message without a method is a response: it needs an id and either result or error")
	case len(msg.Params) > 0 && msg.Params[0] != '{' && msg.Params[0] != '[':
		return invalid("params must be an object or an array")
	case msg.Method != nil && string(id) == "null":
		return invalid("id must not be null: leave it out for a notification")
	}
	if method == "initialize" && len(id) > 0 {
		if f.initialized {
			return invalid("the session is already initialized: send initialize once, as the session's first request")
		}
		f.initialized = true
	}
	if msg.Method == nil {
		// A response to a request of the server's own.
		var wire jsonrpc.Error
		if len(msg.Error) > 0 && json.Unmarshal(msg.Error, &wire) != nil {
			return invalid("error must be an object with a code and a message")
		}
		return true
	}
	if len(id) > 0 {
		key := idKey(rpcID)
		f.mu.Lock()
		busy := f.pending[key]
		f.pending[key] = true
		f.mu.Unlock()
		if busy {
			// The SDK would answer only one of two requests with one id.
			f.reply(nil, -32600, "invalid request: id "+string(id)+" is already in use by a request not yet answered")
			return false
		}
	}
	return true
}

// maxNesting is the deepest nesting of objects and arrays the SDK decodes:
// it ends the connection on a deeper message.
const maxNesting = 1000

// nestedDeeper says whether a valid JSON text nests objects and arrays more
// than limit deep.
func nestedDeeper(data []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > limit {
				return true
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return false
}

// maxExactID is the largest integer a float64 holds exactly (2^53).
const maxExactID = 1 << 53

// exactInteger says whether a JSON number is an integer the SDK answers
// under the same id.
func exactInteger(raw json.RawMessage) bool {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n >= -maxExactID && n <= maxExactID
}

// makeID reads a message's id as the SDK's own transport would, or says it
// is not one JSON-RPC allows. An absent or null id is the zero ID (a null
// id is judged by the caller, who answers it with null).
func makeID(raw json.RawMessage) (jsonrpc.ID, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return jsonrpc.ID{}, true
	}
	switch raw[0] {
	case '{', '[', 't', 'f':
		return jsonrpc.ID{}, false
	}
	var v any // a string, or a number: json.Valid checked the line
	if json.Unmarshal(raw, &v) != nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(v)
	return id, err == nil
}

// drain waits until every request received has been answered.
func (f *frames) drain() {
	deadline := time.Now().Add(drainTimeout)
	timer := time.AfterFunc(drainTimeout, func() {
		f.mu.Lock()
		f.cond.Broadcast()
		f.mu.Unlock()
	})
	defer timer.Stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.pending) > 0 && time.Now().Before(deadline) {
		f.cond.Wait()
	}
}

// reply writes an error response of the server's own.
func (f *frames) reply(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	f.mu.Lock()
	defer f.mu.Unlock()
	f.out.Write(append(data, '\n'))
}

// idKey names a request's id in pending, as the SDK reads it (a number as
// an integer: 1 and 1.0 are one id).
func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// frameWriter is the SDK's output: whole lines go out under the lock, and
// each response settles its request.
type frameWriter struct{ f *frames }

func (w frameWriter) Write(p []byte) (int, error) {
	f := w.f
	f.mu.Lock()
	defer f.mu.Unlock()
	f.partial = append(f.partial, p...)
	for {
		i := bytes.IndexByte(f.partial, '\n')
		if i < 0 {
			break
		}
		line := f.partial[:i+1]
		if _, err := f.out.Write(line); err != nil {
			return 0, err
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &msg) == nil && msg.Method == "" {
			if id, ok := makeID(msg.ID); ok && id.IsValid() {
				delete(f.pending, idKey(id))
				f.cond.Broadcast()
			}
		}
		f.partial = f.partial[i+1:]
	}
	return len(p), nil
}

func (w frameWriter) Close() error { return nil }
