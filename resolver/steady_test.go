package resolver

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/resolver/resolvertest"
	"github.com/stretchr/testify/assert"
)

// TestLoadSteadyUnderRewrites: while the project's config.kdl, which
// narrows a built-in agent, is rewritten over and over (removed and made
// again, or truncated and written again), no load answers with the
// built-in's wider self: each either holds the narrowing or fails closed.
// (Load alone answered wider for a third to a half of the removals.)
func TestLoadSteadyUnderRewrites(t *testing.T) {
	const loads = 40
	narrow := "agent do {\n    tools {\n        deny \"shell(git push:*)\"\n    }\n}\n"
	dec := config.Decoder{Sections: dialect.All()}
	for _, tt := range []struct{ how, loader string }{{resolvertest.Remove, "LoadSteady"}, {resolvertest.Truncate, "LoadSteady"},
		{resolvertest.Remove, "Cache"}, {resolvertest.Truncate, "Cache"}} {
		how := tt.how
		t.Run(how+" "+tt.loader, func(t *testing.T) {
			ls := layers(t, map[LayerName]map[string]string{Project: {"config.kdl": narrow}})
			load := func() *Set { return LoadSteady(ls, dec) }
			if tt.loader == "Cache" {
				load = NewCache(ls, dec).Set
			}
			path := filepath.Join(ls[3].Dir, "config.kdl")
			push := agents.ToolPattern{Kind: "shell", Arg: "git push origin main", HasArg: true}
			closed := 0
			widened := resolvertest.Judge(t, QuietTime, func() (int, time.Duration) {
				r := resolvertest.Rewrite(path, []byte(narrow), how)
				widened := 0
				closed = 0
				for range loads {
					time.Sleep(resolvertest.Pace)
					s := load()
					if s.Fatal() != nil {
						closed++
						continue
					}
					a, err := s.Lookup("do")
					if err != nil {
						closed++
						continue
					}
					if agents.Decide(a.Tools, push).Allowed {
						widened++
					}
				}
				return widened, r.Stop()
			})
			assert.Zero(t, widened, "a load answered with the built-in's wider self (%d failed closed)", closed)
			t.Logf("%s, %s: %d loads, %d failed closed, none widened", how, tt.loader, loads, closed)
		})
	}
}

// TestQuickStampSettled: a layer's stamps stand for its listing only once
// its directory and config.kdl have been left alone for settleTime, where
// the system keeps change times, and neither is a symlink.
func TestQuickStampSettled(t *testing.T) {
	root := t.TempDir()
	mkdir := func(name string) string {
		dir := filepath.Join(root, name)
		assert.NoError(t, os.MkdirAll(dir, 0o755))
		return dir
	}
	plain, bare, linked := mkdir("plain"), mkdir("bare"), mkdir("linked")
	assert.NoError(t, os.WriteFile(filepath.Join(plain, "config.kdl"), nil, 0o644))
	symlinks := os.Symlink(filepath.Join(plain, "config.kdl"), filepath.Join(linked, "config.kdl")) == nil
	_, err := os.Lstat(filepath.Join(linked, "config.kdl"))
	symlinks = symlinks && err == nil // Wine reports a symlink made and makes nothing
	missing := filepath.Join(root, "missing")
	layers := []Layer{{Dir: plain}, {Dir: bare}, {Dir: linked}, {Dir: missing}}
	for _, tt := range []struct {
		name string
		now  time.Time
		want map[string]bool
	}{
		{"just changed", time.Now(), map[string]bool{plain: false, bare: false, linked: false, missing: false}},
		{"left alone", time.Now().Add(2 * settleTime), map[string]bool{plain: files.ChangeTimes, bare: files.ChangeTimes, linked: files.ChangeTimes && !symlinks, missing: false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, settled := quickStamp(layers, tt.now)
			assert.Equal(t, tt.want, settled)
		})
	}
}
