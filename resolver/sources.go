package resolver

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/team"
)

// withSources loads the shared sources the system and project layers
// name, each verified against the lock file beside its config.kdl, and
// places them after the built-in layer in the order named (system's
// first). Resolving never runs git: a source that is not fetched, or
// whose cached files do not match the lock, fails closed with the fix.
func withSources(layers []Layer, loaded []*loadedLayer, dec config.Decoder) ([]Layer, []*loadedLayer) {
	var srcLayers []Layer
	var srcLoaded []*loadedLayer
	declaredBy := map[string]string{}
	for _, ll := range loaded {
		if ll.kdl == nil || len(ll.kdl.Sources) == 0 {
			continue
		}
		fail := func(pos agents.Pos, msg, hint string) {
			ll.fatal = append(ll.fatal, agents.Diagnostic{Severity: agents.Error, Pos: pos, Field: "source", Message: msg, Hint: hint})
		}
		if ll.Name != System && ll.Name != Project {
			fail(ll.kdl.Sources[0].Pos, fmt.Sprintf("sources are named in the system or project config.kdl, not in the %s layer", ll.Name), "move the source node")
			continue
		}
		lockPath := filepath.Join(ll.Dir, team.LockFile)
		lock, err := team.ReadLock(lockPath)
		if err != nil {
			fail(ll.kdl.Sources[0].Pos, err.Error(), "")
			continue
		}
		fetch := "run bn config agents fetch"
		for _, s := range ll.kdl.Sources {
			if other, dup := declaredBy[s.Name]; dup {
				fail(s.Pos, fmt.Sprintf("source %q is also named in %s", s.Name, other), "give one of them another name")
				continue
			}
			declaredBy[s.Name] = s.Pos.File
			e, ok := lock.Find(s.Name)
			switch {
			case !ok:
				fail(s.Pos, fmt.Sprintf("source %q is not fetched: %s has no entry for it", s.Name, ll.FileLabel(team.LockFile)), fetch)
				continue
			case !e.Matches(s):
				fail(s.Pos, fmt.Sprintf("source %q changed since it was fetched (the lock has %s at %s, path %s)", s.Name, e.URL, e.Ref, e.Path), fetch)
				continue
			case ll.CacheDir == "":
				fail(s.Pos, fmt.Sprintf("source %q: bn has no cache directory (set XDG_CACHE_HOME or BN_CACHE_DIR)", s.Name), "")
				continue
			}
			if err := team.Verify(ll.CacheDir, e); err != nil {
				fail(s.Pos, err.Error(), "")
				continue
			}
			// A source named by a layer read only for its policy is read
			// only for its policy too.
			l := Layer{Name: LayerName(sourcePrefix + s.Name), Dir: team.LayerDir(ll.CacheDir, e), Label: s.Name + "@" + e.Commit[:12], PolicyOnly: ll.PolicyOnly}
			sl := load(l, dec)
			if sl.kdl != nil && len(sl.kdl.Sources) > 0 {
				sl.fatal = append(sl.fatal, agents.Diagnostic{Severity: agents.Error, Pos: sl.kdl.Sources[0].Pos, Field: "source",
					Message: "a shared source cannot name other sources", Hint: "name them in the project or system config.kdl"})
			}
			srcLayers, srcLoaded = append(srcLayers, l), append(srcLoaded, sl)
		}
	}
	if len(srcLayers) == 0 {
		return layers, loaded
	}
	at := 0
	if len(layers) > 0 && layers[0].Name == Embedded {
		at = 1
	}
	return slices.Insert(slices.Clone(layers), at, srcLayers...), slices.Insert(slices.Clone(loaded), at, srcLoaded...)
}
