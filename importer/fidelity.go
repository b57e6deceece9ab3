package importer

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
)

// FileFidelity compares one source agent file with bn's output for the
// same agent, read back by the same tool's reader: meaning, not spelling.
type FileFidelity struct {
	Source     string   `json:"source"`
	Target     string   `json:"target"`
	Agent      string   `json:"agent"`
	Status     string   `json:"status"`
	Fidelity   float64  `json:"fidelity"`
	Changed    int      `json:"changed_lines"`
	Whitespace int      `json:"whitespace_lines"`
	Total      int      `json:"total_lines"`
	Fields     []string `json:"fields"`
	// ChangedFields and TotalFields count the fields compared.
	ChangedFields int    `json:"changed_fields"`
	TotalFields   int    `json:"total_fields"`
	Diff          string `json:"diff,omitempty"`
	// Note says what bn's side is when it is not the file on disk as
	// export wrote it (not exported yet, out of date, edited by hand), or
	// that the original changed since import recorded it.
	Note string `json:"note,omitempty"`
}

// FidelityReport is the whole comparison.
type FidelityReport struct {
	Files     []FileFidelity `json:"files"`
	Skipped   []Skipped      `json:"skipped"`
	Overall   float64        `json:"overall"`
	Agents    int            `json:"agents"`
	FailBelow float64        `json:"fail_below"`
	Passed    bool           `json:"passed"`
}

// FidelityOptions say what to compare.
type FidelityOptions struct {
	// Source is a directory (or file) of originals; Originals, when
	// Source is empty, are those an import recorded, read where they are
	// now (moved aside or not) and checked against their hash.
	Source    string
	Originals []Original
	Target    string // directory of bn's output; empty: each tool's directory in Root
	Root      string
	Cwd       string
	From      dialect.Dialect
	Registry  dialect.Registry
	Catalog   *agents.Catalog
	Diff      bool
	// Display shortens paths for the report.
	Display func(string) string
	// Render is what export would write now for an agent, and its id in
	// the tool (nil: compare with the files on disk only). bn's side is
	// the file on disk when it was edited by hand since export (what the
	// tool loads), else what export writes now, so an edit on either side
	// of bn counts.
	Render func(d dialect.Dialect, agent string) (content []byte, id string, err error)
}

// original is one source file to compare, with what the record says of it.
type original struct {
	file   File
	format dialect.Dialect
	note   string
}

