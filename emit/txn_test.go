package emit

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/internal/wine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modeOnDisk is what a file created with mode m reports: Windows keeps
// only whether the owner may write, as a read-only attribute.
func modeOnDisk(m os.FileMode) os.FileMode {
	if runtime.GOOS != "windows" {
		return m
	}
	if m&0o200 != 0 {
		return 0o666
	}
	return 0o444
}

// TestApplyAllWritesEverything: new files in new directories, a replaced
// file keeping its mode, a removal, and no temporary or backup file left.
func TestApplyAllWritesEverything(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "a", "private.md")
	gone := filepath.Join(dir, "gone.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(keep), 0o755))
	require.NoError(t, os.WriteFile(keep, []byte("old"), 0o600))
	require.NoError(t, os.WriteFile(gone, []byte("x"), 0o644))
	var changes []Change
	for i := range 100 {
		changes = append(changes, Change{Path: filepath.Join(dir, "new", "deep", strings.Repeat("f", i%7+1)+string(rune('a'+i%26))+".md"), Content: []byte{byte(i)}})
	}
	changes = append(changes, Change{Path: keep, Content: []byte("new")}, Change{Path: gone, Remove: true})
	require.NoError(t, ApplyAll(changes))
	for _, c := range changes {
		got, err := os.ReadFile(c.Path)
		if c.Remove {
			assert.ErrorIs(t, err, os.ErrNotExist)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.Content, got, c.Path)
		if c.Path != keep {
			fi, err := os.Stat(c.Path)
			require.NoError(t, err)
			assert.Equal(t, modeOnDisk(0o644), fi.Mode().Perm(), c.Path)
		}
	}
	fi, err := os.Stat(keep)
	require.NoError(t, err)
	assert.Equal(t, modeOnDisk(0o600), fi.Mode().Perm(), "a replaced file keeps its mode")
	got, _ := os.ReadFile(keep)
	assert.Equal(t, "new", string(got))
	assertNoLeftovers(t, dir)
}

// TestApplyAllFailsWhole: when one change cannot be written, nothing is
// changed, and no directory or temporary file is left behind.
func TestApplyAllFailsWhole(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.md")
	require.NoError(t, os.WriteFile(old, []byte("old"), 0o644))
	blocker := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(blocker, []byte("x"), 0o644))
	var changes []Change
	for i := range 50 {
		changes = append(changes, Change{Path: filepath.Join(dir, "new", string(rune('a'+i%26))+string(rune('a'+i/26))+".md"), Content: []byte("n")})
	}
	changes = append(changes, Change{Path: old, Content: []byte("new")},
		Change{Path: filepath.Join(blocker, "x.md"), Content: []byte("y")}) // a file is in the way of its directory
	err := ApplyAll(changes)
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join(blocker))
	got, _ := os.ReadFile(old)
	assert.Equal(t, "old", string(got), "nothing is changed")
	_, err = os.Stat(filepath.Join(dir, "new"))
	assert.ErrorIs(t, err, os.ErrNotExist, "a directory made for the failed change is removed")
	assertNoLeftovers(t, dir)
}

func assertNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && (strings.Contains(d.Name(), "tmp-") || strings.Contains(d.Name(), ".bn-old-")) {
			t.Errorf("left behind: %s", path)
		}
		return err
	}))
}

