#!/usr/bin/env bash
# Checks what bn writes with real readers of each format, offline, with
# HOME in a temporary directory. Needs $BN (the binary) and CLIENTS_DIR,
# where the readers are installed (see `make test-clients`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_DATA_HOME=$tmp/home/.local/share
unset BN_CONFIG_DIR BN_DATA_DIR BN_REPO BN_CONTAINER_MODE BN_STORAGE_HASH
check() { node "$here/kdl-check.mjs" "$@"; }
passed=0
ok() { passed=$((passed + 1)); echo "ok  $*"; }

# A project whose agents have text that is awkward to quote.
proj=$tmp/proj
mkdir -p "$proj/.git" "$proj/.binnacle/agents"
cat >"$proj/.binnacle/agents/config.kdl" <<'KDL'
agent "awkward" {
    description "Quotes \" backslash \\ hash # colon: tab\t and unicode ✓"
    tools {
        allow "shell(git log:*)" "shell(env FOO=bar)" "write(src/*.go)"
        deny "shell(rm:*)"
    }
    prompt r##"Line one with "quotes" and "# and a raw "#-looking end.
	Indented with a tab.

Last line."##
}
agent "ask" {
    prompt-append "Also: keep answers short."
}
KDL
cd "$proj"

# 1. The built-in layer bn ships.
check parse "$here/../embedded/agents/config.kdl" 6; ok "embedded config.kdl"

# 2. show --format kdl for every agent matches what bn resolved.
out=$tmp/show
mkdir -p "$out"
mapfile -t names < <("$BN" config agents list -H | awk '/^  [A-Za-z0-9]/ {print $1}')
for name in "${names[@]}"; do
	"$BN" config agents show "$name" --format kdl -H >"$out/$name.kdl"
	"$BN" config agents show "$name" >"$out/$name.show.json"
	"$BN" config agents emit "$name" >"$out/$name.emit.json"
	check agent "$out" "$name"; ok "show $name --format kdl"
done

# 3. The scaffold init writes, with its commented examples switched on.
scaffold=$tmp/scaffold
mkdir -p "$scaffold/.git"
(cd "$scaffold" && "$BN" config agents init >/dev/null)
check parse "$scaffold/.binnacle/agents/config.kdl" 0; ok "init scaffold"
sed -nE 's#^// (agent .*|    .*|\}.*)$#\1#p' "$scaffold/.binnacle/agents/config.kdl" >"$tmp/uncommented.kdl"
check parse "$tmp/uncommented.kdl" 3; ok "init scaffold examples"

# 4. init NAME appends to an existing config.kdl.
"$BN" config agents init worker >/dev/null
check parse "$proj/.binnacle/agents/config.kdl" 3; ok "init worker into an existing config.kdl"

# 5. import writes KDL the independent parser reads: the whole corpus.
corpus=$here/../../shared/corpus/claude-agents
if [ -d "$corpus" ]; then
	imp=$tmp/imported
	mkdir -p "$imp/.git"
	(cd "$imp" && "$BN" config agents import "$corpus" >/dev/null)
	check parse "$imp/.binnacle/agents/config.kdl" "$(find "$corpus" -name '*.md' | wc -l)"
	ok "import of the corpus: config.kdl read by @bgotink/kdl"
fi

# 6. Exported agents, read by the tools themselves.
bin=$CLIENTS_DIR/node_modules/.bin
expect_listed() { # tool output names...
	local tool=$1 out=$2
	shift 2
	for n in "$@"; do
		grep -Eq "(^|[ ,])$n([ ,(]|$)" <<<"$out" || { echo "FAIL: $tool does not list agent $n:"; echo "$out"; exit 1; }
	done
}

"$BN" config agents export --target opencode -H >/dev/null 2>&1
out=$(XDG_CONFIG_HOME=$tmp/oc/config XDG_DATA_HOME=$tmp/oc/data XDG_CACHE_HOME=$tmp/oc/cache XDG_STATE_HOME=$tmp/oc/state \
	timeout 60 "$bin/opencode" agent list 2>&1) || { echo "FAIL: opencode agent list: $out"; exit 1; }