// Fidelity compares every agent file under the source directory with the
// file bn wrote for the same agent. Per file it is (1 - changed / total)
// × 100, counting prompt lines (whitespace-only changes apart) and fields
// (description, tool access, model, every other field both sides hold,
// and each field the import did not carry) alike, so an agent whose tool
// access changed is never 100%.
func Fidelity(opts FidelityOptions) (FidelityReport, error) {
	report := FidelityReport{Files: []FileFidelity{}, Skipped: []Skipped{}}
	display := opts.Display
	if display == nil {
		display = func(s string) string { return s }
	}
	var sources []original
	if opts.Source != "" {
		files, skipped, err := Collect([]string{opts.Source}, opts.Cwd, opts.Root, "")
		if err != nil {
			return report, err
		}
		report.Skipped = append(report.Skipped, skipped...)
		for _, f := range files {
			sources = append(sources, original{file: f, format: opts.From})
		}
	}
	for _, o := range opts.Originals {
		if o.Companion != "" {
			continue // read with its agent's file, from beside it
		}
		d, ok := opts.Registry.Lookup(o.Format)
		if !ok {
			report.Skipped = append(report.Skipped, Skipped{o.File, fmt.Sprintf("recorded as %q, a tool bn does not know", o.Format)})
			continue
		}
		sources = append(sources, original{file: File{Path: o.Path(opts.Root), Rel: filepath.FromSlash(o.Rel)}, format: d, note: o.SHA256})
	}
	changed, total := 0, 0
	for _, s := range sources {
		src := s.file
		data, err := Read(src)
		if err != nil {
			report.Skipped = append(report.Skipped, Skipped{display(src.Path), err.Error()})
			continue
		}
		if opts.Source != "" && emit.IsGenerated(data) {
			// bn's own file is no original: compared with bn's output it
			// would only measure bn against itself.
			report.Skipped = append(report.Skipped, Skipped{display(src.Path), "bn wrote it, so it is no original; compare with the originals import recorded: bn config agents diff"})
			continue
		}
		d := s.format
		if d == nil {
			d = opts.Registry.Detect(src.Path, data)
		}
		info := d.Info()
		if !info.Exports {
			report.Skipped = append(report.Skipped, Skipped{display(src.Path), fmt.Sprintf("bn does not write %s files, so there is no output to compare", info.Title)})
			continue
		}
		a, err := d.Read(dialect.Source{Path: src.Path, Rel: src.Rel, Data: data}, opts.Catalog)
		if err != nil {
			report.Skipped = append(report.Skipped, Skipped{display(src.Path), err.Error()})
			continue
		}
		dir := opts.Target
		if dir == "" {
			dir = filepath.Join(opts.Root, filepath.FromSlash(info.Dir))
		} else if !filepath.IsAbs(dir) {
			dir = filepath.Join(opts.Cwd, dir)
		}
		id := a.Def.Name
		if t := a.Def.Targets[info.Name]; t != nil && t.ID != "" {
			id = t.ID
		}
		var rendered []byte
		var renderErr error
		if opts.Render != nil && opts.Target == "" {
			var rid string
			if rendered, rid, renderErr = opts.Render(d, a.Def.Name); renderErr == nil {
				id = rid
			}
		}
		targetPath := filepath.Join(dir, filepath.FromSlash(id)+info.Ext)
		f := FileFidelity{Source: display(src.Path), Target: display(targetPath), Agent: a.Def.Name, Fields: []string{}}
		var out *dialect.Imported
		out, f.Note, err = bnSide(d, targetPath, id+info.Ext, src.Path, opts.Catalog, rendered, renderErr)
		if s.note != "" && Hash(data) != s.note {
			f.Note = strings.TrimPrefix(f.Note+"; the original changed since import recorded it", "; ")
		}
		if err != nil {
			lines := strings.Count(strings.TrimSpace(a.Def.Prompt), "\n") + 1
			f.Status = "no output: " + err.Error()
			f.Changed, f.Total = lines, lines
		} else {
			compare(&f, info, a, out, opts.Diff)
		}
		changed += f.Changed + f.ChangedFields
		total += f.Total + f.TotalFields
		report.Files = append(report.Files, f)
	}
	report.Agents = len(report.Files)
	report.Overall = 100
	if total > 0 {
		report.Overall = (1 - float64(changed)/float64(total)) * 100
	}
	return report, nil
}

func readOutput(d dialect.Dialect, path, rel string, cat *agents.Catalog) (*dialect.Imported, error) {
	data, err := Read(File{Path: path, Rel: rel})
	if err != nil {
		return nil, err
	}
	return d.Read(dialect.Source{Path: path, Rel: rel, Data: data}, cat)
}

