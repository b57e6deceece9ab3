package probe

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Server is a client that serves many agents from one process (OpenCode
// and Kilo: `serve`): started once on a project holding every agent file
// to verify, it says which agents it loaded, with the permission rules it
// resolved for each, and the tools of its registry. A file its schema
// rejects makes OpenCode refuse the whole project, which Agents reports.
type Server struct {
	Tool string
	base string
	proj string
	cmd  *exec.Cmd
	out  *strings.Builder
}

// servers are the clients a Server runs.
var servers = map[string]bool{"opencode": true, "kilo": true}

// Serves says whether tool's client serves many agents from one process.
func Serves(tool string) bool { return servers[tool] }

// serveListening is where the server says it listens.
var serveListening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// StartServer starts tool's server (bin serve) on a free port, in a
// sandbox whose project holds files (paths relative to the project). The
// server runs until Close, or until ctx is done, which kills it with the
// processes it started.
func StartServer(ctx context.Context, tool, bin string, files map[string]string, env []string) (*Server, error) {
	home, proj, base, err := sandboxFiles(files)
	if err != nil {
		return nil, err
	}
	s := &Server{Tool: tool, proj: proj, out: &strings.Builder{}}
	cmd := exec.CommandContext(ctx, bin, "serve", "--port", "0", "--hostname", "127.0.0.1")
	cmd.Dir, cmd.Env = proj, append(base(home), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cleanup(proj)
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := start(cmd); err != nil {
		cleanup(proj)
		return nil, err
	}
	s.cmd = cmd
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		sent := false
		for lines.Scan() {
			s.out.WriteString(lines.Text() + "\n")
			if m := serveListening.FindStringSubmatch(lines.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case url, ok := <-found:
		if !ok {
			s.Close()
			return nil, fmt.Errorf("%s serve exited without listening", tool)
		}
		s.base = url
	case <-time.After(clientTimeout):
		s.Close()
		return nil, fmt.Errorf("%s serve did not listen within %s", tool, clientTimeout)
	}
	return s, nil
}

// Close stops the server and removes its sandbox.
func (s *Server) Close() {
	if s.cmd != nil {
		killProcessGroup(s.cmd)
		s.cmd.Wait()
	}
	cleanup(s.proj)
}

// get reads a JSON answer of the server about the project.
func (s *Server) get(path string, v any) error {
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+path+"?directory="+url.QueryEscape(s.proj), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return refusal{why: s.serverRefusal(string(body))}
	}
	return json.Unmarshal(body, v)
}

// refusal is the server's refusal of the project: a file it rejects.
type refusal struct{ why string }

func (r refusal) Error() string { return r.why }

// Refused says whether err is the client refusing the project, and why.
func Refused(err error) (string, bool) {
	r, ok := err.(refusal)
	return r.why, ok
}

// serverRefusal reads why the server refused the project: the file it
// rejects (its path in the project) and why.
func (s *Server) serverRefusal(body string) string {
	var e struct {
		Name string `json:"name"`
		Data struct {
			Path    string `json:"path"`
			Message string `json:"message"`
			Issues  []struct {
				Path    []any  `json:"path"`
				Message string `json:"message"`
			} `json:"issues"`
		} `json:"data"`
	}
	if json.Unmarshal([]byte(body), &e) != nil || e.Name == "" {
		return strings.TrimSpace(body)
	}
	var why []string
	for _, i := range e.Data.Issues {
		var at []string
		for _, p := range i.Path {
			at = append(at, fmt.Sprint(p))
		}
		why = append(why, strings.Join(at, ".")+": "+i.Message)
	}
	if len(why) == 0 {
		why = append(why, e.Data.Message)
	}
	where := e.Data.Path
	if rel, err := filepath.Rel(s.proj, where); err == nil && !strings.HasPrefix(rel, "..") {
		where = filepath.ToSlash(rel)
	}
	return fmt.Sprintf("%s: %s (%s)", where, strings.Join(why, "; "), e.Name)
}

// Agents are the agents the server loaded from the project, by name,
// with the rules it resolved for each.
func (s *Server) Agents() (map[string][]openCodeRule, error) {
	var list []struct {
		Name       string         `json:"name"`
		Permission []openCodeRule `json:"permission"`
	}
	if err := s.get("/agent", &list); err != nil {
		return nil, err
	}
	out := map[string][]openCodeRule{}
	for _, a := range list {
		out[a.Name] = a.Permission
	}
	return out, nil
}

// ToolIDs are the tools of the server's registry an agent may be offered
// with the model the probes name: apply_patch is offered in place of edit
// and write to GPT models alone (opencode debug agent leaves it out too).
func (s *Server) ToolIDs() ([]string, error) {
	var ids []string
	err := s.get("/experimental/tool/ids", &ids)
	return slices.DeleteFunc(ids, func(id string) bool { return id == "apply_patch" }), err
}

// Observe is what the server grants one of its agents, as its rules say
// (judgeRules), with the run's uses.
func (s *Server) Observe(r Run, ids []string, rules []openCodeRule) Observation {
	return judgeRules(r, ids, rules)
}

// sandboxFiles makes a temporary home and a project holding files, and
// returns the environment builder every client gets (see sandbox).
func sandboxFiles(files map[string]string) (home, proj string, env func(home string) []string, err error) {
	root, err := os.MkdirTemp("", "bn-probe-")
	if err != nil {
		return "", "", nil, err
	}
	home, proj = filepath.Join(root, "home"), filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		return "", "", nil, err
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	})
	for _, rel := range names {
		if err := writeFile(filepath.Join(proj, filepath.FromSlash(rel)), files[rel]); err != nil {
			return "", "", nil, err
		}
	}
	return home, proj, baseEnv, nil
}
