package dialect

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// Colours: Claude Code names eight, OpenCode takes #rrggbb or its theme's
// names. Crossing between them maps a name to its hex value and a hex
// value to the nearest name, reported as a change.
var namedColors = []struct{ name, hex string }{
	{"red", "#ef4444"}, {"blue", "#3b82f6"}, {"green", "#22c55e"}, {"yellow", "#eab308"},
	{"purple", "#a855f7"}, {"orange", "#f97316"}, {"pink", "#ec4899"}, {"cyan", "#06b6d4"},
}

func readColor(im *Imported, tool string, v any) {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		im.drop("color %v not imported: expects a colour name or #rrggbb", v)
		return
	}
	im.Def.Color = s
}

// writeColor writes the definition's colour as one of names (Claude) or,
// when names is nil, as a hex value or theme name (OpenCode).
func writeColor(def *agents.Definition, info *Info, names []string) (string, []Loss) {
	c := def.Color
	if names != nil {
		if slices.Contains(names, strings.ToLower(c)) {
			return strings.ToLower(c), nil
		}
		if rgb, ok := parseHex(c); ok {
			best, bestDist := "", math.MaxFloat64
			for _, nc := range namedColors {
				n, _ := parseHex(nc.hex)
				d := 0.0
				for i := range rgb {
					d += (rgb[i] - n[i]) * (rgb[i] - n[i])
				}
				if d < bestDist {
					best, bestDist = nc.name, d
				}
			}
			return best, []Loss{{Field: "color", Kind: Changed, Detail: fmt.Sprintf("%s names its colours; %s written for %s", info.Title, best, c)}}
		}
		return "", []Loss{{Field: "color", Kind: Dropped, Detail: fmt.Sprintf("colour %q is not one of %s's: %s", c, info.Title, strings.Join(names, ", "))}}
	}
	if _, ok := parseHex(c); ok || slices.Contains(openCodeThemeColors, c) {
		return c, nil
	}
	for _, nc := range namedColors {
		if strings.EqualFold(nc.name, c) {
			return nc.hex, []Loss{{Field: "color", Kind: Changed, Detail: fmt.Sprintf("%s takes #rrggbb; %s written for %s", info.Title, nc.hex, c)}}
		}
	}
	return "", []Loss{{Field: "color", Kind: Dropped, Detail: fmt.Sprintf("colour %q is neither #rrggbb nor one of %s's theme colours", c, info.Title)}}
}

var openCodeThemeColors = []string{"primary", "secondary", "accent", "success", "warning", "error", "info"}

func parseHex(s string) ([3]float64, bool) {
	if len(s) != 7 || s[0] != '#' {
		return [3]float64{}, false
	}
	var out [3]float64
	for i := 0; i < 3; i++ {
		n, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return [3]float64{}, false
		}
		out[i] = float64(n)
	}
	return out, true
}

// readMCPServers reads per-agent MCP servers: a mapping of name to
// settings (Copilot, Gemini, Codex), or a list of names and one-key
// mappings (Claude Code). Settings are kept under bn's names (MCPKeys).
func readMCPServers(im *Imported, info *Info, v any) {
	err := agents.EachMCPServer(v, func(name string, cfg any) {
		srv := agents.MCPServer{Name: name}
		if cfg != nil {
			m, ok := cfg.(*agents.Map)
			if !ok {
				im.drop("MCP server %q not imported: its settings are not a mapping", name)
				return
			}
			srv.Config = mcpFromNative(m, info)
		}
		im.Def.MCPServers = append(im.Def.MCPServers, srv)
	})
	if err != nil {
		im.drop("MCP servers not imported: %v", err)
	}
}

// mcpServerList writes def's servers as Claude Code lists them.
func mcpServerList(def *agents.Definition, info *Info) ([]any, []Loss) {
	out := make([]any, 0, len(def.MCPServers))
	var losses []Loss
	for _, s := range def.MCPServers {
		if s.Config == nil {
			out = append(out, s.Name)
			continue
		}
		cfg, l := mcpToNative(s, def.Tools, info)
		losses = append(losses, l...)
		m := &agents.Map{}
		m.Set(s.Name, cfg)
		out = append(out, m)
	}
	return out, losses
}

// mcpServerMap writes def's servers as a mapping of name to settings;
// servers configured elsewhere cannot be named there.
func mcpServerMap(def *agents.Definition, info *Info) (*agents.Map, []Loss) {
	m := &agents.Map{}
	var losses []Loss
	for _, s := range def.MCPServers {
		if s.Config == nil {
			losses = append(losses, Loss{Field: "mcp-servers", Kind: Dropped,
				Detail: fmt.Sprintf("MCP server %q is named without its settings, which %s agent files need", s.Name, info.Title)})
			continue
		}
		cfg, l := mcpToNative(s, def.Tools, info)
		losses = append(losses, l...)
		m.Set(s.Name, cfg)
	}
	return m, losses
}

// MCP server settings bn gives a meaning to.
const (
	mcpType  = "type" // stdio, http or sse
	mcpTools = "tools"
	// mcpExclude is the server's tools the agent is not given.
	mcpExclude = "exclude-tools"
	// mcpEnabled false turns the server off (Codex).
	mcpEnabled = "enabled"
	mcpURL     = "url"
)

