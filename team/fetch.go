package team

import (
	"archive/tar"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
)

// Declared is a source as one config.kdl declares it.
type Declared struct {
	agents.SourceSpec
	// ConfigDir is the directory of the config.kdl naming it: the lock
	// file goes there, and a relative local URL is resolved from there.
	ConfigDir string
}

// FetchOptions say what to fetch.
type FetchOptions struct {
	Sources  []Declared
	CacheDir string
	// Check writes nothing: it reports sources whose ref now names
	// another commit than the lock, or that were never fetched.
	Check bool
	// Timeout bounds each git command (0: two minutes).
	Timeout time.Duration
	// LockWait is how long to wait for another bn fetching into the
	// cache (0: files.LockWait).
	LockWait time.Duration
}

// Fetched is what fetch did for one source.
type Fetched struct {
	Name   string `json:"name"`
	Lock   string `json:"lock"`
	URL    string `json:"url"`
	Ref    string `json:"ref"`
	Commit string `json:"commit"`
	Hash   string `json:"hash"`
	// Action: "locked" (new), "updated" (the ref moved), "unchanged",
	// or with Check "out of date".
	Action string `json:"action"`
	Was    string `json:"was,omitempty"` // the commit the lock held
}

// Fetch resolves every source, fills the cache and writes the lock files.
// A source that fails leaves its cache entry and every lock file as they
// were: locks are written only when every source fetched.
func Fetch(opts FetchOptions) ([]Fetched, error) {
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Minute
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("bn config agents fetch needs git, which is not on PATH; install it")
	}
	unlock, err := lockCache(opts.CacheDir, cmp.Or(opts.LockWait, files.LockWait))
	if err != nil {
		return nil, err
	}
	defer unlock()
	var out []Fetched
	old := map[string]Lock{}    // lock path -> as it is
	locks := map[string]*Lock{} // lock path -> as fetch writes it
	var order []string
	for _, d := range opts.Sources {
		lockPath := filepath.Join(d.ConfigDir, LockFile)
		if _, ok := locks[lockPath]; !ok {
			l, err := ReadLock(lockPath)
			if err != nil && opts.Check {
				return nil, err
			}
			old[lockPath], locks[lockPath] = l, &Lock{} // a broken lock is written again whole
			order = append(order, lockPath)
		}
		commit, err := resolve(opts, d)
		if err != nil {
			return nil, err
		}
		f := Fetched{Name: d.Name, Lock: lockPath, URL: d.URL, Ref: d.Ref, Commit: commit, Action: "locked"}
		prev, known := old[lockPath].Find(d.Name)
		if known && prev.Matches(d.SourceSpec) {
			f.Action, f.Was = "unchanged", prev.Commit
			if prev.Commit != commit {
				f.Action = "updated"
			}
		}
		if opts.Check {
			if f.Action != "unchanged" {
				f.Action = "out of date"
			}
			out = append(out, f)
			continue
		}
		// The same commit, cached as the lock says: nothing to extract.
		if f.Action != "unchanged" || Verify(opts.CacheDir, prev) != nil {
			if err := extract(opts, d, commit); err != nil {
				return nil, err
			}
		}
		f.Hash, err = HashDir(LayerDir(opts.CacheDir, Locked{Commit: commit, Path: d.Path}))
		if err != nil {
			return nil, fmt.Errorf("source %q: %w", d.Name, err)
		}
		locks[lockPath].Sources = append(locks[lockPath].Sources, Locked{Name: d.Name, URL: d.URL, Ref: d.Ref, Path: d.Path, Commit: commit, Hash: f.Hash})
		out = append(out, f)
	}
	if opts.Check {
		return out, nil
	}
	// Every lock file, or none.
	changes := make([]emit.Change, len(order))
	for i, p := range order {
		changes[i] = emit.Change{Path: p, Content: locks[p].Format(), Perm: 0o644}
	}
	return out, emit.ApplyAll(changes)
}

// lockCache serialises fetches into the cache with other bn processes:
// two at once would init one mirror, fetch into it and swap one tree
// side by side.
func lockCache(cacheDir string, wait time.Duration) (func(), error) {
	// The lock is named after the place with its links resolved, which
	// needs the place to exist: the first fetch would otherwise lock
	// another name than one started after it made the directory.
	sources := filepath.Join(cacheDir, "sources")
	if err := os.MkdirAll(sources, 0o755); err != nil {
		return nil, err
	}
	return files.Lock(cacheDir, sources, wait)
}

// mirror is the bare repository the cache keeps for a URL (relative local
// paths resolved, so two projects' "../team" are two mirrors).
func mirror(cacheDir, url string) string {
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(cacheDir, "sources", "git", hex.EncodeToString(sum[:8])+".git")
}

