package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// frames is the server's connection, given to the SDK as its transport.
// It reads one JSON message per line, checks and decodes it once (the
// SDK's own stdio transport would parse each line three more times),
// answers malformed and oversized lines itself (the SDK would drop the
// connection), and, when the client closes its input, holds the end of
// input back until every request received has been answered: a client may
// write all its requests and close stdin at once.
type frames struct {
	src      *bufio.Reader
	out      io.Writer
	mu       sync.Mutex // guards out, pending
	cond     *sync.Cond
	pending  map[string]bool
	incoming chan received
	closed   chan struct{}
	close    sync.Once
}

// received is a message read, or why reading ended.
type received struct {
	msg jsonrpc.Message
	err error
}

func newFrames(in io.Reader, out io.Writer) *frames {
	f := &frames{src: bufio.NewReaderSize(in, 64<<10), out: out, pending: map[string]bool{},
		incoming: make(chan received), closed: make(chan struct{})}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// Connect implements mcp.Transport: the SDK reads and writes through f.
func (f *frames) Connect(context.Context) (mcp.Connection, error) {
	go f.readLoop()
	return f, nil
}

// readLoop reads messages until the input ends, on a goroutine of its own
// so that Close unblocks Read: a read of stdin cannot be interrupted.
func (f *frames) readLoop() {
	for {
		line, err := f.line()
		if len(line) > 0 {
			if msg := f.accept(line); msg != nil && !f.send(received{msg: msg}) {
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				f.drain()
			}
			f.send(received{err: err})
			return
		}
	}
}

func (f *frames) send(r received) bool {
	select {
	case f.incoming <- r:
		return true
	case <-f.closed:
		return false
	}
}

// Read implements mcp.Connection.
func (f *frames) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-f.incoming:
		return r.msg, r.err
	case <-f.closed:
		return nil, io.EOF
	}
}

// Write implements mcp.Connection: one message a line, and a response
// settles its request.
func (f *frames) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("cannot write a message: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.out.Write(append(data, '\n')); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		delete(f.pending, idKey(resp.ID))
		f.cond.Broadcast()
	}
	return nil
}

// Close implements mcp.Connection.
func (f *frames) Close() error {
	f.close.Do(func() { close(f.closed) })
	return nil
}

// SessionID implements mcp.Connection: stdio has one session.
func (f *frames) SessionID() string { return "" }

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

// accept decodes a line for the SDK, or answers it and returns nil when it
// is not a JSON-RPC 2.0 message the SDK can take: the SDK ends the
// connection on a malformed message, losing the requests in flight.
func (f *frames) accept(line []byte) jsonrpc.Message {
	if !json.Valid(line) {
		f.reply(nil, -32700, "parse error: the line is not valid JSON")
		return nil
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
		return nil
	}
	id := msg.ID
	rpcID, ok := makeID(id)
	if !ok {
		f.reply(nil, -32600, "invalid request: id must be a string or a number")
		return nil
	}
	invalid := func(why string) jsonrpc.Message {
		f.reply(id, -32600, "invalid request: "+why)
		return nil
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
	if msg.Method == nil {
		// A response to a request of the server's own.
		resp := &jsonrpc.Response{ID: rpcID, Result: msg.Result}
		if len(msg.Error) > 0 {
			var wire jsonrpc.Error
			if json.Unmarshal(msg.Error, &wire) != nil {
				return invalid("error must be an object with a code and a message")
			}
			resp.Error = &wire
		}
		return resp
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
			return nil
		}
	}
	return &jsonrpc.Request{ID: rpcID, Method: method, Params: msg.Params}
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