// mcpFromNative renames a tool's MCP server settings to bn's names
// (info.MCPKeys); settings bn has no name for keep the tool's. A URL
// under the tool's streamable-HTTP key becomes url with type http.
func mcpFromNative(m *agents.Map, info *Info) *agents.Map {
	out := &agents.Map{}
	for _, k := range m.Keys {
		name := k
		for _, key := range info.MCPKeys {
			if key.Native == k {
				name = key.BN
			}
		}
		if info.MCPHTTPURL != "" && k == info.MCPHTTPURL {
			name = mcpURL
			if _, typed := m.Get(mcpType); !typed {
				out.Set(mcpType, "http")
			}
		}
		out.Set(name, m.Values[k])
	}
	return out
}

// mcpToNative writes a server's settings as the tool names them. A
// setting the tool's agent files have no key for is left out with a loss,
// never written under a name the tool would reject; the transport is
// left out where the tool tells it from command or url, and a tools list
// of "*" where every tool is what the tool gives anyway. A list of the
// server's tools, or its turning off, left out where tools (the agent's)
// grant the server whole gives the agent every tool it offers: widened.
func mcpToNative(s agents.MCPServer, tools agents.Tools, info *Info) (*agents.Map, []Loss) {
	out := &agents.Map{}
	var losses []Loss
	typ, _ := s.Config.Get(mcpType)
	for _, k := range s.Config.Keys {
		v := s.Config.Values[k]
		native, ok := info.mcpNative(k)
		if !ok && slices.ContainsFunc(info.MCPKeys, func(key MCPKey) bool { return key.Native == k }) {
			native, ok = k, true // already the tool's own name
		}
		switch {
		case k == mcpType && !ok:
			continue
		case k == mcpType && v == "local" && !slices.Contains(info.MCPTypes, "local"):
			v = "stdio" // Copilot's other name for it
		case k == mcpTools && isEveryTool(v) && !info.MCPStarTools:
			continue // every tool: what a server gives where no list is written
		case k == mcpURL && typ == "http" && info.MCPHTTPURL != "":
			native = info.MCPHTTPURL
		}
		if str, one := v.(string); one && k == "args" {
			v = []any{str} // KDL's one argument; every tool wants a list
		}
		if !ok {
			loss := Loss{Field: "mcp-servers", Kind: Dropped,
				Detail: fmt.Sprintf("MCP server %q: setting %q has no place in %s agent files", s.Name, k, info.Title)}
			whole, _ := agents.ParseToolPattern(agents.MCPPattern(s.Name, ""))
			switch granted := agents.Decide(tools, whole).Allowed; {
			case granted && (k == mcpTools || k == mcpExclude):
				loss.Kind = Widened
				loss.Detail += ", so the agent has every tool the server offers"
			case granted && k == mcpEnabled && v == false:
				loss.Kind = Widened
				loss.Detail += ", so the agent has the server, which the definition turns off, and every tool it offers"
			}
			losses = append(losses, loss)
			continue
		}
		out.Set(native, v)
	}
	if info.MCPRequired {
		if _, ok := out.Get(mcpTools); !ok {
			out.Set(mcpTools, []any{"*"})
		}
		if _, ok := out.Get(mcpType); !ok {
			t := "http"
			if _, local := s.Config.Get("command"); local {
				t = "stdio"
			}
			out.Set(mcpType, t)
		}
	}
	return out, losses
}

func isEveryTool(v any) bool {
	l, ok := v.([]any)
	return ok && len(l) == 1 && l[0] == "*"
}

// Slug maps a name to lower-case letters, digits, '-' and '_' (Gemini):
// CSharpExpert becomes csharp-expert, powershell-5.1-expert
// powershell-5-1-expert.
func Slug(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r >= 'A' && r <= 'Z':
			// A word starts at a capital after a lower-case letter or a
			// digit, or at the last capital of a run that a lower-case
			// letter follows (HTMLParser: html-parser).
			if i > 0 && b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
				if prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9' || (prev >= 'A' && prev <= 'Z' && nextLower && i >= 2) {
					b.WriteByte('-')
				}
			}
			b.WriteRune(r + 'a' - 'A')
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_':
			b.WriteRune(r)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		}
	}
	return strings.Trim(b.String(), "-")
}

// readSkills reads the skills an agent loads (the key skills, as
// Claude Code and the tools that follow it name it).
func readSkills(f *fields, im *Imported) error {
	if v, ok := f.keep(im, im.Format, "skills"); ok {
		im.Def.Skills = stringList(v)
	}
	return nil
}

// writeSkills writes the skills, as the file spelled them when they are
// still the same.
func writeSkills(d *frontmatterDoc, def *agents.Definition, info *Info) {
	if hint, ok := def.TargetOf(info.Name).Fields.Get("skills"); ok && slices.Equal(stringList(hint), def.Skills) {
		d.set("skills", hint)
	} else if len(def.Skills) > 0 {
		d.set("skills", def.Skills)
	}
}