// gitURL resolves a relative local path from the declaring file.
func gitURL(d Declared) string {
	u := d.URL
	if strings.Contains(u, "://") || strings.Contains(u, "@") && strings.Contains(u, ":") || filepath.IsAbs(u) {
		return u
	}
	return filepath.Join(d.ConfigDir, u)
}

func git(opts FetchOptions, dir string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := gitTo(opts, dir, &out, args...)
	return out.Bytes(), err
}

// gitTo runs git in dir with its output going to w, as it comes.
func gitTo(opts FetchOptions, dir string, w io.Writer, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	// No prompts for credentials, no user or system config surprises.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if ctx.Err() != nil {
			msg = "timed out"
		} else if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("git %s: %s", args[0], firstLine(msg))
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// resolve fetches the source's repository into its mirror and returns
// the commit its ref names now.
func resolve(opts FetchOptions, d Declared) (string, error) {
	m := mirror(opts.CacheDir, gitURL(d))
	if _, err := os.Stat(filepath.Join(m, "HEAD")); err != nil {
		if err := os.MkdirAll(m, 0o755); err != nil {
			return "", err
		}
		if _, err := git(opts, m, "init", "--bare", "--quiet"); err != nil {
			return "", fmt.Errorf("source %q: %w", d.Name, err)
		}
	}
	if _, err := git(opts, m, "fetch", "--quiet", "--force", "--prune", "--no-recurse-submodules", "--", gitURL(d),
		"+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"); err != nil {
		return "", fmt.Errorf("source %q: cannot fetch %s: %w", d.Name, d.URL, err)
	}
	out, err := git(opts, m, "rev-parse", "--verify", "--quiet", "--end-of-options", d.Ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("source %q: %s has no branch, tag or commit %q", d.Name, d.URL, d.Ref)
	}
	return strings.TrimSpace(string(out)), nil
}

// extract writes the commit's files under the source's path into the
// cache, through a temporary directory that replaces the cached tree
// whole, so a failure leaves the cache as it was and a tampered tree is
// restored. Symlinks and files over the size bn reads are refused.
func extract(opts FetchOptions, d Declared, commit string) error {
	base := filepath.Join(opts.CacheDir, "sources", "trees")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(base, ".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := untar(opts, d, commit, tmp); err != nil {
		return err
	}
	final := treeDir(opts.CacheDir, commit, d.Path)
	old := final + ".old"
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if _, err := os.Stat(final); err == nil {
		if err := os.Rename(final, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// untar writes the commit's files under the source's path into dir.
func untar(opts FetchOptions, d Declared, commit, dir string) error {
	spec := commit
	if d.Path != "." {
		spec = commit + ":" + d.Path
		if _, err := git(opts, mirror(opts.CacheDir, gitURL(d)), "cat-file", "-e", spec); err != nil {
			return fmt.Errorf("source %q: %s has no directory %q at %s", d.Name, d.URL, d.Path, d.Ref)
		}
	}
	// The archive is read as git writes it, one file at a time: a large
	// tree is never held whole. A file refused stops git (the pipe
	// closes), and the extraction directory is thrown away.
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := extractTree(d, pr, dir, treeCaps)
		if err == nil {
			_, err = io.Copy(io.Discard, pr) // the archive's padding
		}
		pr.CloseWithError(errors.Join(err, errStopped))
		done <- err
	}()
	gitErr := gitTo(opts, mirror(opts.CacheDir, gitURL(d)), pw, "archive", "--format=tar", commit, "--", d.Path)
	pw.Close()
	// A tree cut short is git's failure, which says why.
	if err := <-done; err != nil && (gitErr == nil || !errors.Is(err, io.ErrUnexpectedEOF)) {
		return err
	}
	if gitErr != nil {
		return fmt.Errorf("source %q: %w", d.Name, gitErr)
	}
	return nil
}

// errStopped closes the archive's pipe once the extraction is over.
var errStopped = errors.New("the extraction stopped")

// caps bound what one source's tree may unpack to, checked on each entry's
// header before it is written, so a crafted tree (a tar bomb) stops early.
type caps struct {
	entries int   // files and directories
	bytes   int64 // the files' sizes together
}

// treeCaps: a team's tree is agent definitions, text files of at most a
// 1 MiB prompt each; 10,000 entries hold thousands of agents with room to
// spare, and 256 MiB is four files at the 64 MiB bn reads from one file.
var treeCaps = caps{entries: 10_000, bytes: 256 << 20}

// extractTree writes the regular files of a tar archive of the source's tree
// into dir, refusing anything else and a tree over lim.
func extractTree(d Declared, archive io.Reader, dir string, lim caps) error {
	tr := tar.NewReader(archive)
	entries, total := 0, int64(0)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("source %q: reading the tree: %w", d.Name, err)
		}
		name := path.Clean(h.Name)
		if !fs.ValidPath(name) {
			// git does not make such trees; a crafted one must not write
			// outside the extraction directory.
			return fmt.Errorf("source %q: the tree names %q, a path outside its directory; bn reads nothing from such a source", d.Name, h.Name)
		}
		if entries++; entries > lim.entries {
			return fmt.Errorf("source %q: the tree of %s at %s holds more than %d entries (files and directories) at %s, over the %d bn extracts from a source; point path at a smaller directory",
				d.Name, d.URL, d.Ref, lim.entries, name, lim.entries)
		}
		if h.Typeflag == tar.TypeReg {
			if total += h.Size; total > lim.bytes {
				return fmt.Errorf("source %q: the tree of %s at %s holds more than %d MiB at %s, over the %d MiB bn extracts from a source; point path at a smaller directory",
					d.Name, d.URL, d.Ref, lim.bytes>>20, name, lim.bytes>>20)
			}
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if h.Size > files.MaxConfigFile {
				return fmt.Errorf("source %q: %s is %d MiB, over the %d MiB bn reads from a file; remove it from %s or point path elsewhere",
					d.Name, name, h.Size>>20, files.MaxConfigFile>>20, d.Path)
			}
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := writeFrom(target, tr); err != nil {
				return err
			}
		case tar.TypeSymlink:
			link := path.Clean(path.Join(path.Dir(name), h.Linkname))
			if path.IsAbs(h.Linkname) || !within(link, d.Path) {
				return fmt.Errorf("source %q: %s is a symlink to %s, outside %s; bn reads nothing outside a source's path", d.Name, name, h.Linkname, d.Path)
			}
			return fmt.Errorf("source %q: %s is a symlink; shared sources hold regular files only", d.Name, name)
		case tar.TypeXGlobalHeader:
		default:
			return fmt.Errorf("source %q: %s is not a regular file", d.Name, name)
		}
	}
}

