package dialect

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/frontmatter"
	"github.com/goccy/go-yaml"
	"github.com/google/jsonschema-go/jsonschema"
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

// resolvedSchemas are the tools' schemas, resolved once, by tool.
var resolvedSchemas = sync.OnceValue(func() map[string]*jsonschema.Resolved {
	out := map[string]*jsonschema.Resolved{}
	entries, _ := schemas.ReadDir("schema")
	for _, e := range entries {
		tool, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		var s jsonschema.Schema
		if json.Unmarshal(Schema(tool), &s) != nil {
			continue
		}
		if r, err := s.Resolve(nil); err == nil {
			out[tool] = r
		}
	}
	return out
})

// FitSchema checks a file bn is about to write against the schema of the
// tool's pinned client, where bn holds one: a file the schema rejects
// makes the client load no agent of the project, so it is never written.
func FitSchema(info *Info, content []byte) error {
	schema := resolvedSchemas()[info.Name]
	if schema == nil {
		return nil
	}
	md, err := frontmatter.Split(content)
	if err != nil {
		return err
	}
	var v any
	if err := yaml.Unmarshal(md.YAML, &v); err != nil {
		return err
	}
	// The schema validates JSON's values: numbers as float64, maps of
	// strings.
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var instance any
	if err := json.Unmarshal(b, &instance); err != nil {
		return err
	}
	if err := schema.Validate(instance); err != nil {
		return fmt.Errorf("bn would write a file %s's schema (%s) rejects, and %s would then load no agent of the project: %v; this is a bn bug, please report it", info.Title, info.Client, info.Title, err)
	}
	return nil
}
