package enforce

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/require"
)

// The programs tar, cpio and pandoc run through their options are
// decided as lines (tar -I CMD, --to-command: sh -c) or as commands
// (--rsh-command, pandoc --filter) under a shell allowed whole; what bn
// cannot read is refused beside deny rules. Under patterns each is
// refused, in tar's old style too (tar cIf CMD A).
func TestOptionsRun(t *testing.T) {
	root, home := repo(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), nil, 0o644))
	ctx := Context{Root: root, Home: home}
	open := agents.Tools{All: true, Deny: []string{"shell(rm:*)", "read(.env)"}}
	runShell(t, open, ctx, []shellCase{
		{"tar --use-compress-program='rm x' -cf a src", false, `command "rm x": deny rule "shell(rm:*)"`},
		{"tar -I 'rm x' -cf a src", false, `command "rm x": deny rule`},
		{"tar cIf 'rm x' a src", false, `command "rm x": deny rule`},
		{"tar --to-command='ls; rm x' -xf a", false, `command "rm x": deny rule`},
		{"tar --to-command='cat .env' -xf a", false, "cat .env names .env, which the agent may not read"},
		{"tar --info-script='rm x' -cf a src", false, `command "rm x": deny rule`},
		{"tar -F 'rm x' -cf a src", false, `command "rm x": deny rule`},
		{"tar --new-volume-script='rm x' -cf a src", false, `command "rm x": deny rule`},
		{"tar --checkpoint-action=exec='rm x' -cf a src", false, `command "rm x": deny rule`},
		{"tar --checkpoint-action='exec=\"rm x\"' -cf a src", false, `command "rm x": deny rule`},
		{`tar --checkpoint-action='exec=r\m x' -cf a src`, false, "tar --checkpoint-action runs a command bn does not read (tar unquotes it and reads its backslash escapes)"},
		{`tar -I "$c" -cf a src`, false, `tar -I runs a command not known before the line runs, which the deny rules (shell(rm:*)) could refuse; write it out`},
		{"tar --rsh-command=rm -cf a src", false, `command "rm": deny rule`},
		{"tar -cf host:a src", false, "tar may reach an archive on another host by running rsh (or --rsh-command's program), which runs commands there that bn cannot check against the deny rules (shell(rm:*)); give the archive as ./FILE, or add --force-local"},
		{"tar --rmt-command=/usr/sbin/rmt -cf host:a src", false, "tar may reach an archive on another host"},
		{"cpio -i -F host:a", false, "cpio -F host:a may name an archive on another host, which cpio reaches by running rsh"},
		{"cpio -i --rsh-command=rm -F a", false, `command "rm": deny rule`},
		{"pandoc --filter rm x.md", false, `command "rm": deny rule`},
		{"pandoc -F rm x.md", false, `command "rm": deny rule`},
		{"pandoc -d d.yaml x.md", false, "pandoc -d reads a defaults file, which can name the files pandoc reads, which bn cannot check against the deny rules of reading"},
		// ordinary lines
		{"tar -I zstd -cf a.tar.zst src", true, ""},
		{"tar --use-compress-program='zstd -19' -cf a src", true, ""},
		{"tar --checkpoint=1000 --checkpoint-action=dot -cf a src", true, ""},
		{"tar czf a.tgz src", true, ""},
		{"tar -xzf a.tgz", true, ""},
		{"tar -cf ./host:a src", true, ""},
		{"tar --force-local -cf host:a src", true, ""},
		{"cpio -i -F a.cpio", true, ""},
		{"pandoc --lua-filter f.lua -o out.html x.md", true, ""},
		{"pandoc --filter pandoc-crossref -o out.pdf x.md", true, ""},
	})
	// A deny of the shell alone: a defaults file names filters bn does
	// not read.
	runShell(t, agents.Tools{All: true, Deny: []string{"shell(rm:*)"}}, ctx, []shellCase{
		{"pandoc --defaults=d.yaml x.md", false, "pandoc --defaults reads a defaults file, whose filters are programs pandoc runs, which bn does not read, so it cannot check them against the deny rules (shell(rm:*)); give their options on the line"},
		{`pandoc -F "$f" x.md`, false, "pandoc -F runs a command not known before the line runs"},
	})
	// With no deny of the shell, nothing is held but the files.
	runShell(t, agents.Tools{All: true}, ctx, []shellCase{
		{`tar -I "$c" -cf a src`, true, ""},
		{"pandoc -d d.yaml x.md", true, ""},
	})
	limited := agents.Tools{Allow: []string{"read", "write", "shell(tar:*)", "shell(cpio:*)"}}
	runShell(t, limited, ctx, []shellCase{
		{"tar cIf zstd a src", false, "tar -I runs a program to compress; bn refuses it under patterns"},
		{"tar --checkpoint-action=exec=ls -cf a src", false, "tar --checkpoint-action=exec=ls runs a command at checkpoints; bn refuses it under patterns"},
		{"tar cf a.tar --to-command=ls src", false, "runs a program for every file"},
		{"tar --rmt-command=/usr/sbin/rmt -cf a src", false, "tar --rmt-command=/usr/sbin/rmt runs a program to reach a remote archive"},
		{"cpio -i --rsh-command=ssh -F a", false, "names the program cpio runs to reach a remote archive"},
		{"tar --checkpoint=1000 --checkpoint-action=dot -cf a src", true, ""},
		{"tar czf a.tgz src", true, ""},
	})
}