// bnSide reads bn's side of a comparison: the file on disk when it was
// edited by hand since export wrote it (the tool loads that), else what
// export writes now (rendered), else the file on disk. The original itself,
// still where bn writes its file (its name is its agent's), is not bn's
// file: before export, that would compare the original with itself.
func bnSide(d dialect.Dialect, path, rel, original string, cat *agents.Catalog, rendered []byte, renderErr error) (*dialect.Imported, string, error) {
	disk, diskErr := Read(File{Path: path, Rel: rel})
	if diskErr == nil && rendered != nil && sameFile(path, original) {
		diskErr = fs.ErrNotExist
	}
	switch {
	case rendered == nil && renderErr != nil && diskErr != nil:
		return nil, "", renderErr
	case rendered == nil:
		out, err := readOutput(d, path, rel, cat)
		return out, "", err
	case diskErr == nil && (!emit.IsGenerated(disk) || emit.HandEdited(disk)):
		out, err := d.Read(dialect.Source{Path: path, Rel: rel, Data: disk}, cat)
		return out, "bn's file was edited by hand since export: compared as it is", err
	}
	note := ""
	switch {
	case diskErr != nil:
		note = "not exported yet: compared with what export writes"
	case !bytes.Equal(disk, rendered):
		note = "out of date: compared with what export writes now"
	}
	out, err := d.Read(dialect.Source{Path: path, Rel: rel, Data: rendered}, cat)
	return out, note, err
}

// sameFile reports whether a and b are one file, however spelled (a
// case-insensitive file system, a symbolic link).
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// compare fills f from a source agent and bn's output for it.
func compare(f *FileFidelity, info *dialect.Info, src, out *dialect.Imported, withDiff bool) {
	body := CompareBodies(src.Def.Prompt, out.Def.Prompt, f.Source, f.Target)
	f.Changed, f.Whitespace, f.Total = body.Changed, body.Whitespace, body.Total
	if withDiff {
		f.Diff = body.Unified
	}
	changes, total := compareFields(info, src, out)
	f.Fields = append(f.Fields, changes...)
	f.ChangedFields, f.TotalFields = len(changes), total
	for _, d := range src.Dropped {
		f.Fields = append(f.Fields, "not carried: "+d)
		f.ChangedFields++
		f.TotalFields++
	}
	lines, fields := f.Total, f.TotalFields
	if lines+fields == 0 {
		f.Fidelity = 100
	} else {
		f.Fidelity = (1 - float64(f.Changed+f.ChangedFields)/float64(lines+fields)) * 100
	}
	switch {
	case f.ChangedFields > 0 && f.Changed > 0:
		f.Status = fmt.Sprintf("%d fields and %d lines differ", f.ChangedFields, f.Changed)
	case f.ChangedFields > 0:
		f.Status = fmt.Sprintf("%d fields differ", f.ChangedFields)
	default:
		f.Status = body.Status()
	}
}

// compareFields compares every field either side holds — description,
// tool access, each of bn's fields, MCP servers, and the tool's own
// fields (not its spellings of bn's) — and lists, in words, each one
// whose meaning differs.
func compareFields(info *dialect.Info, src, out *dialect.Imported) (changes []string, total int) {
	differ := func(field, a, b string) {
		changes = append(changes, fmt.Sprintf("%s: %s became %s", field, a, b))
	}
	total = 2 // description and tool access are always compared
	if src.Def.Description != out.Def.Description {
		differ("description", quoteOr(src.Def.Description), quoteOr(out.Def.Description))
	}
	if !src.Def.Tools.Equal(out.Def.Tools) {
		differ("tools", DescribeTools(src.Def.Tools), DescribeTools(out.Def.Tools))
	}
	for _, fd := range agents.Fields {
		if fd == agents.FieldDescription {
			continue
		}
		a, aset := fd.Get(&src.Def)
		b, bset := fd.Get(&out.Def)
		if fd == agents.FieldHidden {
			aset, bset = a == true, b == true
		}
		if !aset && !bset {
			continue
		}
		total++
		if aset != bset || fmt.Sprint(a) != fmt.Sprint(b) {
			differ(fd.Name, quoteOr(valueText(a, aset)), quoteOr(valueText(b, bset)))
		}
	}
	if len(src.Def.MCPServers)+len(out.Def.MCPServers) > 0 {
		total++
		if !sameServers(src.Def.MCPServers, out.Def.MCPServers) {
			differ("mcp-servers", serverNames(src.Def.MCPServers), serverNames(out.Def.MCPServers))
		}
	}
	st, ot := src.Def.TargetOf(info.Name), out.Def.TargetOf(info.Name)
	for _, k := range unionKeys(st.Fields.Keys, ot.Fields.Keys) {
		if info.IsHint(k) {
			continue
		}
		total++
		a, aok := st.Fields.Get(k)
		b, bok := ot.Fields.Get(k)
		if aok != bok || !agents.EqualData(a, b) {
			differ(k, dataText(a, aok), dataText(b, bok))
		}
	}
	return changes, total
}