// TestClearLeftovers: what a killed bn left is cleared by the next write
// into that directory: its temporary files, the temporary files an
// earlier version made for a file written now, and the ".bn-old-PID"
// copies (put back where the file is missing). A running process's
// temporary file is kept, and so is every name bn did not make, however
// much it looks like one.
func TestClearLeftovers(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("a.md", "new a")
	write(".a.md.bn-tmp-"+dead+"-123", "half")
	write(".c.md.tmp-"+dead+"-123", "an earlier version's, for a file written now")
	write(".a.md.bn-old-"+dead, "old a")
	write(".b.md.bn-old-"+dead, "old b") // b.md was moved aside and never replaced
	mine := ".a.md.bn-tmp-" + strconv.Itoa(os.Getpid()) + "-5"
	write(mine, "in flight")
	users := []string{".hidden.md", ".a.md.tmp-987654", ".a.md.tmp-" + dead + "-123", ".config.toml.tmp-20240101",
		".a.md.bn-tmp-" + dead + "-x", ".a.md.bn-tmp-" + dead}
	for _, u := range users {
		write(u, "a user's file")
	}
	require.NoError(t, ApplyAll([]Change{{Path: filepath.Join(dir, "c.md"), Content: []byte("c")}}))
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, append([]string{"a.md", "b.md", "c.md", mine}, users...), names)
	got, _ := os.ReadFile(filepath.Join(dir, "b.md"))
	assert.Equal(t, "old b", string(got), "a file moved aside and never replaced is put back")
}

// TestApplyAllNeverMissing: while a file is replaced, readers always find
// it, old or new.
func TestApplyAllNeverMissing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.kdl")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	stop := make(chan struct{})
	missing := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				missing <- n
				return
			default:
			}
			if _, err := os.Stat(path); err != nil {
				n++
			}
		}
	}()
	for i := range 200 {
		require.NoError(t, ApplyAll([]Change{{Path: path, Content: []byte(strconv.Itoa(i)), Sync: i%50 == 0}}))
	}
	close(stop)
	assert.Zero(t, <-missing, "the file was missing while it was replaced")
}

// deadPID is the id of a process that has exited.
func deadPID(t *testing.T) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, cmd.Run())
	return strconv.Itoa(cmd.Process.Pid)
}

// TestPlanFilesLeftovers: a temporary file a killed bn left beside the
// files a plan writes makes the plan out of date, and carrying it out
// removes it, even when every wanted file is unchanged; a running
// process's and a name bn did not make are left.
func TestPlanFilesLeftovers(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	want := Want{Path: filepath.Join(dir, "a.md"), Content: []byte("a")}
	require.NoError(t, os.WriteFile(want.Path, want.Content, 0o644))
	left := filepath.Join(dir, ".a.md.bn-tmp-"+dead+"-7")
	mine := filepath.Join(dir, ".a.md.bn-tmp-"+strconv.Itoa(os.Getpid())+"-7")
	users := filepath.Join(dir, ".a.md.bn-tmp-"+dead+"-x")
	for _, p := range []string{left, mine, users} {
		require.NoError(t, os.WriteFile(p, []byte("half"), 0o644))
	}
	plan, err := PlanFiles(dir, ".md", false, []Want{want}, false, false)
	require.NoError(t, err)
	assert.Equal(t, []PlannedFile{{Path: want.Path, Action: Keep, content: want.Content}, {Path: left, Action: Remove}}, plan.Files)
	assert.Equal(t, 1, plan.OutOfDate())
	require.NoError(t, plan.Apply())
	assert.NoFileExists(t, left)
	assert.FileExists(t, mine)
	assert.FileExists(t, users)
	got, _ := os.ReadFile(want.Path)
	assert.Equal(t, "a", string(got))
}

// TestApplyInStaysInside: a directory on the way swapped for a symlink
// that leads out of the base after the plan checked it (the swap a
// concurrent process makes) fails the write; nothing lands outside, and
// the base is as it was. An in-base directory is written as before.
func TestApplyInStaysInside(t *testing.T) {
	wine.Skip(t, wine.Symlinks)
	for _, link := range []string{".claude/agents", ".claude"} {
		t.Run(link, func(t *testing.T) {
			base, outside := t.TempDir(), t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(base, filepath.Dir(link)), 0o755))
			if err := os.Symlink(outside, filepath.Join(base, link)); err != nil {
				t.Skip("no symlinks here:", err)
			}
			err := ApplyIn(base, []Change{
				{Path: filepath.Join(base, "kept.md"), Content: []byte("k")},
				{Path: filepath.Join(base, ".claude", "agents", "a.md"), Content: []byte("a")},
			})
			require.Error(t, err)
			entries, err := os.ReadDir(outside)
			require.NoError(t, err)
			assert.Empty(t, entries, "nothing is written outside the base")
			assert.NoFileExists(t, filepath.Join(base, "kept.md"), "nothing is written when one write fails")
		})
	}
	base := t.TempDir()
	require.NoError(t, ApplyIn(base, []Change{{Path: filepath.Join(base, ".claude", "agents", "a.md"), Content: []byte("a")}}))
	got, err := os.ReadFile(filepath.Join(base, ".claude", "agents", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "a", string(got))
}

