// Command release writes, from the release archives' checksums
// (dist/SHA256SUMS), the Homebrew formula (bn.rb) and the Scoop manifest
// (bn.json) that install them. `make dist` runs it; the URL the archives
// are published under is a variable (RELEASE_URL in the Makefile).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	version := flag.String("version", "", "the release version, as the archives name it (v1.2.0)")
	url := flag.String("url", "", "where the archives are published, without the trailing file name")
	sums := flag.String("sums", "dist/SHA256SUMS", "the archives' checksums, as sha256sum writes them")
	out := flag.String("out", "dist", "the directory bn.rb and bn.json are written to")
	flag.Parse()
	if err := run(*version, *url, *sums, *out); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(version, url, sumsPath, out string) error {
	if version == "" || url == "" {
		return fmt.Errorf("-version and -url are required")
	}
	data, err := os.ReadFile(sumsPath)
	if err != nil {
		return err
	}
	archives, err := parseSums(data, version)
	if err != nil {
		return fmt.Errorf("%s: %w", sumsPath, err)
	}
	rel := Release{Version: version, URL: url, Archives: archives}
	formula, err := rel.Formula()
	if err != nil {
		return err
	}
	manifest, err := rel.Scoop()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "bn.rb"), formula, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "bn.json"), manifest, 0o644)
}
