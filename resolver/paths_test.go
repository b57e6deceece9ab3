package resolver

import (
	"github.com/binnacle-dev/bn/internal/wine"
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionHashMatchesBinnacle(t *testing.T) {
	// sha256("/home/u/src/repo")[:12], computed independently.
	assert.Equal(t, "ae9fbcc6b5c0", SessionHash("/home/u/src/repo"))
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestDiscoverPaths(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	repo := filepath.Join(tmp, "repo")
	sub := filepath.Join(repo, "a", "b")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(sub, 0o755))
	link := filepath.Join(tmp, "link")
	require.NoError(t, os.Symlink(repo, link))

	base := PathInputs{Getenv: env(nil), Cwd: sub, ConfigHome: "/cfg", DataHome: "/data"}
	p, err := DiscoverPaths(base)
	require.NoError(t, err)
	hash := SessionHash(repo)
	assert.Equal(t, Paths{
		RepoRoot: repo, SessionHash: hash,
		SystemDir:  filepath.FromSlash("/cfg/binnacle/agents"),
		SessionDir: filepath.FromSlash("/data/binnacle/" + hash + "/agents"),
		ProjectDir: filepath.Join(repo, ".binnacle", "agents"),
	}, p)

	wine.Skip(t, wine.Symlinks)
	// -C is used as given (no git-root search), made canonical.
	in := base
	in.RepoFlag = filepath.Join(link, "a")
	p, err = DiscoverPaths(in)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(repo, "a"), p.RepoRoot)
	assert.Equal(t, SessionHash(filepath.Join(repo, "a")), p.SessionHash)

	// BN_REPO, BN_CONFIG_DIR and BN_DATA_DIR.
	in = base
	in.Getenv = env(map[string]string{"BN_REPO": link, "BN_CONFIG_DIR": "/bc", "BN_DATA_DIR": "/bd"})
	p, err = DiscoverPaths(in)
	require.NoError(t, err)
	assert.Equal(t, repo, p.RepoRoot)
	assert.Equal(t, filepath.FromSlash("/bc/agents"), p.SystemDir)
	assert.Equal(t, filepath.FromSlash("/bd/"+hash+"/agents"), p.SessionDir)

	// Container mode: /binnacle storage and an optional pinned hash.
	in.Getenv = env(map[string]string{"BN_CONTAINER_MODE": "1", "BN_STORAGE_HASH": "abc"})
	p, err = DiscoverPaths(in)
	require.NoError(t, err)
	assert.Equal(t, filepath.FromSlash("/binnacle/abc/agents"), p.SessionDir)
	in.Getenv = env(map[string]string{"BN_CONTAINER_MODE": "1", "BN_STORAGE_HASH": "../x"})
	_, err = DiscoverPaths(in)
	assert.ErrorContains(t, err, "must be a plain directory name")

	// No .git anywhere: the working directory is the root.
	in = base
	in.Cwd = tmp
	p, err = DiscoverPaths(in)
	require.NoError(t, err)
	assert.Equal(t, tmp, p.RepoRoot)

	in.RepoFlag = filepath.Join(tmp, "missing")
	_, err = DiscoverPaths(in)
	assert.ErrorContains(t, err, "-C/--repo "+filepath.Join(tmp, "missing")+": no such file or directory")
}

// Every set loaded from paths (export's, verify's) tells a repository
// binnacle tracks from one it does not by binnacle's storage for it.
func TestLoadKnowsABinnacleProject(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	repo := filepath.Join(tmp, "repo")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	p, err := DiscoverPaths(PathInputs{Getenv: env(nil), Cwd: repo, ConfigHome: filepath.Join(tmp, "cfg"), DataHome: filepath.Join(tmp, "data")})
	require.NoError(t, err)
	exported := func() bool {
		set := p.Load(Committed, config.Decoder{})
		a, ok := set.Agent("worker")
		require.True(t, ok)
		return set.Exported(a)
	}

	assert.False(t, exported(), "no storage: not binnacle's")
	require.NoError(t, os.MkdirAll(p.SessionDir, 0o755))
	assert.False(t, exported(), "bn's own session layer alone: not binnacle's")
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(p.SessionDir), "tasks.jsonl"), nil, 0o644))
	assert.True(t, exported(), "binnacle's tasks beside it")
}
