package export

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
	"github.com/pelletier/go-toml/v2"
)

// Trust does what a tool needs, besides the files, to load a project's
// agents: Codex wants the project marked trusted in ~/.codex/config.toml;
// the Gemini CLI wants the folder trusted and each agent acknowledged by
// the hash of its file. Other tools need nothing. Existing settings are
// kept; the files are edited in place.
func Trust(rep *TargetReport, root, home string) error {
	switch rep.Target {
	case "codex":
		return trustCodex(root, filepath.Join(home, ".codex", "config.toml"))
	case "gemini":
		return trustGemini(rep, root, filepath.Join(home, ".gemini"))
	}
	return nil
}

func trustCodex(root, path string) error {
	old, err := files.Read(path, files.MaxConfigFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s %w", path, err)
	}
	var cfg struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
	}
	if err := toml.Unmarshal(old, &cfg); err != nil {
		return fmt.Errorf("%s: %v; fix the file (bn left it untouched)", path, err)
	}
	if p, ok := cfg.Projects[root]; ok {
		if p.TrustLevel == "trusted" {
			return nil
		}
		return fmt.Errorf("%s gives %s trust_level %q; set it to \"trusted\" for Codex to load the project's agents", path, root, p.TrustLevel)
	}
	text := string(old)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if text != "" {
		text += "\n"
	}
	key, _ := toml.Marshal(map[string]string{"k": root}) // a quoted TOML key
	quoted := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(key)), "k ="))
	text += "[projects." + quoted + "]\ntrust_level = \"trusted\"\n"
	_, err = emit.WriteFileAtomic(path, []byte(text), 0o600)
	return err
}

func trustGemini(rep *TargetReport, root, dir string) error {
	if err := setJSON(filepath.Join(dir, "trustedFolders.json"), []string{root}, "TRUST_FOLDER"); err != nil {
		return err
	}
	for _, f := range rep.plan.Files {
		if f.Action == emit.Remove || f.Action == emit.Stale || f.Agent == "" {
			continue
		}
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		name := strings.TrimSuffix(filepath.Base(f.Path), ".md")
		if err := setJSON(filepath.Join(dir, "acknowledgments", "agents.json"), []string{root, name}, hex.EncodeToString(sum[:])); err != nil {
			return err
		}
	}
	return nil
}

// setJSON sets one member of a JSON file, keeping everything else.
func setJSON(path string, keys []string, value any) error {
	old, err := files.Read(path, files.MaxConfigFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s %w", path, err)
	}
	out, err := emit.SetMember(old, keys, value)
	if err != nil {
		return fmt.Errorf("%s: %w; fix the file (bn left it untouched)", path, err)
	}
	if len(old) == 0 || strings.HasSuffix(string(old), "\n") {
		out = []byte(strings.TrimRight(string(out), "\n") + "\n")
	}
	_, err = emit.WriteFileAtomic(path, out, 0o600)
	return err
}
