package dialect

import (
	"embed"
	"encoding/json"
	"strings"
	"sync"
)

// schemas are the agent-file schemas of the clients built on OpenCode,
// as the pinned clients publish them (schema/README.md): what their
// files may say.
//
//go:embed schema/*.json
var schemas embed.FS

// Schema returns the JSON Schema of a tool's agent-file frontmatter, as
// its pinned client publishes it, or nil when bn holds none.
func Schema(tool string) []byte {
	b, err := schemas.ReadFile("schema/" + tool + ".json")
	if err != nil {
		return nil
	}
	return b
}

// actionOnly are the permission keys of a tool's schema that take an
// action (allow, ask, deny) and no map of patterns.
var actionOnly = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	entries, _ := schemas.ReadDir("schema")
	for _, e := range entries {
		tool, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		var doc struct {
			Defs struct {
				PermissionConfig struct {
					AnyOf []struct {
						Properties map[string]struct {
							Ref string `json:"$ref"`
						} `json:"properties"`
					} `json:"anyOf"`
				} `json:"PermissionConfig"`
			} `json:"$defs"`
		}
		if json.Unmarshal(Schema(tool), &doc) != nil {
			continue
		}
		for _, branch := range doc.Defs.PermissionConfig.AnyOf {
			for key, p := range branch.Properties {
				if strings.HasSuffix(p.Ref, "/PermissionActionConfig") {
					out[tool] = append(out[tool], key)
				}
			}
		}
	}
	return out
})
