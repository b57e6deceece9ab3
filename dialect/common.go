package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/frontmatter"
	"github.com/goccy/go-yaml"
)

// fields is a markdown agent file's frontmatter, consumed key by key: what
// is left at the end is reported.
type fields struct {
	entries []frontmatter.Entry
	body    string
}

// readMarkdown splits a markdown agent file and reads its frontmatter as
// the agent tools do (leniently; the note says so).
func readMarkdown(src Source, im *Imported) (*fields, error) {
	md, err := frontmatter.Split(src.Data)
	if err != nil {
		return nil, err
	}
	entries, note, err := frontmatter.Lenient(md)
	if err != nil {
		return nil, err
	}
	if note != "" {
		im.note("%s", note)
	}
	return &fields{entries: entries, body: strings.TrimSpace(string(md.Body))}, nil
}

// peek returns a key's value, leaving it in place.
func (f *fields) peek(key string) (any, bool) {
	i := slices.IndexFunc(f.entries, func(e frontmatter.Entry) bool { return e.Key == key })
	if i < 0 {
		return nil, false
	}
	return f.entries[i].Value, true
}

// take removes a key and returns its value.
func (f *fields) take(key string) (any, bool) {
	i := slices.IndexFunc(f.entries, func(e frontmatter.Entry) bool { return e.Key == key })
	if i < 0 {
		return nil, false
	}
	v := f.entries[i].Value
	f.entries = slices.Delete(f.entries, i, i+1)
	return v, true
}

