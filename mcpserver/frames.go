package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// MaxMessage bounds one JSON-RPC message; a longer line gets an error
// and the server keeps serving.
const MaxMessage = 4 << 20

// drainTimeout bounds how long the server waits, after the client closed
// its input, for answers still being worked out.
const drainTimeout = 30 * time.Second

// frames stands between stdin and the SDK's transport. It hands the SDK
// one well-formed JSON message per line, answers malformed and oversized
// lines itself (the SDK would drop the connection), and, when the client
// closes its input, holds the end of input back until every request
// received has been answered: a client may write all its requests and
// close stdin at once.
type frames struct {
	src     *bufio.Reader
	out     io.Writer
	buf     []byte
	mu      sync.Mutex
	cond    *sync.Cond
	pending map[string]bool
	partial []byte // output not yet ending in a new line
}

func newFrames(in io.Reader, out io.Writer) *frames {
	f := &frames{src: bufio.NewReaderSize(in, 64<<10), out: out, pending: map[string]bool{}}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// Read implements io.Reader for the SDK.
func (f *frames) Read(p []byte) (int, error) {
	for len(f.buf) == 0 {
		line, err := f.line()
		if len(line) > 0 {
			f.accept(line)
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

// accept queues a line for the SDK, or answers it when it is not a
// JSON-RPC 2.0 message the SDK can take: the SDK ends the connection on
// a malformed message, losing the requests in flight.
func (f *frames) accept(line []byte) {
	if !json.Valid(line) {
		f.reply(nil, -32700, "parse error: the line is not valid JSON")
		return
	}
	var msg struct {
		JSONRPC *string          `json:"jsonrpc"`
		ID      json.RawMessage  `json:"id"`
		Method  *json.RawMessage `json:"method"`
		Params  json.RawMessage  `json:"params"`
		Result  json.RawMessage  `json:"result"`
		Error   json.RawMessage  `json:"error"`
	}
	if line[0] != '{' || json.Unmarshal(line, &msg) != nil {
		what := "a JSON-RPC object"
		if line[0] == '[' {
			what += " (MCP has no batches: send each message on its own line)"
		}
		f.reply(nil, -32600, "invalid request: expected "+what)
		return
	}
	id := msg.ID
	if !validID(id) {
		f.reply(nil, -32600, "invalid request: id must be a string or a number")
		return
	}
	invalid := func(why string) { f.reply(id, -32600, "invalid request: "+why) }
	var method string
	switch {
	case msg.JSONRPC == nil || *msg.JSONRPC != "2.0":
		invalid(`jsonrpc must be "2.0"`)
		return
	case msg.Method != nil && json.Unmarshal(*msg.Method, &method) != nil || msg.Method != nil && method == "":
		invalid("method must be a non-empty string")
		return
	case msg.Method == nil && (len(id) == 0 || string(id) == "null" || len(msg.Result) == 0 == (len(msg.Error) == 0)):
		invalid("a message without a method is a response: it needs an id and either result or error")
		return
	case len(msg.Params) > 0 && msg.Params[0] != '{' && msg.Params[0] != '[':
		invalid("params must be an object or an array")
		return
	case msg.Method != nil && string(id) == "null":
		invalid("id must not be null: leave it out for a notification")
		return
	}
	if msg.Method != nil && len(id) > 0 {
		key := idKey(id)
		f.mu.Lock()
		busy := f.pending[key]
		f.pending[key] = true
		f.mu.Unlock()
		if busy {
			// The SDK would answer only one of two requests with one id.
			f.reply(nil, -32600, "invalid request: id "+string(id)+" is already in use by a request not yet answered")
			return
		}
	}
	f.buf = append(append(f.buf[:0], line...), '\n')
}

// validID says whether a message's id is absent or one JSON-RPC allows (a
// null id is judged by the caller, who answers it with null).
func validID(id json.RawMessage) bool {
	if len(id) == 0 || string(id) == "null" {
		return true
	}
	switch id[0] {
	case '"':
		return true
	case '{', '[', 't', 'f':
		return false
	}
	return true // a number: json.Valid checked the line
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

func idKey(id json.RawMessage) string {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return string(id)
	}
	return fmt.Sprintf("%T:%v", v, v)
}

// writer is the SDK's output: whole lines go out under the lock, and each
// response settles its request.
func (f *frames) writer() io.WriteCloser { return frameWriter{f} }

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
		if id, ok := responseID(line); ok {
			delete(f.pending, idKey(id))
			f.cond.Broadcast()
		}
		f.partial = f.partial[i+1:]
	}
	return len(p), nil
}

func (w frameWriter) Close() error { return nil }

// responseID returns the id of a response the SDK wrote, reading the line
// no further than it must: the SDK writes a message's id and method before
// its result, which is most of the line.
func responseID(line []byte) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var id json.RawMessage
	response := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, false
		}
		switch key {
		case "method":
			return nil, false // a request or notification of the server's own
		case "id":
			if dec.Decode(&id) != nil {
				return nil, false
			}
			continue
		case "result", "error":
			response = true
		}
		if response && id != nil {
			return id, true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil, false
		}
	}
	return id, response && len(id) > 0
}
