package enforce

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// maxGitFile bounds what bn reads of .git and the repository's
// configuration: the hook reads them on its hot path, once a git
// command writes.
const maxGitFile = 64 << 10

// gitStart says why git, as the line starts, takes a working tree or a
// repository other than the project's: a variable of the starting
// environment, or core.worktree in the repository's configuration; ""
// when neither does. Found once per decision, when a git command writes
// files of the working tree.
func (e *engine) gitStart() string {
	if e.gitStartWhy == nil {
		why := gitStartWhy(e.ctx)
		e.gitStartWhy = &why
	}
	return *e.gitStartWhy
}

func gitStartWhy(ctx Context) string {
	root := Resolve(ctx.Root)
	gitDir, common := projectGitDirs(root)
	if ctx.Getenv != nil {
		// The variables that move git's working tree or repository move
		// them for every git command the line runs when the environment
		// the decision starts from (Context.Getenv: the hook's, which the
		// agent's client passes on to the commands it runs) sets them.
		for _, v := range gitPlaceVariables {
			if v.what == "" {
				continue
			}
			val := ctx.Getenv(v.name)
			if val == "" {
				continue
			}
			p := val
			if !filepath.IsAbs(p) {
				p = filepath.Join(ctx.Dir, p)
			}
			want := map[string]string{"GIT_WORK_TREE": root, "GIT_DIR": gitDir, "GIT_COMMON_DIR": common}[v.name]
			if want == "" || !samePlace(Resolve(p), want) {
				return fmt.Sprintf("%s=%s is set in the environment bn's hook started with, which the agent's client passes on to the commands it runs, so git takes a %s other than the project's (%s); unset %s where the agent's client starts, and start it from the project",
					v.name, val, v.what, root, v.name)
			}
		}
	}
	if gitDir == "" {
		return ""
	}
	for _, cfg := range []string{filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree")} {
		val, why := configWorktree(cfg)
		if why != "" {
			return fmt.Sprintf("the repository's configuration (%s) %s, which may set core.worktree and take git's working tree away from the project; bn does not follow it: remove it, or name the files (git show REV:FILE > FILE)", cfg, why)
		}
		if val == "" {
			continue
		}
		p := val
		if !filepath.IsAbs(p) {
			p = filepath.Join(gitDir, p) // relative to the repository, as git reads it
		}
		if !samePlace(Resolve(p), root) {
			return fmt.Sprintf("the repository's configuration (%s) sets core.worktree = %s, so git takes a working tree other than the project's (%s); unset it (git config --unset core.worktree) and start the agent from the project", cfg, val, root)
		}
	}
	return ""
}

// projectGitDirs are the project's repository (its .git, or the
// directory a .git file names, as a worktree's does) and the directory
// it shares with the repository it belongs to (commondir); "" when the
// project has none bn can read.
func projectGitDirs(root string) (gitDir, common string) {
	dotGit := filepath.Join(root, ".git")
	fi, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return "", ""
	case fi.IsDir():
		return dotGit, dotGit
	}
	data, err := readBounded(dotGit)
	rest, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if err != nil || !ok {
		return "", ""
	}
	gitDir = strings.TrimSpace(rest)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(root, gitDir)
	}
	gitDir = Resolve(gitDir)
	common = gitDir
	if data, err := readBounded(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		common = Resolve(common)
	}
	return gitDir, common
}

// readBounded reads at most maxGitFile bytes of a file, failing when it
// holds more.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxGitFile+1))
	if err == nil && len(data) > maxGitFile {
		err = fmt.Errorf("%s holds more than %d bytes", path, maxGitFile)
	}
	return data, err
}

// configWorktree is the last core.worktree a git configuration file
// sets ("" when it sets none, or does not exist); why says why bn
// cannot tell (an include, a file too long to read), "" when it can.
func configWorktree(path string) (value, why string) {
	return configLast(path, "core", "", "worktree")
}

// OriginURL is the URL of the project's remote origin (remote.origin.url
// in its repository's configuration); "" when the project has no
// repository, or its configuration sets none bn can read.
func OriginURL(root string) string {
	_, common := projectGitDirs(Resolve(root))
	if common == "" {
		return ""
	}
	url, _ := configLast(filepath.Join(common, "config"), "remote", "origin", "url")
	return url
}

// configLast is the last value a git configuration file sets for key in
// [section "sub"] (sub "" for [section]); "" when it sets none, or does
// not exist. why says why bn cannot tell (an include, a file too long to
// read), "" when it can.
func configLast(path, section, sub, key string) (value, why string) {
	data, err := readBounded(path)
	switch {
	case os.IsNotExist(err):
		return "", ""
	case err != nil:
		return "", fmt.Sprintf("cannot be read (%v)", err)
	}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxGitFile+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return "", "holds a section bn cannot read (" + line + ")"
			}
			head := strings.TrimSpace(line[1:end])
			name, quoted, _ := strings.Cut(head, " ")
			name = strings.ToLower(name)
			if name == "include" || name == "includeif" {
				return "", "includes other files ([" + head + "])"
			}
			// [core "x"] is core.x's, not core's; a subsection's name
			// is case-sensitive.
			in = name == section && strings.Trim(strings.TrimSpace(quoted), `"`) == sub
			line = strings.TrimSpace(line[end+1:])
		}
		if !in || line == "" {
			continue
		}
		k, val, _ := strings.Cut(line, "=")
		if !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		value = configValue(strings.TrimSpace(val))
	}
	return value, ""
}

// configValue is a git configuration value as git reads it: quotes
// removed, escapes applied, a comment after it left out.
func configValue(s string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(s):
			i++
			if u, err := strconv.Unquote(`"\` + string(s[i]) + `"`); err == nil {
				b.WriteString(u)
			} else {
				b.WriteByte(s[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// samePlace says whether two clean absolute paths name one place,
// without case where the file system ignores it.
func samePlace(a, b string) bool {
	if FoldsCase(runtime.GOOS) {
		return strings.EqualFold(a, b)
	}
	return a == b
}
