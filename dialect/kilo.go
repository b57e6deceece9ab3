package dialect

// kiloInfo is Kilo (the Kilo Code CLI from 7.0, built on OpenCode): its
// agent files are OpenCode's, read and written by the same code, in
// .kilo/agent(s)/**/*.md of every directory from the working directory up
// and in ~/.config/kilo/agent(s), with Kilo's own built-in agents. Per the
// Kilo 7.7 CLI (kilo debug agent prints what it resolved).
var kiloInfo = func() *Info {
	info := *opencodeInfo
	info.Name, info.Title, info.Dir = "kilo", "Kilo", ".kilo/agents"
	info.Marks = []string{".kilo/agent/", ".kilo/agents/"}
	info.Signature, info.NamedByFile = nil, false
	info.Doc = "`.kilo/agent(s)/**/*.md` from the repository root down to the working directory, over `~/.config/kilo/agent(s)`; named by path; later files merge into earlier ones field by field"
	info.Dirs = opencodeDirs("kilo", "kilo", ".kilo")
	info.Client = "@kilocode/cli@7.7.7"
	info.AgentEnv, info.TerminalEnv = []string{"KILO"}, "KILO_TERMINAL"
	info.BuiltIns = []BuiltIn{{"code", Merges}, {"ask", Merges}, {"debug", Merges}, {"orchestrator", Merges}, {"plan", Merges},
		{"general", Merges}, {"explore", Merges}, {"compaction", Merges}, {"title", Merges}, {"summary", Merges}}
	return &info
}()