listed=$(grep -E '^[^ ]+ \((primary|subagent|all)\)$' <<<"$out")
expect_listed opencode "$listed" "${names[@]}"
grep -q '^ask (all)$' <<<"$listed" || { echo "FAIL: opencode: ask is not mode all"; exit 1; }
ok "opencode agent list shows every exported agent"
out=$(XDG_CONFIG_HOME=$tmp/oc/config XDG_DATA_HOME=$tmp/oc/data XDG_CACHE_HOME=$tmp/oc/cache XDG_STATE_HOME=$tmp/oc/state \
	timeout 60 "$bin/opencode" debug agent ask 2>&1)
node -e '
	const agent = JSON.parse(require("fs").readFileSync(0, "utf8"));
	const has = (permission, pattern, action) => agent.permission.some((r) => r.permission === permission && r.pattern === pattern && r.action === action);
	const want = [["bash", "git log *", "allow"], ["bash", "git push *", "deny"], ["bash", "*", "deny"], ["edit", "*", "deny"], ["read", "*", "allow"]];
	const missing = want.filter((w) => !has(...w));
	if (agent.mode !== "all" || missing.length) { console.error("FAIL: opencode debug agent ask:", agent.mode, JSON.stringify(missing)); process.exit(1); }
' <<<"$out"
ok "opencode debug agent ask: bash patterns and edit deny"

"$BN" config agents export --target claude -H >/dev/null 2>&1
out=$(DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 \
	timeout 60 "$bin/claude" --debug --agent __bn_probe__ -p hi </dev/null 2>&1) || true
expect_listed claude "$(grep -i 'available agents' <<<"$out")" "${names[@]}"
if grep -rh '\[ERROR\] Agent file' "$HOME/.claude/debug" 2>/dev/null; then echo "FAIL: claude rejected an agent file"; exit 1; fi
ok "claude --agent lists every exported agent and rejects none"

"$BN" config agents export --target copilot -H >/dev/null 2>&1
out=$(COPILOT_HOME=$HOME/.copilot COPILOT_AUTO_UPDATE=false COPILOT_OFFLINE=true COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:9/v1 \
	timeout 120 "$bin/copilot" --agent __bn_probe__ --model x -p hi --no-auto-update --log-dir "$tmp/copilot-logs" </dev/null 2>&1) || true
expect_listed copilot "$(grep 'No such agent' <<<"$out")" "${names[@]}"
if grep -rh '\[ERROR\].*agents/' "$tmp/copilot-logs" 2>/dev/null; then echo "FAIL: copilot rejected an agent file"; exit 1; fi
ok "copilot --agent lists every exported agent and rejects none"

# 7. MCP: an official client uses every tool of bn mcp serve; Claude Code
# and Copilot read the configs bn wrote.
node "$here/mcp-check.mjs" "$BN" "$proj"
ok "MCP client lists and calls list_agents, show_agent, emit_prompt, check_tool"

"$BN" session init --write-mcp-json -H >/dev/null
out=$(DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 timeout 60 "$bin/claude" mcp get binnacle 2>&1) || true
for want in 'Type: stdio' 'Command: bn' 'Args: mcp serve'; do
	grep -qF "$want" <<<"$out" || { echo "FAIL: claude mcp get binnacle lacks '$want':"; echo "$out"; exit 1; }
done
ok "claude reads the binnacle server from .mcp.json"

copilot_env=(COPILOT_HOME="$HOME/.copilot" COPILOT_AUTO_UPDATE=false)
out=$(env "${copilot_env[@]}" COPILOT_ALLOW_ALL=true timeout 60 "$bin/copilot" mcp get binnacle 2>&1) || true
for want in 'Command: bn mcp serve' 'Status: Enabled'; do
	grep -qF "$want" <<<"$out" || { echo "FAIL: copilot mcp get binnacle lacks '$want':"; echo "$out"; exit 1; }
done
grep -qi 'invalid\|malformed' <<<"$out" && { echo "FAIL: copilot warns about .mcp.json:"; echo "$out"; exit 1; }
"$BN" system host-init --write-mcp-copilot -H >/dev/null
out=$(env "${copilot_env[@]}" timeout 60 "$bin/copilot" mcp list 2>&1) || true
grep -q 'binnacle (local)' <<<"$out" || { echo "FAIL: copilot mcp list does not show binnacle:"; echo "$out"; exit 1; }
ok "copilot reads the binnacle server from .mcp.json and mcp-config.json"

echo "$passed passed, 0 failed"
