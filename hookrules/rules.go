package hookrules

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/resolver"
)

// Rules are an agent's rules as export wrote them for one tool's hook.
type Rules struct {
	Agent string `json:"agent"`
	Tool  string `json:"tool"`
	// Scope names the layers export read: "committed" (the built-in and
	// project layers, with the policies of the others) or "all-layers".
	Scope string   `json:"scope"`
	All   bool     `json:"all,omitempty"`
	Allow []string `json:"allow"`
	Deny  []string `json:"deny"`
	// Ask are the patterns the hook answers ask for: the tool asks the
	// user before the call.
	Ask []string `json:"ask,omitempty"`
}

// Scope names.
const (
	ScopeCommitted = "committed"
	ScopeAll       = "all-layers"
)

// New is the rules of a resolved definition, for tool, read from scope.
func New(def *agents.Definition, tool string, scope resolver.Scope) Rules {
	r := Rules{Agent: def.Name, Tool: tool, Scope: ScopeCommitted, All: def.Tools.All,
		Allow: append([]string{}, def.Tools.Allow...), Deny: append([]string{}, def.Tools.Deny...), Ask: slices.Clone(def.Tools.Ask)}
	if scope == resolver.AllLayers {
		r.Scope = ScopeAll
	}
	return r
}

// Tools are the rules as bn's tool rules.
func (r Rules) Tools() agents.Tools {
	return agents.Tools{All: r.All, Allow: r.Allow, Deny: r.Deny, Ask: r.Ask}
}

// LayerScope is the scope the rules were read from.
func (r Rules) LayerScope() resolver.Scope {
	if r.Scope == ScopeAll {
		return resolver.AllLayers
	}
	return resolver.Committed
}

// Encode is the file export writes: bn's marker line (naming the command
// that writes it again), sealed with a digest of the rest, then the rules
// as JSON. A file cut short, or edited, no longer matches its digest.
func Encode(r Rules, marker string) []byte {
	body, _ := json.Marshal(r) // strings and bools only
	return emit.Seal(append(append([]byte(marker), body...), '\n'))
}

// Errors Read gives, for the hook to say what to do.
var (
	ErrMissing = errors.New("missing")
	ErrDamaged = errors.New("damaged")
)

// Read reads and checks a rules file: bn's, whole, as bn wrote it.
func Read(path string) (Rules, []byte, error) {
	data, err := files.Read(path, files.MaxConfigFile)
	return checkRead(path, data, err)
}

// ReadInDir is Read of the file name in dir, opened through dir so that
// a name that is a symlink out of it is refused, not followed (a rules
// file beside an agent file import reads).
func ReadInDir(dir, name string) (Rules, []byte, error) {
	data, err := files.ReadInDir(dir, name, files.MaxConfigFile)
	return checkRead(filepath.Join(dir, name), data, err)
}

// checkRead is Read's answer for the bytes read from path, or the error.
func checkRead(path string, data []byte, err error) (Rules, []byte, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return Rules{}, nil, fmt.Errorf("%w: %s does not exist", ErrMissing, path)
	}
	if err != nil {
		return Rules{}, nil, fmt.Errorf("%w: %s %v", ErrDamaged, path, err)
	}
	r, err := Decode(data)
	if err != nil {
		return Rules{}, nil, fmt.Errorf("%w: %s %v", ErrDamaged, path, err)
	}
	return r, data, nil
}

// Decode checks and reads a rules file's content.
func Decode(data []byte) (Rules, error) {
	var r Rules
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return r, errors.New("is empty")
	case !emit.IsGenerated(data):
		return r, errors.New("does not start with bn's marker line")
	case !emit.Sealed(data) || emit.HandEdited(data):
		return r, errors.New("does not match its digest: it was cut short or edited since export wrote it")
	}
	_, body, _ := bytes.Cut(data, []byte("\n"))
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("does not hold rules bn reads: %v", err)
	}
	if r.Agent == "" || r.Tool == "" || r.Scope != ScopeCommitted && r.Scope != ScopeAll {
		return r, errors.New("does not name its agent, tool and scope")
	}
	for _, p := range slices.Concat(r.Allow, r.Deny, r.Ask) {
		if _, err := agents.ParseToolPattern(p); err != nil {
			return r, fmt.Errorf("holds the rule %q, which bn does not read: %v", p, err)
		}
	}
	return r, nil
}

// Digest identifies a rules file's content.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// Same says whether a resolved definition has the rules r holds: the
// same access, rule for rule (agents.Tools.Equal).
func (r Rules) Same(t agents.Tools) bool { return r.Tools().Equal(t) }
