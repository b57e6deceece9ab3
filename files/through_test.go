package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/internal/wine"
)

// TestThrough: a settings file that is a link is written where it leads,
// in and out of base; a directory on the way that leads out of base is
// refused, one that stays inside is written through; a file without a
// link (or not yet there) is written in base.
func TestThrough(t *testing.T) {
	wine.Skip(t, wine.Symlinks)
	top := t.TempDir()
	base, dotfiles := filepath.Join(top, "home"), filepath.Join(top, "dotfiles")
	for _, d := range []string{base + "/.codex", base + "/dots/gemini", dotfiles + "/codex"} {
		if err := os.MkdirAll(filepath.FromSlash(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{dotfiles + "/codex.toml", base + "/dots/claude.json"} {
		if err := os.WriteFile(filepath.FromSlash(f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		".codex/config.toml": "../../dotfiles/codex.toml", // the file: followed out of base
		".claude.json":       "dots/claude.json",          // the file, inside base
		".gemini":            "dots/gemini",               // a directory inside base
		".out":               "../dotfiles/codex",         // a directory out of base
		".gone.toml":         "nowhere.toml",              // a file's link that leads nowhere
	} {
		if err := os.Symlink(filepath.FromSlash(target), filepath.Join(base, filepath.FromSlash(link))); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		rel, dir, path string // dir and path under top ("" for an error)
		err            string
	}{
		{rel: ".codex/config.toml", dir: "dotfiles", path: "dotfiles/codex.toml"},
		{rel: ".claude.json", dir: "home/dots", path: "home/dots/claude.json"},
		{rel: ".gemini/settings.json", dir: "home", path: "home/.gemini/settings.json"},
		{rel: ".codex/new/config.toml", dir: "home", path: "home/.codex/new/config.toml"},
		{rel: ".out/config.toml", err: filepath.Join(base, ".out") + " is a symlink that leads out of " + base},
		{rel: ".gone.toml", err: filepath.Join(base, ".gone.toml") + " is a symlink that leads nowhere"},
		{rel: "../x.toml", err: "not a plain relative path"},
	} {
		dir, p, err := Through(base, tt.rel)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: got %v, want an error with %q", tt.rel, err, tt.err)
			}
			continue
		}
		// A followed link's target comes back resolved; base as given.
		root := top
		if dir != base {
			root = realTop
		}
		wantDir, wantPath := filepath.Join(root, filepath.FromSlash(tt.dir)), filepath.Join(root, filepath.FromSlash(tt.path))
		if err != nil || dir != wantDir || p != wantPath {
			t.Errorf("%s: got %q, %q, %v; want %q, %q", tt.rel, dir, p, err, wantDir, wantPath)
		}
	}
}

// TestCause: a message that names the path itself takes the error
// without fs.PathError's path, wrapped or not; other errors stay whole.
func TestCause(t *testing.T) {
	pe := &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}
	plain := errors.New("plain")
	for _, tt := range []struct {
		in, want error
	}{
		{pe, fs.ErrNotExist},
		{fmt.Errorf("reading: %w", pe), fs.ErrNotExist},
		{plain, plain},
	} {
		if got := Cause(tt.in); got != tt.want {
			t.Errorf("Cause(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