// TestApplySeveralBases: changes with their own Base are each written
// from it; a directory that leads out of one base fails the whole write,
// and nothing is written in the others.
func TestApplySeveralBases(t *testing.T) {
	wine.Skip(t, wine.Symlinks)
	home, dotfiles, outside := t.TempDir(), t.TempDir(), t.TempDir()
	changes := []Change{
		{Path: filepath.Join(home, ".codex", "config.toml"), Base: home, Content: []byte("c")},
		{Path: filepath.Join(dotfiles, "gemini.json"), Base: dotfiles, Content: []byte("g")},
	}
	require.NoError(t, ApplyAll(changes))
	for _, c := range changes {
		got, err := os.ReadFile(c.Path)
		require.NoError(t, err)
		assert.Equal(t, string(c.Content), string(got))
	}
	if err := os.Symlink(outside, filepath.Join(dotfiles, "sub")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	err := ApplyAll([]Change{
		{Path: filepath.Join(home, "new.toml"), Base: home, Content: []byte("n")},
		{Path: filepath.Join(dotfiles, "sub", "x.json"), Base: dotfiles, Content: []byte("x")},
	})
	require.EqualError(t, err, "cannot write in "+filepath.Join(dotfiles, "sub")+": a symlink on the way leads out of "+dotfiles+"; bn writes only inside it: remove the link; nothing was written")
	assert.NoFileExists(t, filepath.Join(home, "new.toml"))
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestFlushThroughHandle: the temporary files are flushed through the
// directory handle they were made in, as every other step is, not opened
// again by path: a directory swapped for a symlink after they were
// written does not make the flush open (and sync) another file.
func TestFlushThroughHandle(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows renames no directory a handle holds open")
	}
	base, elsewhere := t.TempDir(), t.TempDir()
	dir := filepath.Join(base, "agents")
	require.NoError(t, os.Mkdir(dir, 0o755))
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	tmp, err := writeTemp(root, "a.md", filepath.Join(dir, "a.md"), []byte("a"), 0o644)
	require.NoError(t, err)
	require.NoError(t, os.Rename(dir, filepath.Join(base, "moved")))
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Skip("no symlinks here:", err)
	}
	// By path, the flush would open this directory for writing, and fail.
	require.NoError(t, os.Mkdir(filepath.Join(elsewhere, tmp), 0o755))
	temps := []tempFile{{root, tmp, filepath.Join(dir, "a.md")}}
	require.NoError(t, flush(temps))
	require.NoError(t, fsyncEach(temps))
}

// bn's files from before are looked for below dir only as deep as asked:
// everywhere when deep, else in dir and the directories written to.
func TestPlanFilesReach(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"old.md", "sub/old.md", "other/deeper/old.md"} {
		p = filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, Seal([]byte(Marker("bn x")+"old\n")), 0o644))
	}
	wants := []Want{{Path: filepath.Join(dir, "sub", "new.md"), Content: []byte("new\n")}}
	for _, tc := range []struct {
		deep bool
		want []string
	}{
		{false, []string{"sub/new.md", "old.md", "sub/old.md"}},
		{true, []string{"sub/new.md", "old.md", "other/deeper/old.md", "sub/old.md"}},
	} {
		plan, err := PlanFiles(dir, ".md", tc.deep, wants, false, false)
		require.NoError(t, err)
		var got []string
		for _, f := range plan.Files {
			rel, _ := filepath.Rel(dir, f.Path)
			got = append(got, filepath.ToSlash(rel))
		}
		assert.Equal(t, tc.want, got, "deep %v", tc.deep)
	}
}
