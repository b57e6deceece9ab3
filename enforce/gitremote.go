package enforce

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// gitRemoteSubs are the subcommands that reach another repository.
// Their options are read with their tables (gitOptionTables), which say
// which take a value, so that a value is not read as the repository, nor
// the repository as a value.
var gitRemoteSubs = []string{"push", "fetch", "pull", "ls-remote", "clone", "archive", "request-pull", "remote", "submodule"}

// gitRemoteServers say what git runs in the repository a subcommand
// reaches.
var gitRemoteServers = map[string]string{"push": "receive-pack", "archive": "upload-archive"}

// gitNetworkSchemes are the URL schemes of git's own network
// transports; for any other, git runs git-remote-SCHEME from PATH.
var gitNetworkSchemes = []string{"http", "https", "ssh", "git", "git+ssh", "ssh+git", "ftp", "ftps"}

// gitRemoteRefused refuses, under patterns, a subcommand that reaches a
// repository named by a local path or a file:// URL (git push PATH,
// fetch, pull, ls-remote, clone, archive --remote, request-pull,
// submodule add, and remote add or set-url, which later pushes and
// fetches reach): git runs upload-pack, receive-pack or upload-archive
// in it, with that repository's configuration, which names programs they
// run (core.alternateRefsCommand, tar.NAME.command, its hooks), and the
// agent may have written it. Only a configured remote's name or a
// network URL passes. false when it refused.
func gitRemoteRefused(w *walker, c call, sub string, rest []word) bool {
	if !slices.Contains(gitRemoteSubs, sub) {
		return true
	}
	fs, ops, _ := gitOpts(gitTable(sub), rest)
	var repos []word
	first := func(i int) {
		if len(ops) > i {
			repos = append(repos, ops[i])
		}
	}
	op := func(i int) string {
		if len(ops) > i {
			return ops[i].value()
		}
		return ""
	}
	multiple := false
	for _, f := range fs {
		switch {
		case f.o.long == "multiple" || sub == "fetch" && f.o.short == 'm': // the table lists -m apart from --multiple
			multiple = true
		case (f.o.long == "repo" || f.o.long == "remote") && f.has:
			repos = append(repos, f.value)
		}
	}
	switch sub {
	case "push", "pull", "ls-remote", "clone":
		first(0)
	case "fetch":
		if multiple {
			repos = append(repos, ops...)
		} else {
			first(0)
		}
	case "request-pull":
		first(1)
	case "remote":
		if op(0) == "add" || op(0) == "set-url" {
			first(2)
		}
	case "submodule":
		switch op(0) {
		case "add":
			first(1)
		case "update", "init", "sync", "set-url":
			// .gitmodules names the URLs they clone and fetch from.
			if name, _ := w.e.gitPlantable(w.e.ctx.Root, []string{".gitmodules"}); name != "" {
				w.refuse(refused(c.text, "git submodule %s clones and fetches from the URLs .gitmodules names, a file the agent may write, and a local path there is a repository whose configuration git follows (upload-pack runs in it); bn refuses it under patterns where the agent may write .gitmodules", op(0)))
				return false
			}
		}
	}
	server := gitRemoteServers[sub]
	if server == "" {
		server = "upload-pack"
	}
	for _, r := range repos {
		why := w.e.gitRemoteLocal(c.d, r)
		if why == "" {
			continue
		}
		w.refuse(refused(c.text, "%s %s %s: git runs %s in that repository, with its configuration, which names programs git runs (core.alternateRefsCommand, tar.NAME.command, its hooks), and the agent may have written it; bn refuses under patterns a repository that is not a configured remote or a network URL (https://, ssh://, host:path); use a configured remote (git remote -v)", c.name, r.src, why, server))
		return false
	}
	return true
}

// gitRemoteLocal says why a word naming a repository, for git run in
// d, is not a configured remote's name or a network URL ("" when it is
// one). A name no remote has is a path to git: refused where the agent
// may make a repository there.
func (e *engine) gitRemoteLocal(d dirs, r word) string {
	if !r.static() {
		return "is not known before the line runs, and may be a local path"
	}
	v := r.value()
	if scheme, _, ok := strings.Cut(v, "://"); ok && !strings.ContainsAny(scheme, "/:") {
		if slices.Contains(gitNetworkSchemes, strings.ToLower(scheme)) {
			return ""
		}
		if strings.EqualFold(scheme, "file") {
			return "is a file:// URL, a local repository"
		}
		return fmt.Sprintf("is a URL of the scheme %s, for which git runs the remote helper git-remote-%s from PATH", scheme, scheme)
	}
	colon, slash := strings.IndexByte(v, ':'), strings.IndexAny(v, `/\`)
	switch {
	case strings.Contains(v, "::"):
		return "names a remote helper (TRANSPORT::ADDRESS), which git runs from PATH"
	case colon > 1 && (slash < 0 || colon < slash):
		return "" // host:path, an ssh URL
	case colon >= 0 || slash >= 0 || v == "." || v == ".." || strings.HasPrefix(v, "~") || v == "":
		return "is a local path"
	}
	if _, common := projectGitDirs(e.rootResolved()); common != "" {
		if url, _ := configLast(filepath.Join(common, "config"), "remote", v, "url"); url != "" {
			return ""
		}
	}
	for _, dir := range d.at {
		if dir == "" {
			return "names no remote the repository's configuration sets (remote." + v + ".url), so git takes it for a path, relative to a directory bn cannot follow"
		}
		for _, name := range []string{v, v + ".git"} {
			if entry, dec := e.gitPlantable(filepath.Join(dir, name), gitEntries); entry != "" {
				if dec.Rule != "" {
					entry += fmt.Sprintf(" (allow %q)", dec.Rule)
				}
				return "names no remote the repository's configuration sets (remote." + v + ".url), so git takes it for a path, where the agent may make a repository: it may create or change " + filepath.ToSlash(filepath.Join(name, entry))
			}
		}
	}
	return ""
}
