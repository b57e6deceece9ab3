package agents

// SourceSpec names a shared layer: a directory of agent definitions at a
// ref of a git repository. Each source is one more layer between the
// built-in one and the system layer, pinned by a lock file.
type SourceSpec struct {
	Name string // the layer's name: source NAME
	URL  string // anything git accepts; a relative local path is relative to the declaring config.kdl
	Ref  string // a tag, branch or commit
	Path string // the directory inside the repository ("." for its root)
	Pos  Pos
}

// Policy is what a layer forbids every agent, from its layer up. Policies
// only add up: a later layer cannot remove, reset or override them.
type Policy struct {
	// Deny are tool patterns no agent may be allowed: added to every
	// agent's deny list, and an error where a later layer allows one.
	Deny []Pattern
	// Models, when set, are the only models an agent may run.
	Models    []string
	ModelsPos Pos
	// Lock are fields later layers may not change.
	Lock []Pattern
	Pos  Pos
}
