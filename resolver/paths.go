package resolver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/binnacle-dev/bn/files"
	"os"
	"path/filepath"
	"sync"

	"github.com/adrg/xdg"
	"github.com/binnacle-dev/bn/config"
)

// PathInputs is everything path discovery reads from the environment. The
// command fills it once; tests build it directly.
type PathInputs struct {
	Getenv     func(string) string
	Cwd        string
	RepoFlag   string // -C/--repo; empty when not given
	ConfigHome string // XDG config home (adrg/xdg resolves the platform default)
	DataHome   string // XDG data home
	CacheHome  string // XDG cache home
}

// Paths are the resolved locations of every layer.
type Paths struct {
	RepoRoot    string // canonical: absolute, symlinks resolved
	SessionHash string
	SystemDir   string
	SessionDir  string
	ProjectDir  string
	// CacheDir holds fetched shared sources: $BN_CACHE_DIR, else
	// $XDG_CACHE_HOME/bn.
	CacheDir string
}

// DiscoverPaths computes every layer directory once, in one place.
func DiscoverPaths(in PathInputs) (Paths, error) {
	root, err := repoRoot(in)
	if err != nil {
		return Paths{}, err
	}
	p := Paths{RepoRoot: root, SessionHash: SessionHash(root), ProjectDir: filepath.Join(root, ".binnacle", "agents")}
	// A committed .binnacle (or agents) that is a symlink out of the
	// repository would make another place the project's definitions:
	// refused here, where every command that reads or writes the layers
	// finds them, as export refuses a .claude that leads out. root is
	// resolved already (repoRoot).
	if _, err := files.ResolvedDir(root).Join(".binnacle/agents"); err != nil {
		return Paths{}, fmt.Errorf("the project layer is not read: %w", err)
	}
	if in.Getenv("BN_CONTAINER_MODE") != "" && in.Getenv("BN_STORAGE_HASH") != "" {
		p.SessionHash = in.Getenv("BN_STORAGE_HASH")
		if filepath.Base(p.SessionHash) != p.SessionHash || p.SessionHash == ".." {
			return Paths{}, fmt.Errorf("BN_STORAGE_HASH %q must be a plain directory name", p.SessionHash)
		}
	}
	if dir := in.Getenv("BN_CONFIG_DIR"); dir != "" {
		p.SystemDir = filepath.Join(dir, "agents")
	} else {
		p.SystemDir = filepath.Join(in.ConfigHome, "binnacle", "agents")
	}
	dataDir := filepath.Join(in.DataHome, "binnacle")
	if dir := in.Getenv("BN_DATA_DIR"); dir != "" {
		dataDir = dir
	} else if in.Getenv("BN_CONTAINER_MODE") != "" {
		dataDir = "/binnacle"
	}
	p.SessionDir = filepath.Join(dataDir, p.SessionHash, "agents")
	p.CacheDir = in.Getenv("BN_CACHE_DIR")
	if p.CacheDir == "" && in.CacheHome != "" {
		p.CacheDir = filepath.Join(in.CacheHome, "bn")
	}
	return p, nil
}

// Load reads the layers of a scope, as every command does: the set also
// learns, when first asked, whether binnacle tracks the repository.
func (p Paths) Load(scope Scope, dec config.Decoder) *Set {
	s := LoadSteady(p.Layers(scope), dec)
	s.BinnacleProject = sync.OnceValue(p.BinnacleProject)
	return s
}

// BinnacleProject says whether binnacle tracks the repository: its
// storage directory for the repository (the session layer's parent)
// holds anything besides bn's session layer, such as binnacle's
// tasks.jsonl. bn itself writes only agents/ there, so a repository bn
// alone manages is not taken for one binnacle tracks.
func (p Paths) BinnacleProject() bool {
	entries, err := os.ReadDir(filepath.Dir(p.SessionDir))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() != filepath.Base(p.SessionDir) {
			return true
		}
	}
	return false
}

// SessionHash is binnacle's per-repo storage key: the first 12 lowercase hex
// characters of the SHA-256 of the canonical repo root path.
func SessionHash(canonicalRoot string) string {
	sum := sha256.Sum256([]byte(canonicalRoot))
	return hex.EncodeToString(sum[:])[:12]
}

func repoRoot(in PathInputs) (string, error) {
	given, source := in.RepoFlag, "-C/--repo"
	if given == "" {
		given, source = in.Getenv("BN_REPO"), "BN_REPO"
	}
	if given != "" {
		if !filepath.IsAbs(given) {
			given = filepath.Join(in.Cwd, given)
		}
		root, err := filepath.EvalSymlinks(given)
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", source, given, files.Cause(err))
		}
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("%s %s is not a directory", source, given)
		}
		return root, nil
	}
	root, err := RepoRootFrom(in.Cwd)
	if err != nil {
		return "", fmt.Errorf("working directory %s: %w", in.Cwd, err)
	}
	return root, nil
}

// RepoRootFrom is the repository dir is in, as git finds it: the nearest
// directory holding a .git, dir itself included, with symlinks resolved;
// dir itself when none does.
func RepoRootFrom(dir string) (string, error) {
	start, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", files.Cause(err)
	}
	for d := start; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return start, nil
		}
	}
}

// ProcessPaths discovers the paths for this process: its working
// directory, its environment and the XDG base directories, with repo as
// -C/--repo. bn's helper binaries (bn-mcp, bn-verify) start from it.
func ProcessPaths(repo string) (Paths, error) {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = "."
	}
	return DiscoverPaths(PathInputs{Getenv: os.Getenv, Cwd: cwd, RepoFlag: repo,
		ConfigHome: xdg.ConfigHome, DataHome: xdg.DataHome, CacheHome: xdg.CacheHome})
}
