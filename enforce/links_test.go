package enforce

import (
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A command that copies, moves or unpacks files that may be symlinks
// brings links bn has not resolved into the tree: every other write of
// its line is unplaced (Linked, LinkIn), under any shell that records
// writes; its own writes, and a line without it, stay placed.
func TestBringsLinks(t *testing.T) {
	root, home := repo(t)
	ctx := Context{Root: root, Home: home}
	for _, tools := range []agents.Tools{{All: true}, {Allow: []string{"shell", "read", "write"}}} {
		for _, tt := range []struct {
			line, brings string // brings: the command named, "" for none
		}{
			{"cp -a /tmp/evil/. src/ && echo x > out/w", "cp -a /tmp/evil/. src/"},
			{"cp -r /tmp/evil src; echo x > out/w", "cp -r /tmp/evil src"},
			{"cp -R /tmp/evil src; echo x > out/w", "cp -R /tmp/evil src"},
			{"cp -rP /tmp/evil src; echo x > out/w", "cp -rP /tmp/evil src"},
			{"cp -d /tmp/l src/l; echo x > out/w", "cp -d /tmp/l src/l"},
			{"cp --archive /tmp/l src/l; echo x > out/w", "cp --archive /tmp/l src/l"},
			{"cp --no-dereference /tmp/l src/l; echo x > out/w", "cp --no-dereference /tmp/l src/l"},
			{"cp --preserve=mode,links /tmp/l src/l; echo x > out/w", "cp --preserve=mode,links /tmp/l src/l"},
			{"rsync -a /tmp/evil/ src/ ; echo x > out/w", "rsync -a /tmp/evil/ src/"},
			{"rsync -rl /tmp/evil/ src/ ; echo x > out/w", "rsync -rl /tmp/evil/ src/"},
			{"rsync --archive /tmp/evil/ src/ ; echo x > out/w", "rsync --archive /tmp/evil/ src/"},
			{"rsync -r --links /tmp/evil/ src/ ; echo x > out/w", "rsync -r --links /tmp/evil/ src/"},
			{"mv /tmp/evil/link src/link && echo x >> out/w", "mv /tmp/evil/link src/link"},
			{"tar xf evil.tar -C src && printf x > out/w", "tar xf evil.tar -C src"},
			{"bsdtar -xf evil.tar -C src && echo x > out/w", "bsdtar -xf evil.tar -C src"},
			{"unzip evil.zip -d src && echo x > out/w", "unzip evil.zip -d src"},
			{"cpio -i --no-absolute-filenames -D src < e.cpio && echo x > out/w", "cpio -i --no-absolute-filenames -D src"},
			{"7z x evil.7z -osrc && echo x > out/w", "7z x evil.7z -osrc"},
			{"patch -d src -p1 -i p.diff && echo x > out/w", "patch -d src -p1 -i p.diff"},
			{"git checkout other -- src && echo x > out/w", "git checkout other -- src"},
			{"git restore src && echo x > out/w", "git restore src"},
			{"git mv src/a.go src/b.go && echo x > out/w", "git mv src/a.go src/b.go"},
			{"git clone /tmp/evil x && echo x > out/w", "git clone /tmp/evil x"},
			{"git checkout main && echo x > out/w", "git checkout main"},
			{"git stash pop && echo x > out/w", "git stash pop"},
			{"git reset --hard HEAD~1 && echo x > out/w", "git reset --hard HEAD~1"},
			{"git pull; echo x > out/w", "git pull"},
			{"echo x > out/w & git checkout other -- src", "git checkout other -- src"},
			{"git checkout other -- src | tee out/w", "git checkout other -- src"},
			{"env tar -xf evil.tar -C src && echo x > out/w", "tar -xf evil.tar -C src"},
			// Nothing brought in.
			{"cp src/a.go src/b.go && echo x > out/w", ""},
			{"cp -rL /tmp/evil src && echo x > out/w", ""},
			{"rsync -r /tmp/evil/ src/ && echo x > out/w", ""},
			{"rsync -aL /tmp/evil/ src/ && echo x > out/w", ""},
			{"git checkout -b topic && echo x > out/w", ""},
			{"git restore --staged src && echo x > out/w", ""},
			{"git rm src/a.go && echo x > out/w", ""},
			{"tar tf a.tar && echo x > out/w", ""},
			{"tar cf out/a.tar src && echo x > out/w", ""},
		} {
			d := Decide(tools, shellUse(tt.line), ctx)
			if !assert.True(t, d.Allowed, "%v: %q: %s", tools, tt.line, d.Reason) {
				continue
			}
			var w *Access
			for i, a := range d.Accesses {
				if a.Path == "out/w" {
					w = &d.Accesses[i]
				}
			}
			if !assert.NotNil(t, w, "%q: %v", tt.line, d.Accesses) {
				continue
			}
			assert.Equal(t, tt.brings, w.Linked, "%q", tt.line)
			assert.Equal(t, tt.brings != "", w.LinkIn, "%q", tt.line)
			if tt.brings != "" {
				assert.Empty(t, w.Resolved, "%q", tt.line)
				assert.NotEmpty(t, w.ResolvedNow, "%q", tt.line)
				assert.Contains(t, w.Unknown, "the line may bring a link in ("+tt.brings+")", "%q", tt.line)
			}
		}
	}
	// The command alone: its own writes stay placed (find's removal of
	// what mv moves is mv's own).
	for _, line := range []string{"cp -a /tmp/evil/. src/", "mv src/a.go src/b.go", "git restore src", "cd src && tar xf ../a.tar", `find src -name x -exec mv {} out \;`} {
		d := Decide(agents.Tools{All: true}, shellUse(line), ctx)
		require.True(t, d.Allowed, d.Reason)
		for _, a := range d.Accesses {
			assert.Empty(t, a.Linked, "%q: %v", line, a)
		}
	}
}