// str takes a string key ("" when absent or not a string).
func (f *fields) str(key string) string {
	v, _ := f.take(key)
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// description takes the description as written (a block scalar's final
// new line included), or "" when it is blank.
func (f *fields) description() string {
	v, _ := f.take("description")
	s, _ := v.(string)
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}

// keep moves a key, when present, into the tool's section as written. A
// key with no value (YAML null) is present, empty, and not kept: bn has no
// way to write it back, and the reader says what the tool makes of it.
func (f *fields) keep(im *Imported, tool, key string) (any, bool) {
	v, ok := f.take(key)
	if ok && v == nil {
		return nil, true
	}
	if ok {
		im.Def.Target(tool).Fields.Set(key, v)
	}
	return v, ok
}

// rest keeps the tool's own fields and reports every other key.
func (f *fields) rest(im *Imported, info *Info) {
	for _, e := range f.entries {
		if spec, ok := info.field(e.Key); ok && !spec.Hint {
			im.Def.Target(info.Name).Fields.Set(e.Key, e.Value)
			continue
		}
		if tags := stringList(e.Value); e.Key == "tags" && len(tags) > 0 {
			// Collections tag agents for routing; the tool ignores the
			// key, bn keeps the tags (sources counts by them).
			im.Def.Tags = tags
			im.drop("tags is not a field %s reads; kept as bn's tags, which no %s file carries", info.Title, info.Title)
			continue
		}
		hint := agents.DidYouMean(e.Key, info.fieldKeys())
		if hint != "" {
			hint = " (" + hint + ")"
		}
		if e.Value == nil {
			im.drop("%s is not a field %s reads, and has no value; not imported%s", e.Key, info.Title, hint)
			continue
		}
		fields := &im.Def.Target(info.Name).Fields
		unread, _ := fields.Get(agents.UnreadKey)
		m, _ := unread.(*agents.Map)
		if m == nil {
			m = &agents.Map{}
			fields.Set(agents.UnreadKey, m)
		}
		m.Set(e.Key, e.Value)
		im.note("%s is not a field %s reads; kept in %s { unread { … } } and written back to %s only%s", e.Key, info.Title, info.Name, info.Title, hint)
	}
	f.entries = nil
}

// stringList reads a list field written as a YAML list or a comma string.
// A comma string splits at its top-level commas only: Agent(a, b) is one
// entry, not Agent(a and b).
func stringList(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		depth, start := 0, 0
		add := func(s string) {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		for i, c := range x {
			switch c {
			case '(':
				depth++
			case ')':
				depth = max(depth-1, 0)
			case ',':
				if depth == 0 {
					add(x[start:i])
					start = i + 1
				}
			}
		}
		add(x[start:])
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
	}
	return out
}

var nameUnsafe = lazyRegexp(`[^A-Za-z0-9._-]+`)

// flatName makes a name bn can use: OpenCode's nested review/security
// becomes review-security, "RPI Agent" RPI-Agent.
func flatName(n string) string {
	return strings.Trim(strings.ReplaceAll(nameUnsafe().ReplaceAllString(n, "-"), "..", "."), "-._")
}

// setName gives the definition its name; a name bn cannot hold is
// flattened and the tool's own kept as its id there.
func setName(im *Imported, info *Info, name string) error {
	tool := info.Name
	if name == "" {
		return fmt.Errorf("no name: %s needs a name field", info.Title)
	}
	im.Name = name
	clean := flatName(name)
	if len(clean) > 64 {
		clean = strings.Trim(clean[:64], "-._")
	}
	if clean != name {
		if err := idAsFile(im.File, name); err != nil {
			// The id would become a file name on export: one that leads
			// out of the tool's directory, or into a subdirectory the
			// file was not in, is not kept.
			im.note("renamed %q to %q: bn names hold letters, digits, '-', '_' and '.'; the %s name is not kept as its id there because, as a file name, %v", name, clean, tool, err)
		} else {
			im.note("renamed %q to %q: bn names hold letters, digits, '-', '_' and '.'; the %s name is kept as its id there", name, clean, tool)
			im.Def.Target(tool).ID = name
		}
	}
	if err := agents.CheckName(clean); err != nil {
		if clean == "" {
			// Nothing is left of it (".."): the error names what the file
			// says, which its author can fix.
			return fmt.Errorf("name %q holds nothing bn can keep in an agent name: give the agent a name of %s, in its file", name, agents.NameRule)
		}
		return err
	}
	im.Def.Name = clean
	return nil
}

// idAsFile refuses a tool's name that, kept as the agent's id there,
// would not name a file inside the tool's directory, or would name one in
// a subdirectory when the file read (path) is not there: a name "a/b" in a
// flat file's frontmatter must not make a directory a on export.
func idAsFile(path, id string) error {
	if err := files.CheckRel(id); err != nil {
		return err
	}
	if !strings.Contains(id, "/") {
		return nil
	}
	stem := filepath.ToSlash(strings.TrimSuffix(path, filepath.Ext(path)))
	if !strings.HasSuffix(stem, "/"+id) {
		return fmt.Errorf("%q would put the agent in a subdirectory, and its file %s is not in one", id, path)
	}
	return nil
}

// setIdentity sets what every agent file must give: a name (see setName),
// a description and a prompt; noPrompt says why an empty prompt is refused.
func setIdentity(im *Imported, info *Info, name, description, prompt string, noPrompt error) error {
	if err := setName(im, info, name); err != nil {
		return err
	}
	if im.Def.Description = description; description == "" {
		return errNoDescription
	}
	if im.Def.Prompt = prompt; prompt == "" {
		return noPrompt
	}
	return nil
}

// readModel reads a model value (a string, or a list of fallbacks): the
// definition gets the catalog's canonical id, and the tool's section the
// value as written when writing it back would spell it differently.
func readModel(im *Imported, tool, key string, raw any, cat *agents.Catalog) {
	names := modelNames(raw)
	if len(names) == 0 || names[0] == "" {
		return
	}
	first := names[0]
	if len(names) > 1 {
		im.note("model fallbacks %s are kept for %s only", strings.Join(names[1:], ", "), tool)
	}
	keepHint := func() { im.Def.Target(tool).Fields.Set(key, raw) }
	if first == "inherit" {
		keepHint()
		return
	}
	e, ok := cat.Lookup(first, tool)
	if !ok {
		im.Def.Model = first
		keepHint()
		im.note("model %q is not in bn's model catalog: kept for %s, left out for other tools (add a model entry to config.kdl to map it)", first, tool)
		return
	}
	im.Def.Model = e.ID
	spelling := tool
	if d, ok := All().Lookup(tool); ok {
		spelling = d.Info().ModelTool(e)
	}
	if sp, _ := e.Spelling(spelling); sp != first || len(names) > 1 || !isString(raw) {
		keepHint()
	}
}

func isString(v any) bool { _, ok := v.(string); return ok }

// writeModel returns the model value to write for tool, from the section's
// spelling when it still means the definition's model.
func writeModel(def *agents.Definition, info *Info, key string, cat *agents.Catalog) (any, []Loss) {
	var losses []Loss
	if hint, ok := def.TargetOf(info.Name).Fields.Get(key); ok {
		if modelMeans(hint, def.Model, info.Name, cat) {
			return hint, nil
		}
		losses = append(losses, Loss{Field: "model", Kind: Changed, Detail: fmt.Sprintf("%s's own spelling %v not used: the model is now %q", info.Title, hint, def.Model)})
	}
	if def.Model == "" {
		return nil, losses
	}
	e, ok := cat.Lookup(def.Model, "")
	if !ok {
		return nil, append(losses, Loss{Field: "model", Kind: Dropped,
			Detail: fmt.Sprintf("model %q left out: it is not in bn's model catalog, so bn cannot tell whether %s runs it (add a model entry to config.kdl)", def.Model, info.Title)})
	}
	sp, ok := e.Spelling(info.ModelTool(e))
	if !ok {
		return nil, append(losses, Loss{Field: "model", Kind: Dropped, Detail: fmt.Sprintf("model %q left out: %s cannot run it", def.Model, info.Title)})
	}
	if pinned := cat.Pinned(e, info.ModelTool(e)); pinned != nil {
		losses = append(losses, Loss{Field: "model", Kind: Changed, Detail: fmt.Sprintf(
			"model %q written as %q, the version it means today: %s has no name that follows %q to later versions", def.Model, sp, info.Title, def.Model)})
	}
	return sp, losses
}

// modelNames reads a model value: one name (commas and all), or a list of
// a model and its fallbacks.
func modelNames(raw any) []string {
	if s, ok := raw.(string); ok {
		return []string{strings.TrimSpace(s)}
	}
	return stringList(raw)
}

func modelMeans(hint any, model, tool string, cat *agents.Catalog) bool {
	names := modelNames(hint)
	if len(names) == 0 {
		return model == ""
	}
	if names[0] == "inherit" {
		return model == ""
	}
	a, okA := cat.Lookup(names[0], tool)
	b, okB := cat.Lookup(model, "")
	if okA && okB {
		return a.ID == b.ID
	}
	return !okA && !okB && names[0] == model
}

// effort maps a reasoning effort onto the levels a tool accepts.
func writeEffort(effort string, levels []string, key string, info *Info) (string, []Loss) {
	if effort == "" {
		return "", nil
	}
	if len(levels) == 0 {
		return "", []Loss{{Field: "reasoning-effort", Kind: Dropped, Detail: fmt.Sprintf("%s agent files have no reasoning effort", info.Title)}}
	}
	if slices.Contains(levels, effort) {
		return effort, nil
	}
	// The nearest level the tool has, rounding towards less effort.
	order := agents.ReasoningEfforts
	i := slices.Index(order, effort)
	for j := i; j >= 0; j-- {
		if slices.Contains(levels, order[j]) {
			return order[j], []Loss{{Field: "reasoning-effort", Kind: Changed,
				Detail: fmt.Sprintf("%s has no %q effort; %s %q written", info.Title, effort, key, order[j])}}
		}
	}
	return "", []Loss{{Field: "reasoning-effort", Kind: Dropped, Detail: fmt.Sprintf("%s has no %q effort", info.Title, effort)}}
}

// readEffort reads a reasoning effort, with a tool's own spelling of
// "none" (omp's off).
func readEffort(im *Imported, tool, key, v string) {
	if v == "" {
		return
	}
	if v == "off" {
		v = "none"
	}
	e, err := agents.ParseEnum(v, agents.ReasoningEfforts)
	if err != nil {
		im.drop("%s %q not imported: %v", key, v, err)
		return
	}
	im.Def.ReasoningEffort = e
}

// frontmatterDoc is frontmatter being written, in order.
type frontmatterDoc struct {
	items yaml.MapSlice
}

func (d *frontmatterDoc) has(key string) bool {
	return slices.ContainsFunc(d.items, func(it yaml.MapItem) bool { return it.Key == key })
}

func (d *frontmatterDoc) set(key string, v any) {
	d.items = append(d.items, yaml.MapItem{Key: key, Value: yamlValue(v)})
}

// yamlValue converts bn's data (*agents.Map keeps its order) for the
// YAML encoder.
func yamlValue(v any) any {
	switch x := v.(type) {
	case *agents.Map:
		out := yaml.MapSlice{}
		for _, k := range x.Keys {
			out = append(out, yaml.MapItem{Key: k, Value: yamlValue(x.Values[k])})
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = yamlValue(e)
		}
		return out
	case []string:
		if x == nil {
			return []string{}
		}
	}
	return v
}

// markdown writes a frontmatter agent file: the marker comment, the
// fields, the prompt as the body.
func (d *frontmatterDoc) markdown(marker, prompt string) ([]byte, error) {
	head, err := frontmatter.Marshal(d.items)
	if err != nil {
		return nil, err
	}
	prompt = strings.TrimSpace(prompt)
	b := make([]byte, 0, len(marker)+len(head)+len(prompt)+9+emit.SealLen)
	b = append(append(append(b, "---\n"...), marker...), head...)
	b = append(append(append(b, "---\n"...), prompt...), '\n')
	return b, nil
}

// sectionFields writes the tool-only fields of the definition's section
// for the tool (hint keys are the writer's to use), and the keys of its
// unread block that the tool still leaves unread.
func sectionFields(d *frontmatterDoc, def *agents.Definition, info *Info, skip ...string) []Loss {
	t := def.TargetOf(info.Name)
	var losses []Loss
	for _, k := range t.Fields.Keys {
		if info.IsHint(k) || slices.Contains(skip, k) || d.has(k) {
			continue // what the writer wrote from the definition wins
		}
		if unread, ok := t.Fields.Values[k].(*agents.Map); ok && k == agents.UnreadKey {
			for _, uk := range unread.Keys {
				if !d.has(uk) && leavesUnread(info, uk, unread.Values[uk]) {
					d.set(uk, unread.Values[uk])
					continue
				}
				losses = append(losses, Loss{Field: info.Name + "." + k, Kind: Dropped, Detail: fmt.Sprintf(
					"%s not written from the unread block: %s reads it, so it would change what the agent means there (write what it should say in the definition)", uk, info.Title)})
			}
			continue
		}
		d.set(k, t.Fields.Values[k])
	}
	return losses
}

// leavesUnread says whether the tool leaves key unread: its own reader,
// given a file with that key beside a name and a description, keeps it
// in the unread block. An unread block is written back verbatim, so a
// key the tool reads (tools, hooks) must never come from one: it would
// grant what the definition and its policy do not.
func leavesUnread(info *Info, key string, v any) bool {
	d, ok := All().Lookup(info.Name)
	if !ok || key == "name" || key == "description" {
		return false
	}
	doc := &frontmatterDoc{}
	doc.set("name", "unread-check")
	doc.set("description", "Checks a key")
	doc.set(key, v)
	data, err := doc.markdown("", "A prompt long enough for every tool's validator.")
	if err != nil {
		return false
	}
	im, err := d.Read(Source{Path: "unread-check.md", Rel: "unread-check.md", Data: data}, nil)
	if err != nil {
		return false
	}
	unread, _ := im.Def.TargetOf(info.Name).Fields.Get(agents.UnreadKey)
	m, _ := unread.(*agents.Map)
	if m == nil {
		return false
	}
	_, kept := m.Get(key)
	return kept
}

// carried names the bn fields a tool's files hold.
type carried map[string]bool

// otherLosses reports what a tool's file cannot hold: bn fields it lacks,
// other tools' own fields, binnacle's execution mode. Tags are not among
// them: they group agents in bn, and mean nothing to any tool.
func otherLosses(def *agents.Definition, info *Info, has carried) []Loss {
	var out []Loss
	for _, f := range agents.Fields {
		v, set := f.Get(def)
		if !set || has[f.Name] {
			continue
		}
		switch {
		case f.BnOnly:
			continue
		case f == agents.FieldDescription, f == agents.FieldModel, f == agents.FieldExecution:
			continue // written by every tool, or reported below
		case f == agents.FieldHidden:
			if v == false {
				continue
			}
		}
		if f == agents.FieldModelInvocable && v == false {
			out = append(out, modelStarts(fmt.Sprintf("%s agent files have no model-invocable", info.Title)))
			continue
		}
		out = append(out, Loss{Field: f.Name, Kind: Dropped, Detail: fmt.Sprintf("%s agent files have no %s (%v)", info.Title, f.Name, show(v))})
	}
	if len(def.MCPServers) > 0 && !has[agents.NodeMCPServer] {
		names := make([]string, len(def.MCPServers))
		for i, s := range def.MCPServers {
			names[i] = s.Name
		}
		out = append(out, Loss{Field: "mcp-servers", Kind: Dropped, Detail: fmt.Sprintf("%s agent files cannot hold MCP servers (%s)", info.Title, strings.Join(names, ", "))})
	}
	if def.Execution == agents.Container {
		out = append(out, Loss{Field: "execution", Kind: Dropped, Detail: fmt.Sprintf("%s runs agents on the host; execution \"container\" is not expressible", info.Title)})
	}
	for _, tool := range slices.Sorted(maps.Keys(def.Targets)) {
		if tool == info.Name {
			continue
		}
		other, ok := All().Lookup(tool)
		if !ok {
			continue
		}
		t := def.Targets[tool]
		for _, k := range t.Fields.Keys {
			spec, _ := other.Info().field(k)
			v, _ := t.Fields.Get(k)
			if spec.Hint || spec.Naming && v == def.Name {
				continue
			}
			// The target may have a key of the same name (Qwen Code's hooks,
			// of Claude Code's shape): bn does not carry one into the other.
			_, both := info.field(k)
			kind, detail := Dropped, fmt.Sprintf("only %s has %s", other.Info().Title, k)
			if both {
				detail = fmt.Sprintf("written for %s; bn does not carry it to %s's own %s", other.Info().Title, info.Title, k)
			}
			if m, ok := v.(*agents.Map); ok && k == agents.UnreadKey {
				detail = fmt.Sprintf("%s: keys %s does not read, kept for it only", strings.Join(m.Keys, ", "), other.Info().Title)
			} else if why := spec.narrows(v); why != "" {
				shown := k // a setting with its value (permissionMode plan); hooks are too long to show
				if s, ok := v.(string); ok {
					shown += " " + s
				}
				kind, detail = Widened, fmt.Sprintf("only %s has %s: %s, which %s's file cannot say", other.Info().Title, shown, why, info.Title)
				if both {
					detail = fmt.Sprintf("written for %s; bn does not carry %s to %s's own: %s, which the file bn writes for %s leaves out", other.Info().Title, shown, info.Title, why, info.Title)
				}
			}
			out = append(out, Loss{Field: tool + "." + k, Kind: kind, Detail: detail})
		}
	}
	return out
}

// modelStarts is the loss of model-invocable false where the file cannot
// keep it: the agent only the user could start, the model now starts on
// its own, a widening of who starts it.
func modelStarts(why string) Loss {
	return Loss{Field: "model-invocable", Kind: Widened, Detail: why + ": the model may start the agent on its own, not only the user"}
}

// narrows is how v, the key's value, keeps the agent from what its tools
// allow, or "".
func (spec FieldSpec) narrows(v any) string {
	if spec.Narrows == nil {
		return ""
	}
	return spec.Narrows(v)
}

func show(v any) string {
	switch x := v.(type) {
	case []string:
		return strings.Join(x, ", ")
	case *bool:
		if x != nil {
			return fmt.Sprint(*x)
		}
	}
	return fmt.Sprint(v)
}

// ignored makes a field check lenient, for a tool that loads a file
// whatever the field holds and ignores a value it does not take: such a
// value is kept, and written back, with a warning.
func ignored(title string, check func(any) error) func(any) error {
	return func(v any) error {
		if err := check(v); err != nil {
			return agents.Diagnostic{Severity: agents.Warning, Message: fmt.Sprintf("%v: %s loads the file and ignores the value; bn keeps it and writes it back", err, title)}
		}
		return nil
	}
}

// checkEnum returns a field check accepting only the given strings.
func checkEnum(values ...string) func(any) error {
	return func(v any) error {
		s, ok := v.(string)
		if !ok || !slices.Contains(values, s) {
			return fmt.Errorf("expects one of %s, found %v", strings.Join(values, ", "), v)
		}
		return nil
	}
}

func checkBool(v any) error {
	if _, ok := v.(bool); !ok {
		return fmt.Errorf("expects true or false, found %v", v)
	}
	return nil
}

func checkInt(v any) error {
	if _, ok := v.(int64); !ok {
		return fmt.Errorf("expects a whole number, found %v", agents.Plain(v))
	}
	return nil
}

func checkString(v any) error {
	if _, ok := v.(string); !ok {
		return fmt.Errorf("expects a string, found %v", v)
	}
	return nil
}

func checkMap(v any) error {
	if _, ok := v.(*agents.Map); !ok {
		return fmt.Errorf("expects a mapping")
	}
	return nil
}

func checkList(v any) error {
	if _, ok := v.([]any); !ok {
		return fmt.Errorf("expects a list")
	}
	return nil
}

func checkStrings(v any) error {
	switch x := v.(type) {
	case string:
		return nil
	case []any:
		for _, e := range x {
			if _, ok := e.(string); !ok {
				return fmt.Errorf("expects strings, found %v", e)
			}
		}
		return nil
	}
	return fmt.Errorf("expects a string or a list of strings")
}

// errNoDescription is returned for files without a description, and
// errEmptyBody for markdown files whose body, the prompt, is empty.
var (
	errNoDescription = errors.New("no description: the tool would not list it, and bn needs one")
	errEmptyBody     = errors.New("empty body: the body is the agent's prompt")
)

// json writes the fields as a JSON object, in order, two spaces a level,
// the marker (a comment line) its first member, "$comment", and the
// prompt, when not empty, under promptKey.
func (d *frontmatterDoc) json(marker, promptKey, prompt string) ([]byte, error) {
	items := d.items
	if prompt = strings.TrimSpace(prompt); prompt != "" {
		items = append(slices.Clone(items), yaml.MapItem{Key: promptKey, Value: prompt})
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	if marker != "" {
		b.WriteString(emit.JSONMarkerMember(marker))
	}
	if err := writeJSONMembers(&b, items, true, "  "); err != nil {
		return nil, err
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// writeJSON writes v (bn's data as the YAML writer takes it: ordered
// maps, lists, scalars) as indented JSON, keeping the order of maps.
func writeJSON(b *bytes.Buffer, v any, indent string) error {
	var items []yaml.MapItem
	var keyed bool
	var open, end string
	switch x := v.(type) {
	case yaml.MapSlice:
		items, keyed, open, end = x, true, "{", "}"
	case json.RawMessage: // a value of a file bn merges into, as written
		return json.Indent(b, x, indent, "  ")
	case []any, []string:
		for _, e := range anyList(x) {
			items = append(items, yaml.MapItem{Value: e})
		}
		open, end = "[", "]"
	default:
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // Encode's new line
		return nil
	}
	if len(items) == 0 {
		b.WriteString(open + end)
		return nil
	}
	b.WriteString(open + "\n")
	if err := writeJSONMembers(b, items, keyed, indent+"  "); err != nil {
		return err
	}
	b.WriteString(indent + end)
	return nil
}

// writeJSONMembers writes the members of an object (keyed) or the
// elements of a list, one a line at indent, commas between them.
func writeJSONMembers(b *bytes.Buffer, items []yaml.MapItem, keyed bool, indent string) error {
	for i, it := range items {
		b.WriteString(indent)
		if keyed {
			if err := writeJSON(b, fmt.Sprint(it.Key), indent); err != nil {
				return err
			}
			b.WriteString(": ")
		}
		if err := writeJSON(b, it.Value, indent); err != nil {
			return err
		}
		if i < len(items)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	return nil
}

func anyList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	}
	return nil
}

// lazyRegexp compiles pattern when first used: the records are built at
// start, for every command, and most commands match none of their patterns.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// nameRule returns a check that refuses a name pattern does not match,
// saying what the tool accepts (rule); the pattern is compiled when first
// used.
func nameRule(pattern, rule string) func(name string) error {
	re := lazyRegexp(pattern)
	return func(name string) error {
		if !re().MatchString(name) {
			return fmt.Errorf("name %q is not %s", name, rule)
		}
		return nil
	}
}
