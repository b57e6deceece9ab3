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
		{"tar --checkpoint-action=execx -cf a src", false, `tar --checkpoint-action runs the command after "exec", which bn reads only written as exec=CMD`},
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

// A line of redirections alone runs, in zsh, $NULLCMD (cat) or, for a
// single reading one, $READNULLCMD (more): held to the deny rules as
// those commands. A reading redirection of a denied file is a read.
func TestNullCommandDenies(t *testing.T) {
	root, home := repo(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), nil, 0o644))
	ctx := Context{Root: root, Home: home}
	runShell(t, agents.Tools{All: true, Deny: []string{"shell(cat:*)"}}, ctx, []shellCase{
		{"< src/a.go", false, `< src/a.go has redirections and no command, for which zsh runs cat: deny rule "shell(cat:*)"`},
		{"> src/x", false, "for which zsh runs cat"},
		{"< src/a.go > src/x", false, "for which zsh runs cat"},
		{"ls; >> src/x", false, "for which zsh runs cat"},
		{": > src/x", true, ""},
		{"ls < src/a.go", true, ""},
	})
	runShell(t, agents.Tools{All: true, Deny: []string{"shell(more:*)"}}, ctx, []shellCase{
		{"< src/a.go", false, "for which zsh runs more"},
		{"> src/x", true, ""},
	})
	runShell(t, agents.Tools{All: true, Deny: []string{"shell(rm:*)", "read(.env)"}}, ctx, []shellCase{
		{"< .env", false, `the redirection < .env reads .env: deny rule "read(.env)"`},
		{"< src/a.go", true, ""},
	})
	runShell(t, agents.Tools{All: true, Deny: []string{"read(.env)"}}, ctx, []shellCase{
		{"< .env", false, `the redirection < .env reads .env: deny rule "read(.env)"`},
	})
}

// A list of names read from a file hands a reader names the line does
// not hold: refused beside a deny of reading, as tar -T is. xargs fed
// by a pipe reads a command's output, which stays advisory.
func TestListedReads(t *testing.T) {
	root, home := repo(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), nil, 0o644))
	ctx := Context{Root: root, Home: home}
	const why = "which bn cannot check against the deny rules of reading; name the files in the line"
	open := agents.Tools{All: true, Deny: []string{"shell(rm:*)", "read(.env)"}}
	limited := agents.Tools{Allow: []string{"read", "shell(xargs:*)", "shell(cat:*)", "shell(grep:*)", "shell(wc:*)", "shell(du:*)", "shell(md5sum:*)", "shell(sha256sum:*)", "shell(git ls-files:*)"},
		Deny: []string{"read(.env)"}}
	for _, tools := range []agents.Tools{open, limited} {
		runShell(t, tools, ctx, []shellCase{
			{"xargs cat < list", false, "xargs cat: xargs hands its command the names its input lists, read from list, " + why},
			{"xargs -0 grep -l x < src/list", false, "read from src/list"},
			{"xargs -a list cat", false, "xargs -a list cat: xargs -a hands its command the names a file lists, " + why},
			{"xargs --arg-file=list cat", false, "xargs --arg-file hands its command the names a file lists"},
			{"wc -l --files0-from=list", false, "wc --files0-from reads the files a list names, " + why},
			{"du -s --files0-from list", false, "du --files0-from reads the files a list names"},
			{"md5sum -c sums.md5", false, "md5sum -c reads the files its list of sums names, " + why},
			{"sha256sum --check sums", false, "sha256sum --check reads the files its list of sums names"},
			{"sha256sum -c < sums", false, "sha256sum -c reads the files its list of sums names"},
			// names written in the line, in a here-string or here-document
			{"xargs cat <<< .env", false, "xargs cat names .env, which the agent may not read"},
			{"xargs -n1 cat <<< 'src/a.go .env'", false, "names .env, which the agent may not read"},
			{"xargs cat <<EOF\n.env\nEOF", false, "names .env, which the agent may not read"},
			{"xargs cat <<< '\".env\"'", false, "xargs cat: xargs hands its command the names its here-string or here-document lists, which bn cannot split as xargs does"},
			{"xargs -d, cat <<< '.env,x'", false, "which bn cannot split as xargs does"},
			{"xargs -I{} cat .{} <<< env", false, "which bn cannot split as xargs does"},
			{"xargs cat <<< \"$f\"", false, "which bn cannot split as xargs does"},
			{"xargs cat <<< src/a.go", true, ""},
			// ordinary lines
			{"git ls-files | xargs grep x", true, ""},
			{"cat list | xargs cat", true, ""},
			{"xargs -r cat < /dev/null", true, ""},
			{"xargs -n1 echo <<< 'a b'", tools.All, ""},
			{"wc -l src/a.go", true, ""},
			{"du -sh src", true, ""},
			{"sha256sum src/a.go > sums", tools.All, ""},
		})
	}
	// With no deny of reading, lists are read as any other input.
	runShell(t, agents.Tools{All: true, Deny: []string{"shell(rm:*)"}}, ctx, []shellCase{
		{"xargs cat < list", true, ""},
		{"md5sum -c sums.md5", true, ""},
	})
	// Readers of lists bn knows no options of: under a shell allowed whole.
	runShell(t, open, ctx, []shellCase{
		{"shasum -a 256 -c sums", false, "shasum -c reads the files its list of sums names, " + why},
		{"sha384sum --ch sums", false, "sha384sum --ch reads the files its list of sums names"},
		{"parallel cat :::: list", false, "parallel :::: hands its command the names the files after it list, " + why},
		{"find -files0-from list -exec cat {} +", false, "find -files0-from hands -exec the files a list names, " + why},
		// ordinary lines
		{"shasum -a 256 src/a.go", true, ""},
		{"parallel wc -l ::: src/a.go", true, ""},
		{"find -files0-from list -print", true, ""},
	})
}
