package team

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Verify hashes the cached files every time: a change that keeps a
// file's size and times is caught, and no file beside the cache (such
// as the ".verified" stamp earlier versions trusted) can vouch for them.
func TestVerifyCatchesTampering(t *testing.T) {
	cache := t.TempDir()
	e := Locked{Name: "team", Commit: "0123456789012345678901234567890123456789", Path: "agents"}
	dir := LayerDir(cache, e)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	file := filepath.Join(dir, "config.kdl")
	require.NoError(t, os.WriteFile(file, []byte("agent a { description d; prompt p }\n"), 0o644))
	h, err := HashDir(dir)
	require.NoError(t, err)
	e.Hash = h
	require.NoError(t, Verify(cache, e))
	require.NoError(t, Verify(cache, e))

	fi, err := os.Stat(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte("agent b { description d; prompt p }\n"), 0o644)) // same size
	require.NoError(t, os.Chtimes(file, fi.ModTime(), fi.ModTime()))
	require.NoError(t, os.WriteFile(filepath.Clean(dir)+".verified", []byte(h+"\nforged\n"), 0o644))
	err = Verify(cache, e)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "do not match sources.lock")
}

func TestLockRoundTrip(t *testing.T) {
	l := Lock{Sources: []Locked{{Name: "team", URL: "../team", Ref: "v1", Path: "agents",
		Commit: "0123456789012345678901234567890123456789", Hash: "sha256:00"}}}
	path := filepath.Join(t.TempDir(), LockFile)
	require.NoError(t, os.WriteFile(path, l.Format(), 0o644))
	got, err := ReadLock(path)
	require.NoError(t, err)
	assert.Equal(t, l, got)
}

// TestExtractTreeRefusesWhatIsNotAFile: a tree is written only as
// regular files inside the extraction directory; a path leading out of
// it, a symlink or a device is refused.
func TestExtractTreeRefusesWhatIsNotAFile(t *testing.T) {
	archive := func(hs ...tar.Header) []byte {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		for _, h := range hs {
			if h.Typeflag == tar.TypeReg {
				h.Size = 1
			}
			require.NoError(t, tw.WriteHeader(&h))
			if h.Typeflag == tar.TypeReg {
				_, err := tw.Write([]byte("x"))
				require.NoError(t, err)
			}
		}
		require.NoError(t, tw.Close())
		return b.Bytes()
	}
	d := Declared{SourceSpec: agents.SourceSpec{Name: "team", Path: "agents"}}
	dir := t.TempDir()
	require.NoError(t, extractTree(d, bytes.NewReader(archive(tar.Header{Name: "agents/", Typeflag: tar.TypeDir, Mode: 0o755},
		tar.Header{Name: "agents/a.md", Typeflag: tar.TypeReg, Mode: 0o644})), dir, treeCaps))
	got, err := os.ReadFile(filepath.Join(dir, "agents", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "x", string(got))
	for _, tt := range []struct {
		h    tar.Header
		want string
	}{
		{tar.Header{Name: "../escaped.md", Typeflag: tar.TypeReg}, `a path outside its directory`},
		{tar.Header{Name: "agents/../../escaped.md", Typeflag: tar.TypeReg}, `a path outside its directory`},
		{tar.Header{Name: "agents/l.md", Typeflag: tar.TypeSymlink, Linkname: "a.md"}, `is a symlink; shared sources hold regular files only`},
		{tar.Header{Name: "agents/out.md", Typeflag: tar.TypeSymlink, Linkname: "../../etc/passwd"}, `outside agents`},
		{tar.Header{Name: "agents/dev", Typeflag: tar.TypeChar}, `is not a regular file`},
	} {
		dir := t.TempDir()
		err := extractTree(d, bytes.NewReader(archive(tt.h)), filepath.Join(dir, "tree"), treeCaps)
		require.Error(t, err, tt.h.Name)
		assert.Contains(t, err.Error(), tt.want)
		_, statErr := os.Stat(filepath.Join(dir, "escaped.md"))
		assert.ErrorIs(t, statErr, os.ErrNotExist, "nothing written outside")
	}
}

// TestExtractTreeStreams: a source's tree is written as its archive is
// read, a file at a time through a small buffer: extracting 96 MB
// allocates a small part of that.
func TestExtractTreeStreams(t *testing.T) {
	const files, size = 24, 4 << 20
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		chunk := bytes.Repeat([]byte("agent "), 1<<10)
		for i := range files {
			tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("agents/a%d.md", i), Typeflag: tar.TypeReg, Mode: 0o644, Size: size})
			for n := 0; n < size; n += len(chunk) {
				tw.Write(chunk[:min(len(chunk), size-n)])
			}
		}
		pw.CloseWithError(tw.Close())
	}()
	d := Declared{SourceSpec: agents.SourceSpec{Name: "team", Path: "agents"}}
	dir := t.TempDir()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	require.NoError(t, extractTree(d, pr, dir, treeCaps))
	runtime.ReadMemStats(&after)
	fi, err := os.Stat(filepath.Join(dir, "agents", fmt.Sprintf("a%d.md", files-1)))
	require.NoError(t, err)
	assert.EqualValues(t, size, fi.Size())
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "the archive is held, not streamed")
}

// TestExtractTreeCaps: a tree over the entries or bytes a source may
// unpack to is refused at the entry that crosses the cap, naming the
// source, its tree, that entry and the cap, before that entry is written.
func TestExtractTreeCaps(t *testing.T) {
	const mb = 1 << 20
	lim := caps{entries: 3, bytes: 2 * mb}
	d := Declared{SourceSpec: agents.SourceSpec{Name: "team", URL: "../team", Ref: "v1", Path: "agents"}}
	type file struct {
		name string
		size int
	}
	for _, tt := range []struct {
		name  string
		files []file
		want  string // "" when extracted
	}{
		{"at both caps", []file{{"agents/", -1}, {"agents/a.md", mb}, {"agents/b.md", mb}}, ""},
		{"one entry over", []file{{"agents/", -1}, {"agents/a.md", 1}, {"agents/b.md", 1}, {"agents/c.md", 1}},
			`source "team": the tree of ../team at v1 holds more than 3 entries (files and directories) at agents/c.md, over the 3 bn extracts from a source; point path at a smaller directory`},
		{"directories count", []file{{"agents/", -1}, {"agents/x/", -1}, {"agents/y/", -1}, {"agents/z/", -1}}, `more than 3 entries (files and directories) at agents/z`},
		{"one byte over", []file{{"agents/a.md", mb}, {"agents/b.md", mb + 1}},
			`source "team": the tree of ../team at v1 holds more than 2 MiB at agents/b.md, over the 2 MiB bn extracts from a source; point path at a smaller directory`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tw := tar.NewWriter(&b)
			for _, f := range tt.files {
				h := tar.Header{Name: f.name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(f.size)}
				if f.size < 0 {
					h = tar.Header{Name: f.name, Typeflag: tar.TypeDir, Mode: 0o755}
				}
				require.NoError(t, tw.WriteHeader(&h))
				if f.size > 0 {
					_, err := tw.Write(bytes.Repeat([]byte("x"), f.size))
					require.NoError(t, err)
				}
			}
			require.NoError(t, tw.Close())
			dir := t.TempDir()
			err := extractTree(d, &b, dir, lim)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			last := tt.files[len(tt.files)-1].name
			_, statErr := os.Stat(filepath.Join(dir, filepath.FromSlash(last)))
			assert.ErrorIs(t, statErr, os.ErrNotExist, "the entry over the cap is not written")
		})
	}
}
