package clientbin

import (
	"os"
	"os/exec"
	"path/filepath"
)

// commands are the clients' commands where they are not the tool's name.
var commands = map[string]string{"claude-plugin": "claude"}

// Find looks for a client's command in dir (or its node_modules/.bin, as
// npm installs it there) when dir is given, else on PATH; client is the
// tool bn names.
func Find(dir, client string) (string, bool) {
	if c, ok := commands[client]; ok {
		client = c
	}
	if dir != "" {
		for _, p := range []string{filepath.Join(dir, client), filepath.Join(dir, "node_modules", ".bin", client)} {
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p, true
			}
		}
		return "", false
	}
	p, err := exec.LookPath(client)
	return p, err == nil
}