// writeFrom writes what r holds to a new file at path.
func writeFrom(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Close())
}

func within(p, dir string) bool {
	return dir == "." && !strings.HasPrefix(p, "../") && p != ".." || p == dir || strings.HasPrefix(p, dir+"/")
}

// Declarations reads the sources each config.kdl in dirs names (the
// system and project layer directories, in that order). A config.kdl
// that does not parse is an error: its sources cannot be known.
func Declarations(dirs []string, dec config.Decoder) ([]Declared, error) {
	var out []Declared
	for _, dir := range dirs {
		path := filepath.Join(dir, "config.kdl")
		src, err := files.Read(path, files.MaxConfigFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s %w", path, err)
		}
		res := dec.KDL(path, src)
		for _, d := range res.Diags.Errors() {
			if d.Field == "source" || strings.HasPrefix(d.Field, "source.") || d.Field == "" {
				return nil, fmt.Errorf("%s: fix it before fetching", d)
			}
		}
		for _, s := range res.Sources {
			out = append(out, Declared{SourceSpec: s, ConfigDir: dir})
		}
	}
	return out, nil
}

// Checkout fetches one git source as Fetch does (its mirror and tree in
// the cache) without a lock, for what a command reads once (import of a
// marketplace's plugin): the directory holding path at ref's commit.
func Checkout(cacheDir string, src agents.SourceSpec, configDir string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", errors.New("fetching a git source needs git, which is not on PATH; install it")
	}
	unlock, err := lockCache(cacheDir, files.LockWait)
	if err != nil {
		return "", err
	}
	defer unlock()
	if src.Path == "" {
		src.Path = "."
	}
	opts := FetchOptions{CacheDir: cacheDir, Timeout: 2 * time.Minute}
	d := Declared{SourceSpec: src, ConfigDir: configDir}
	if d.Ref == "" {
		// The repository's default branch, as its HEAD names it.
		out, err := git(opts, "", "ls-remote", "--symref", "--", gitURL(d), "HEAD")
		head, _, ok := strings.Cut(strings.TrimPrefix(string(out), "ref: refs/heads/"), "\t")
		if err != nil || !ok || !strings.HasPrefix(string(out), "ref: ") {
			return "", fmt.Errorf("source %q: cannot tell the default branch of %s (name a ref)", d.Name, d.URL)
		}
		d.Ref = head
	}
	commit, err := resolve(opts, d)
	if err != nil {
		return "", err
	}
	if err := extract(opts, d, commit); err != nil {
		return "", err
	}
	return LayerDir(cacheDir, Locked{Commit: commit, Path: src.Path}), nil
}