// DescribeTools says what an agent may use: "every tool", "no tools", or
// its allow list; then its deny rules.
func DescribeTools(t agents.Tools) string {
	var s string
	switch t.Access() {
	case "all":
		s = "every tool"
	case "none":
		s = "no tools"
	default:
		s = "[" + strings.Join(t.Allow, ", ") + "]"
	}
	if len(t.Deny) > 0 {
		s += " except [" + strings.Join(t.Deny, ", ") + "]"
	}
	return s
}

func unionKeys(a, b []string) []string {
	out := slices.Clone(a)
	for _, k := range b {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func sameServers(a, b []agents.MCPServer) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || (a[i].Config == nil) != (b[i].Config == nil) ||
			a[i].Config != nil && !agents.EqualData(a[i].Config, b[i].Config) {
			return false
		}
	}
	return true
}

func serverNames(s []agents.MCPServer) string {
	names := make([]string, len(s))
	for i, m := range s {
		names[i] = m.Name
	}
	return "[" + strings.Join(names, ", ") + "]"
}

func quoteOr(s string) string {
	if s == "" {
		return "(none)"
	}
	return fmt.Sprintf("%q", s)
}

func valueText(v any, set bool) string {
	if !set {
		return ""
	}
	switch x := v.(type) {
	case []string:
		return strings.Join(x, ", ")
	}
	return fmt.Sprint(v)
}

func dataText(v any, ok bool) string {
	if !ok {
		return "(none)"
	}
	return fmt.Sprintf("%v", agents.Plain(v))
}

// BodyDiff measures how a prompt changed between a source file and bn's
// output for it. Leading and trailing blank lines are not content.
type BodyDiff struct {
	Total      int // lines of the longer side
	Changed    int // lines that differ in more than whitespace
	Whitespace int // lines that differ only in whitespace
	Unified    string
}

// Status is a one-phrase summary.
func (d BodyDiff) Status() string {
	switch {
	case d.Changed == 0 && d.Whitespace == 0:
		return "identical"
	case d.Changed == 0:
		return fmt.Sprintf("whitespace only (%d lines)", d.Whitespace)
	}
	return fmt.Sprintf("%d lines differ", d.Changed)
}

// CompareBodies diffs two prompts line by line.
func CompareBodies(source, target, sourceName, targetName string) BodyDiff {
	a, b := strings.TrimSpace(source)+"\n", strings.TrimSpace(target)+"\n"
	d := BodyDiff{Total: max(strings.Count(a, "\n"), strings.Count(b, "\n"))}
	if a == b {
		return d
	}
	raw := changedLines(a, b)
	d.Changed = changedLines(normalizeLines(a), normalizeLines(b))
	d.Whitespace = max(raw-d.Changed, 0)
	d.Unified = udiff.Unified(sourceName, targetName, a, b)
	return d
}

// changedLines counts the larger of deleted and inserted lines: a line
// edited in place counts once.
func changedLines(a, b string) int {
	ud, err := udiff.ToUnifiedDiff("a", "b", a, udiff.Lines(a, b), 0)
	if err != nil {
		return max(strings.Count(a, "\n"), strings.Count(b, "\n"))
	}
	del, ins := 0, 0
	for _, h := range ud.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Delete:
				del++
			case udiff.Insert:
				ins++
			}
		}
	}
	return max(del, ins)
}

// normalizeLines collapses runs of whitespace in every line, so lines that
// differ only in spacing compare equal; line count is kept.
func normalizeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}
