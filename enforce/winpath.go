package enforce

import (
	"fmt"
	"runtime"
	"strings"
)

// win32Error is why win32Name, or resolve for a short name, cannot
// place a path.
type win32Error string

func (e win32Error) Error() string { return string(e) }

const (
	errDevicePath win32Error = `is a Win32 device or raw path (\\?\, \\.\ or \??\), which Windows opens without the name rules bn matches by; write the path itself (C:\repo\file)`
	errStream     win32Error = "names an alternate data stream of a file (name:stream), separate data no path rule names; write the file's own name"
	errDotsOnly   win32Error = "has a component of only dots and spaces, which Windows reads in a way bn does not place; write the path itself"
	errShortName  win32Error = "has a component that looks like an 8.3 short name (a ~ and a letter or digit) and does not exist, so bn cannot tell which file Windows would give it; write the file's long name"
)

// win32Path is p as Windows opens it, on Windows (win32Name), and p
// elsewhere: every path a decision matches goes through it (resolve,
// locate), so a deny on .env holds against .env. too.
func win32Path(p string) (string, error) {
	if runtime.GOOS != "windows" {
		return p, nil
	}
	return win32Name(p)
}

// win32Name is an absolute Windows path as Win32 opens it: the dots and
// spaces that end a component dropped (.env. and ".env " are .env), and
// ::$DATA or :$DATA, the file's main stream, dropped. A named stream
// (.env:x), a device or raw path (\\?\, \\.\, \??\, whose names Win32
// does not normalise) and a component of only dots and spaces are
// errors that say why. A pure function of the string, so that it is
// tested on every system; 8.3 short names need the file system (resolve).
func win32Name(p string) (string, error) {
	written := p
	sep := func(r rune) bool { return r == '\\' || r == '/' }
	if len(p) >= 4 && sep(rune(p[0])) && (sep(rune(p[1])) || p[1] == '?') && (p[2] == '?' || p[2] == '.') && sep(rune(p[3])) {
		return "", fmt.Errorf("%s %w", written, errDevicePath)
	}
	vol := ""
	switch {
	case len(p) >= 2 && p[1] == ':':
		vol = p[:2]
	case len(p) >= 2 && sep(rune(p[0])) && sep(rune(p[1])):
		// \\server\share: the share is part of the volume.
		parts := strings.FieldsFunc(p, sep)
		vol = `\\` + strings.Join(parts[:min(2, len(parts))], `\`)
		p = strings.Join(parts[min(2, len(parts)):], `\`)
	}
	if len(vol) == 2 {
		p = p[2:]
	}
	comps := strings.FieldsFunc(p, sep)
	for i, c := range comps {
		if c == "." || c == ".." {
			continue
		}
		if name, stream, ok := strings.Cut(c, ":"); ok {
			if !strings.EqualFold(stream, ":$DATA") && !strings.EqualFold(stream, "$DATA") {
				return "", fmt.Errorf("%s %w", written, errStream)
			}
			c = name
		}
		if c = strings.TrimRight(c, ". "); c == "" {
			return "", fmt.Errorf("%s %w", written, errDotsOnly)
		}
		comps[i] = c
	}
	return vol + `\` + strings.Join(comps, `\`), nil
}

// shortName says whether a component may be an 8.3 short name: at
// most eight characters holding a ~ and a letter or digit, and an
// extension of at most three (Windows' PROGRA~1 and SECRET~1.ENV, Wine's
// SECR~FQR.ENV; not a backup's a.go.~1~). A function, not a regexp: the
// package builds nothing at start (TestStartupInit).
func shortName(c string) bool {
	base, ext, dot := strings.Cut(c, ".")
	if len(base) > 8 || len(ext) > 3 || dot && (ext == "" || strings.Contains(ext, ".")) {
		return false
	}
	for i := 0; i+1 < len(base); i++ {
		if n := base[i+1]; base[i] == '~' && ('0' <= n && n <= '9' || 'A' <= n && n <= 'Z' || 'a' <= n && n <= 'z') {
			return true
		}
	}
	return false
}
