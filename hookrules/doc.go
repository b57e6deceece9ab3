// Package hookrules is what stands behind the hook bn writes into an agent
// file (Claude Code's and Qwen Code's PreToolUse hook): the rules export
// compiles beside the file, and the decision on each call the agent makes.
//
// The hook decides from the rules as they were exported, never from the
// layers as they are at that moment: an agent that edits a layer, or a
// config.kdl caught half-written, changes nothing it may do. When the
// layers no longer give the rules that were exported, or the rules file
// is missing, empty, cut short or edited, the hook refuses and says to
// run export. Under the hook an agent may not edit what defines or
// enforces it (Guard): its layers, the tool's files and settings that
// carry the hook, the compiled rules, bn itself.
package hookrules
