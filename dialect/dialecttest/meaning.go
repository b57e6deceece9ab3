package dialecttest

import (
	"fmt"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
)

// Meaning compares a definition with the file a tool's writer made of it,
// as the same tool's reader reads the file back, and lists every broken
// promise:
//   - an unrestricted agent stays unrestricted, or the change is reported;
//   - read access is never lost;
//   - a kind denied outright is never granted where the tool has tool
//     lists, reported or not;
//   - no capability is granted beyond the definition (a denied kind, or a
//     kind the definition limits to patterns the file does not keep)
//     without a reported widening (a name the client hides beside
//     another the file grants, Claude Code's Glob beside Bash, grants
//     nothing);
//   - an MCP server or tool the definition denies is not granted without
//     a reported widening;
//   - the model reads back as the same model in the tool's own spelling,
//     or is left out with a reported loss.
func Meaning(def agents.Definition, info *dialect.Info, out dialect.Rendered, back *dialect.Imported, cat *agents.Catalog) []string {
	var problems []string
	fail := func(format string, args ...any) {
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	reported := func(kind string) bool {
		return slices.ContainsFunc(out.Losses, func(l dialect.Loss) bool { return l.Kind == kind })
	}
	// A widening says what it grants (a policy's deny is checked against
	// that): the one reported must grant req.
	widened := func(req agents.ToolPattern) bool {
		return slices.ContainsFunc(out.Losses, func(l dialect.Loss) bool { return l.Kind == dialect.Widened && l.GrantsAny(req) })
	}
	// A limit a hook enforces is kept: the file grants more, and the hook
	// refuses the rest.
	enforced := reported(dialect.Enforced)
	if def.Tools.All && !back.Def.Tools.All && !reported(dialect.Dropped) && !reported(dialect.Widened) {
		fail("an unrestricted agent lost tools with no loss reported (now %+v)", back.Def.Tools)
	}
	backRules := back.Def.Tools.Normalize()
	for _, ki := range agents.Kinds {
		req := agents.ToolPattern{Kind: string(ki.Kind)}
		was := agents.Decide(def.Tools, req).Allowed
		now := agents.Decide(back.Def.Tools, req).Allowed
		if ki.Kind == agents.KindRead && was && !now {
			fail("read access lost")
		}
		// The patterns limiting this kind, and whether the file kept them.
		var limits []string
		for _, p := range append(slices.Clone(def.Tools.Allow), def.Tools.Deny...) {
			tp, err := agents.ParseToolPattern(p)
			if err == nil && tp.HasArg && slices.Contains(tp.Kinds(), ki.Kind) {
				limits = append(limits, p)
			}
		}
		kept := true
		for _, p := range (agents.Tools{Allow: limits}).Normalize().Allow {
			kept = kept && (slices.Contains(backRules.Allow, p) || slices.Contains(backRules.Deny, p))
		}
		deniedWhole := slices.ContainsFunc(def.Tools.Deny, func(d string) bool {
			tp, err := agents.ParseToolPattern(d)
			return err == nil && !tp.HasArg && slices.Contains(tp.Kinds(), ki.Kind)
		})
		if now && deniedWhole && len(info.Vocabulary) > 0 {
			fail("%s is denied outright, yet the %s file grants it", ki.Kind, info.Title)
		}
		if now && (!was || !kept) && !widened(req) && !(enforced && def.Tools.Uses(ki.Kind)) && !hidden(info, back.Def.Tools, ki.Kind) {
			fail("%s is granted beyond the definition (allowed before: %v; limits %v kept: %v) with no widening reported", ki.Kind, was, limits, kept)
		}
	}
	// MCP servers and tools the definition names: none granted beyond it.
	for _, p := range append(slices.Clone(def.Tools.Allow), def.Tools.Deny...) {
		req, err := agents.ParseToolPattern(p)
		if err != nil || req.Kinds() != nil {
			continue
		}
		if _, _, native := agents.NativeTool(req); native {
			continue
		}
		was := agents.Decide(def.Tools, req).Allowed
		now := agents.Decide(back.Def.Tools, req).Allowed
		if now && !was && !widened(req) {
			fail("MCP %s is granted beyond the definition with no widening reported", p)
		}
	}
	if def.Model != "" {
		problems = append(problems, modelProblems(&def, info, out, back, cat)...)
	}
	return problems
}

// hidden says whether the client offers no name that grants k, as the file
// reads: each is hidden by a kind the file grants (dialect.Word.HiddenBy;
// Claude Code offers no Glob beside Bash), so k is not granted through it.
func hidden(info *dialect.Info, tools agents.Tools, k agents.Kind) bool {
	some := false
	for _, w := range info.Vocabulary {
		if w.Legacy || !slices.Contains(w.Kinds, k) {
			continue
		}
		if w.HiddenBy == "" || !tools.Uses(w.HiddenBy) {
			return false
		}
		some = true
	}
	return some
}

func modelProblems(def *agents.Definition, info *dialect.Info, out dialect.Rendered, back *dialect.Imported, cat *agents.Catalog) []string {
	model := def.Model
	dropped := slices.ContainsFunc(out.Losses, func(l dialect.Loss) bool { return l.Field == "model" && l.Kind == dialect.Dropped })
	e, known := cat.Lookup(model, "")
	if !known {
		if back.Def.Model == model && ownSpelling(def, info.Name, model) {
			return nil // read from this tool's file: written back as it was
		}
		if back.Def.Model != "" || !dropped {
			return []string{fmt.Sprintf("model %q is not in the catalog, yet was written (%q) or left out unreported", model, back.Def.Model)}
		}
		return nil
	}
	sp, ok := e.Spelling(info.ModelTool(e))
	if !ok {
		if back.Def.Model != "" || !dropped {
			return []string{fmt.Sprintf("model %q, which %s cannot run, was written or left out unreported", model, info.Title)}
		}
		return nil
	}
	// The file may keep the tool's own spelling read from it (a display
	// name, an alias): it must read back as the same model there.
	be, ok := cat.Lookup(back.Def.Model, info.Name)
	if ok {
		if bsp, _ := be.Spelling(info.ModelTool(be)); be.ID == e.ID || bsp == sp {
			return nil
		}
	}
	return []string{fmt.Sprintf("model %q reads back as %q", model, back.Def.Model)}
}

// ownSpelling: the definition keeps the tool's own spelling of the model,
// so it was read from that tool's file.
func ownSpelling(def *agents.Definition, tool, model string) bool {
	fields := def.TargetOf(tool).Fields
	for _, k := range fields.Keys {
		if v, _ := fields.Get(k); fmt.Sprint(v) == model {
			return true
		}
	}
	return false
}
