package embedded

import (
	"embed"
	"io/fs"
)

//go:embed agents
var files embed.FS

// Agents returns the built-in agent layer: agents/config.kdl and the prompt
// files it names, rooted at the agents directory.
func Agents() fs.FS {
	sub, err := fs.Sub(files, "agents")
	if err != nil {
		panic(err) // the directory is compiled in; this cannot fail
	}
	return sub
}

//go:embed scaffold.kdl
var scaffold []byte

// Scaffold is the commented config.kdl that `bn config agents init` writes.
func Scaffold() []byte { return scaffold }
