package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"text/template"

	"github.com/google/jsonschema-go/jsonschema"
)

// description is bn's one line, as its package managers show it.
const description = "One source of truth for AI agent definitions"

// Archive is one platform's release archive.
type Archive struct {
	OS, Arch string // Go's names: linux, darwin, windows; amd64, arm64
	File     string // bn-VERSION-OS-ARCH.tar.gz (.zip for Windows)
	SHA256   string
}

// Release is what the formula and the manifest are written from.
type Release struct {
	Version  string
	URL      string // the archives' directory, without a trailing slash
	Archives []Archive
}

var (
	sumLine  = regexp.MustCompile(`^([0-9a-f]{64})  \*?(\S+)$`)
	fileName = regexp.MustCompile(`^bn-(.+)-(linux|darwin|windows)-(amd64|arm64)\.(tar\.gz|zip)$`)
)

// parseSums reads sha256sum's output, refusing a line it cannot read and
// an archive of another version.
func parseSums(data []byte, version string) ([]Archive, error) {
	var out []Archive
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		m := sumLine.FindStringSubmatch(sc.Text())
		if m == nil {
			return nil, fmt.Errorf("line %d: %q is not \"SHA256  FILE\"", n, sc.Text())
		}
		f := fileName.FindStringSubmatch(m[2])
		if f == nil {
			return nil, fmt.Errorf("line %d: %q is not a release archive (bn-VERSION-OS-ARCH.tar.gz or .zip)", n, m[2])
		}
		if f[1] != version {
			return nil, fmt.Errorf("line %d: %s is of version %s, not %s", n, m[2], f[1], version)
		}
		out = append(out, Archive{OS: f[2], Arch: f[3], File: m[2], SHA256: m[1]})
	}
	return out, sc.Err()
}

// find returns the archive for a platform.
func (r Release) find(os, arch string) (Archive, error) {
	for _, a := range r.Archives {
		if a.OS == os && a.Arch == arch {
			return a, nil
		}
	}
	return Archive{}, fmt.Errorf("no %s/%s archive among the checksums", os, arch)
}

// dir is the directory an archive unpacks to.
func (a Archive) dir() string {
	return strings.TrimSuffix(strings.TrimSuffix(a.File, ".zip"), ".tar.gz")
}

var formula = template.Must(template.New("bn.rb").Parse(`# Homebrew formula for bn {{.Version}}, written by make dist.
class Bn < Formula
  desc "{{.Desc}}"
  homepage "{{.Homepage}}"
  version "{{.Plain}}"
  license "MIT"

  RELEASE_URL = "{{.URL}}".freeze
{{range .OSes}}
  on_{{.Name}} do
{{- range .Archs}}
    on_{{.Name}} do
      url "#{RELEASE_URL}/{{.File}}"
      sha256 "{{.SHA256}}"
    end
{{- end}}
  end
{{end}}
  def install
    bin.install "bn", "bn-mcp", "bn-verify", "bn-agent"
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/bn --version")
  end
end
`))

// Formula is the Homebrew formula: one archive per OS and processor.
func (r Release) Formula() ([]byte, error) {
	type arch struct {
		Name string
		Archive
	}
	type osBlock struct {
		Name  string
		Archs []arch
	}
	var oses []osBlock
	for _, os := range []struct{ brew, goos string }{{"macos", "darwin"}, {"linux", "linux"}} {
		b := osBlock{Name: os.brew}
		for _, a := range []struct{ brew, goarch string }{{"arm", "arm64"}, {"intel", "amd64"}} {
			ar, err := r.find(os.goos, a.goarch)
			if err != nil {
				return nil, err
			}
			b.Archs = append(b.Archs, arch{a.brew, ar})
		}
		oses = append(oses, b)
	}
	var buf bytes.Buffer
	err := formula.Execute(&buf, map[string]any{
		"Version": r.Version, "Plain": strings.TrimPrefix(r.Version, "v"), "Desc": description,
		"Homepage": homepage, "URL": r.URL, "OSes": oses,
	})
	return buf.Bytes(), err
}

// homepage is bn's repository.
const homepage = "https://github.com/binnacle-dev/bn"

// Scoop is the Scoop manifest for the Windows archive.
func (r Release) Scoop() ([]byte, error) {
	a, err := r.find("windows", "amd64")
	if err != nil {
		return nil, err
	}
	type arch struct {
		URL        string `json:"url"`
		Hash       string `json:"hash"`
		ExtractDir string `json:"extract_dir"`
	}
	m := struct {
		Version      string          `json:"version"`
		Description  string          `json:"description"`
		Homepage     string          `json:"homepage"`
		License      string          `json:"license"`
		Architecture map[string]arch `json:"architecture"`
		Bin          string          `json:"bin"`
	}{
		Version: strings.TrimPrefix(r.Version, "v"), Description: description, Homepage: homepage, License: "MIT",
		Architecture: map[string]arch{"64bit": {URL: r.URL + "/" + a.File, Hash: a.SHA256, ExtractDir: a.dir()}},
		// bn finds bn-mcp and bn-verify beside itself: Scoop's shim
		// starts the bn.exe in the app's directory.
		Bin: "bn.exe",
	}
	b, err := json.MarshalIndent(m, "", "    ")
	if err != nil {
		return nil, err
	}
	if err := validateScoop(b); err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// scoopSchema is Scoop's manifest schema (scoop/SOURCE says from where).
//
//go:embed scoop/schema.json
var scoopSchema []byte

// validateScoop checks a manifest against Scoop's schema.
func validateScoop(manifest []byte) error {
	var schema jsonschema.Schema
	if err := json.Unmarshal(scoopSchema, &schema); err != nil {
		return fmt.Errorf("scoop/schema.json: %w", err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return fmt.Errorf("scoop/schema.json: %w", err)
	}
	var v any
	if err := json.Unmarshal(manifest, &v); err != nil {
		return err
	}
	if err := resolved.Validate(v); err != nil {
		return fmt.Errorf("the Scoop manifest does not follow Scoop's schema: %w", err)
	}
	return nil
}
