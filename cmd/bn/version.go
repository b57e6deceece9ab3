package main

import (
	"runtime/debug"
	"strings"
)

// versionLine is what bn --version prints: the release (the git tag the
// Makefile passes, or the module version go install …@VERSION records),
// then the commit and its date when the build recorded them (a build in a
// git checkout does).
func versionLine(release string) string {
	info, ok := debug.ReadBuildInfo()
	var commit, date string
	dirty := false
	if ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value[:min(len(s.Value), 12)]
			case "vcs.time":
				date, _, _ = strings.Cut(s.Value, "T")
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if release == "dev" && ok && commit == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		release = info.Main.Version // go install …@VERSION records no commit
	}
	var extra []string
	if commit != "" {
		if dirty {
			commit += "+changes"
		}
		extra = append(extra, "commit "+commit)
	}
	if date != "" {
		extra = append(extra, date)
	}
	if len(extra) == 0 {
		return "bn " + release
	}
	return "bn " + release + " (" + strings.Join(extra, ", ") + ")"
}
