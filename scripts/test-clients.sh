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
# How long a client may take to answer before it counts as hung: minutes,
# since a loaded machine makes a Node client's first start slow, and a
# client that answers costs nothing more.
wait=${BN_CLIENT_TIMEOUT:-300}

# A project whose agents have text that is awkward to quote.
proj=$tmp/proj
mkdir -p "$proj/.git" "$proj/.binnacle/agents"
cat >"$proj/.binnacle/agents/config.kdl" <<'KDL'
// bn's built-in agents, exported here too, so each tool loads them.
export {
    built-in-agents true
}
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
sed -nE 's#^// (agent .*|export .*|    .*|\}.*)$#\1#p' "$scaffold/.binnacle/agents/config.kdl" >"$tmp/uncommented.kdl"
check parse "$tmp/uncommented.kdl" 3; ok "init scaffold examples"

# 4. init NAME appends to an existing config.kdl.
"$BN" config agents init worker >/dev/null
check parse "$proj/.binnacle/agents/config.kdl" 3; ok "init worker into an existing config.kdl"

# 5. import writes KDL the independent parser reads: every corpus.
corpora=$here/../testdata/corpus
imp=$tmp/imported
mkdir -p "$imp/.git"
imported=$(cd "$imp" && "$BN" config agents import "$corpora/claude-agents" "$corpora/claude-agents-2" \
	"$corpora/copilot-agents" "$corpora/opencode-agents" | node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).imported.length)')
check parse "$imp/.binnacle/agents/config.kdl" "$imported"
ok "import of the corpora ($imported agents): config.kdl read by @bgotink/kdl"

# 6. Exported agents, read by the tools themselves: every tool lists every
# agent bn wrote for it, on a fresh project and on the imported corpora.
bin=$CLIENTS_DIR/node_modules/.bin
expect_listed() { # tool listing ids...
	local tool=$1 out=$2
	shift 2
	for n in "$@"; do
		grep -Fqx -- "$n" <<<"$out" || { echo "FAIL: $tool does not list agent $n; it lists:"; echo "$out"; exit 1; }
	done
}
# export_ids TARGET: exports (trusting the project, as a user would with
# --trust) and prints the id of every agent file written, one per line:
# its path under the directory, or for Copilot its name field if any.
export_ids() {
	# shellcheck disable=SC2016 # the $2 is JavaScript's
	"$BN" config agents export --target "$1" --trust 2>/dev/null | node -e '
		const fs = require("fs");
		const r = JSON.parse(fs.readFileSync(0, "utf8"));
		const ext = { codex: ".toml", copilot: ".agent.md", cline: ".yaml", "kiro-cli": ".json" }[r.target] ?? ".md";
		for (const f of r.files) {
			if (!f.agent || !f.path.endsWith(ext)) continue; // not its compiled rules
			const name = r.target === "copilot" && fs.readFileSync(f.path, "utf8").match(/^name: (.*)$/m);
			console.log(name ? name[1].replace(/^(["\x27])(.*)\1$/, "$2") : f.path.slice(r.dir.length + 1, -ext.length));
		}'
}
claude_env=(DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1)
opencode_env=(XDG_CONFIG_HOME="$tmp/oc/config" XDG_DATA_HOME="$tmp/oc/data" XDG_CACHE_HOME="$tmp/oc/cache" XDG_STATE_HOME="$tmp/oc/state")
kilo_env=(XDG_CONFIG_HOME="$tmp/kilo/config" XDG_DATA_HOME="$tmp/kilo/data" XDG_CACHE_HOME="$tmp/kilo/cache" XDG_STATE_HOME="$tmp/kilo/state")
copilot_env=(COPILOT_HOME="$HOME/.copilot" COPILOT_AUTO_UPDATE=false)
mkdir -p "$HOME/.gemini"
echo '{"security":{"auth":{"selectedType":"gemini-api-key"}}}' >"$HOME/.gemini/settings.json"

# stand_in LOG: starts the model stand-in, recording requests in LOG;
# sets server (its pid) and port.
stand_in() {
	: >"$1"
	: >"$1.port"
	node "$here/model-stand-in.mjs" "$1" >"$1.port" &
	server=$!
	for _ in $(seq 50); do [ -s "$1.port" ] && break; sleep 0.1; done
	port=$(cat "$1.port")
}

# agent_list TOOL OUT ENV...: TOOL's agent list (OpenCode, Kilo) into
# OUT, once more if it exits with no word at all (under load Kilo has
# died at start silently); a failure says its exit status.
agent_list() {
	local tool=$1 out=$2 status=0 try
	shift 2
	for try in 1 2; do
		env "$@" timeout "$wait" "$bin/$tool" agent list >"$out" 2>&1 && return 0
		status=$?
		if [ "$try" = 1 ] && [ ! -s "$out" ]; then
			echo "note: $tool agent list exited $status with no output; running it once more"
			continue
		fi
		break
	done
	echo "FAIL: $tool agent list (exit $status): $(cat "$out")"
	exit 1
}

clients_list_every_agent() { # label
	local label=$1 ids out port
	mapfile -t ids < <(export_ids opencode)
	# To a file, not a pipe: Node may exit before it has written all of a
	# large listing to a pipe (the imported corpora list 560 KB), and the
	# agents at the end would seem missing.
	agent_list opencode "$tmp/opencode-agents.txt" "${opencode_env[@]}"
	out=$(<"$tmp/opencode-agents.txt")
	expect_listed opencode "$(sed -nE 's/^([^ ]+) \((primary|subagent|all)\)$/\1/p' <<<"$out")" "${ids[@]}"
	ok "$label: opencode agent list shows all ${#ids[@]} exported agents"

	# Kilo, built on OpenCode, lists its agents the same way.
	mapfile -t ids < <(export_ids kilo)
	agent_list kilo "$tmp/kilo-agents.txt" "${kilo_env[@]}"
	expect_listed kilo "$(sed -nE 's/^([^ ]+) \((primary|subagent|all)\)$/\1/p' "$tmp/kilo-agents.txt")" "${ids[@]}"
	ok "$label: kilo agent list shows all ${#ids[@]} exported agents"

	mapfile -t ids < <(export_ids claude)
	rm -rf "$HOME/.claude/debug"
	out=$(env "${claude_env[@]}" timeout "$wait" "$bin/claude" --debug --agent __bn_probe__ -p hi </dev/null 2>&1) || true
	expect_listed claude "$(grep -i 'available agents' <<<"$out" | sed 's/.*[Aa]vailable agents: //' | tr ',' '\n' | sed 's/^ *//')" "${ids[@]}"
	if grep -rh '\[ERROR\] Agent file' "$HOME/.claude/debug" 2>/dev/null; then echo "FAIL: claude rejected an agent file"; exit 1; fi
	ok "$label: claude --agent lists all ${#ids[@]} exported agents and rejects none"

	mapfile -t ids < <(export_ids copilot)
	rm -rf "$tmp/copilot-logs"
	out=$(env "${copilot_env[@]}" COPILOT_OFFLINE=true COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:9/v1 \
		timeout "$wait" "$bin/copilot" --agent __bn_probe__ --model x -p hi --no-auto-update --log-dir "$tmp/copilot-logs" </dev/null 2>&1) || true
	expect_listed copilot "$(grep 'No such agent' <<<"$out" | sed 's/.*[Aa]vailable[^:]*: //' | tr ',' '\n' | sed 's/^ *//; s/\.$//')" "${ids[@]}"
	# (The CLI also reads .claude/agents, which hold what their sources wrote.)
	if grep -rh "\[ERROR\].*\.github/agents/" "$tmp/copilot-logs" 2>/dev/null; then echo "FAIL: copilot rejected an agent file"; exit 1; fi
	ok "$label: copilot --agent lists all ${#ids[@]} exported agents and rejects none"

	# Codex names its loaded roles in the spawn tool of its first request.
	mapfile -t ids < <(export_ids codex)
	out=$(env -i HOME="$HOME" PATH="$PATH" timeout "$wait" "$bin/codex" debug prompt-input x 2>/dev/null) || { echo "FAIL: codex debug prompt-input"; exit 1; }
	expect_listed codex "$(node -e '
		const s = require("fs").readFileSync(0, "utf8");
		const m = s.match(/Available roles:((?:\\.|[^"\\])*)"/);
		if (m) for (const line of JSON.parse("\"" + m[1] + "\"").split("\n")) { const r = line.match(/^(\S+): \{$/); if (r) console.log(r[1]); }' <<<"$out")" "${ids[@]}"
	ok "$label: codex loads all ${#ids[@]} exported agents (project trusted by export --trust)"

	# Gemini names its loaded sub-agents in its first model request: a
	# stand-in for the API on 127.0.0.1 records it.
	mapfile -t ids < <(export_ids gemini)
	local server
	stand_in "$tmp/gemini-requests"
	out=$(GEMINI_API_KEY=dummy GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$port timeout "$wait" "$bin/gemini" -m gemini-2.5-flash -p hi </dev/null 2>&1) || { kill "$server"; echo "FAIL: gemini: $out"; exit 1; }
	kill "$server"
	if grep -q 'Agent loading error' <<<"$out"; then echo "FAIL: gemini rejected an agent file: $out"; exit 1; fi
	expect_listed gemini "$(grep -o '\\n- [^ ]* -> ' "$tmp/gemini-requests" | sed 's/^\\n- //; s/ -> $//' | sort -u)" "${ids[@]}"
	ok "$label: gemini loads all ${#ids[@]} exported agents (folder trusted and agents acknowledged by export --trust)"

	# Droid names the custom droids it loaded in its first model request,
	# to a custom model (bring your own key) the stand-in answers.
	mapfile -t ids < <(export_ids droid)
	stand_in "$tmp/droid-requests"
	mkdir -p "$HOME/.factory"
	echo '{"customModels":[{"model":"probe-model","displayName":"Probe","baseUrl":"http://127.0.0.1:'"$port"'/v1","apiKey":"probe","provider":"generic-chat-completion-api","maxOutputTokens":1000}]}' >"$HOME/.factory/settings.json"
	timeout "$wait" "$bin/droid" exec -m custom:probe-model hi </dev/null >/dev/null 2>&1 || true
	kill "$server"
	# shellcheck disable=SC2016 # JavaScript
	expect_listed droid "$(node -e '
		const text = require("fs").readFileSync(process.argv[1], "utf8");
		const seen = new Set();
		for (const line of text.split("\n")) {
			if (!line.startsWith("{")) continue;
			const s = JSON.stringify(JSON.parse(line).messages ?? "");
			for (const m of s.matchAll(/\\n- ([a-z0-9_-]+): (?:(?!\\n).)*\(location: project\)/g)) seen.add(m[1]);
		}
		console.log([...seen].join("\n"));' "$tmp/droid-requests")" "${ids[@]}"
	ok "$label: droid loads all ${#ids[@]} exported droids"

	# Qwen Code lists the sub-agents it loaded in its agent tool, in its
	# first request to an OpenAI-compatible endpoint the stand-in answers.
	mapfile -t ids < <(export_ids qwen)
	stand_in "$tmp/qwen-requests"
	mkdir -p "$HOME/.qwen"
	echo '{"security":{"auth":{"selectedType":"openai"}}}' >"$HOME/.qwen/settings.json"
	OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=probe timeout "$wait" "$bin/qwen" --auth-type openai -m probe-model -p hi </dev/null >/dev/null 2>&1 || true
	kill "$server"
	# shellcheck disable=SC2016 # JavaScript
	expect_listed qwen "$(node -e '
		const text = require("fs").readFileSync(process.argv[1], "utf8");
		const seen = new Set();
		for (const line of text.split("\n")) {
			if (!line.startsWith("{")) continue;
			for (const t of JSON.parse(line).tools ?? []) {
				if (t.function?.name !== "agent") continue;
				for (const m of t.function.description.matchAll(/^- \*\*([^*]+)\*\*:/gm)) seen.add(m[1]);
			}
		}
		console.log([...seen].join("\n"));' "$tmp/qwen-requests")" "${ids[@]}"
	ok "$label: qwen lists all ${#ids[@]} exported agents"

	# Cline, oh-my-pi and Pi: with make test-clients MORE_CLIENTS=1.
	if [ -n "${BN_MORE_CLIENTS:-}" ]; then
		# Cline offers the model a tool for each agent it loaded, named in its
		# description, in its first request to an OpenAI-compatible endpoint.
		mapfile -t ids < <(export_ids cline)
		stand_in "$tmp/cline-requests"
		mkdir -p "$HOME/.cline/data/settings"
		echo '{"version":1,"lastUsedProvider":"openai-compatible","modes":{},"providers":{"openai-compatible":{"settings":{"provider":"openai-compatible","apiKey":"probe","model":"probe-model","baseUrl":"http://127.0.0.1:'"$port"'/v1"},"updatedAt":"2026-01-01T00:00:00.000Z","tokenSource":"manual"}}}' >"$HOME/.cline/data/settings/providers.json"
		CLINE_SESSION_BACKEND_MODE=local CLINE_NO_AUTO_UPDATE=1 timeout "$wait" "$bin/cline" --json "say hi" </dev/null >/dev/null 2>&1 || true
		kill "$server"
		# shellcheck disable=SC2016 # JavaScript
		expect_listed cline "$(node -e '
			const text = require("fs").readFileSync(process.argv[1], "utf8");
			const seen = new Set();
			for (const line of text.split("\n")) {
				if (!line.startsWith("{")) continue;
				for (const t of JSON.parse(line).tools ?? []) {
					const m = (t.function?.description ?? "").match(/^Use the "(.*)" subagent: /s);
					if (t.function?.name.startsWith("subagent_") && m) seen.add(m[1]);
				}
			}
			console.log([...seen].join("\n"));' "$tmp/cline-requests")" "${ids[@]}"
		ok "$label: cline loads all ${#ids[@]} exported agents"

		# oh-my-pi names the agents it loaded in its task tool (### NAME).
		mapfile -t ids < <(export_ids omp)
		stand_in "$tmp/omp-requests"
		mkdir -p "$HOME/.omp/agent"
		printf 'providers:\n  probe:\n    baseUrl: http://127.0.0.1:%s/v1\n    api: openai-completions\n    apiKey: probe\n    models:\n      - id: probe-model\n' "$port" >"$HOME/.omp/agent/models.yml"
		PATH="$bin:$PATH" timeout "$wait" "$bin/omp" --model probe/probe-model -p hi </dev/null >/dev/null 2>&1 || true
		kill "$server"
		# shellcheck disable=SC2016 # JavaScript
		expect_listed omp "$(node -e '
			const text = require("fs").readFileSync(process.argv[1], "utf8");
			const seen = new Set();
			for (const line of text.split("\n")) {
				if (!line.startsWith("{")) continue;
				for (const t of JSON.parse(line).tools ?? []) {
					if (t.function?.name !== "task") continue;
					for (const m of t.function.description.matchAll(/^### (\S+)/gm)) seen.add(m[1]);
				}
			}
			console.log([...seen].join("\n"));' "$tmp/omp-requests")" "${ids[@]}"
		ok "$label: omp loads all ${#ids[@]} exported agents"

		# Pi's subagent extension names the agents it found only in an
		# answer: the stand-in calls its tool without a task, and the answer
		# (Available agents: NAME (project), …) comes back in the next request.
		mapfile -t ids < <(export_ids pi)
		STANDIN_CALL='{"tool":"subagent","arguments":{"agentScope":"both"}}' stand_in "$tmp/pi-requests"
		mkdir -p "$HOME/.pi/agent/extensions/subagent"
		echo '{"providers":{"probe":{"baseUrl":"http://127.0.0.1:'"$port"'/v1","api":"openai-completions","apiKey":"probe","compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false},"models":[{"id":"probe-model"}]}}}' >"$HOME/.pi/agent/models.json"
		echo '{"defaultProvider":"probe","defaultModel":"probe-model"}' >"$HOME/.pi/agent/settings.json"
		ln -sf "$CLIENTS_DIR/node_modules/@mariozechner/pi-coding-agent/examples/extensions/subagent/index.ts" \
			"$CLIENTS_DIR/node_modules/@mariozechner/pi-coding-agent/examples/extensions/subagent/agents.ts" "$HOME/.pi/agent/extensions/subagent/"
		timeout "$wait" "$bin/pi" -p hi </dev/null >/dev/null 2>&1 || true
		kill "$server"
		# shellcheck disable=SC2016 # JavaScript
		expect_listed pi "$(node -e '
			const text = require("fs").readFileSync(process.argv[1], "utf8");
			const m = text.match(/Available agents: ((?:\\.|[^"\\])*)/);
			if (m) for (const a of JSON.parse("\"" + m[1] + "\"").split("\n")[0].split(", ")) console.log(a.replace(/ \((project|user)\)$/, ""));' "$tmp/pi-requests")" "${ids[@]}"
		ok "$label: pi's subagent extension finds all ${#ids[@]} exported agents"
	fi

	# The agents as a Claude Code plugin, in a marketplace at the project's
	# root: Claude Code and the Copilot CLI install it offline and list
	# each agent as PLUGIN:NAME (the plugin is named after the project).
	mapfile -t ids < <(export_ids claude-plugin)
	local plugin
	plugin=$(basename "$PWD")
	env "${claude_env[@]}" timeout "$wait" "$bin/claude" plugin marketplace add "$PWD" >/dev/null 2>&1 || { echo "FAIL: claude plugin marketplace add"; exit 1; }
	env "${claude_env[@]}" timeout "$wait" "$bin/claude" plugin install "$plugin@$plugin" >/dev/null 2>&1 || { echo "FAIL: claude plugin install"; exit 1; }
	out=$(env "${claude_env[@]}" timeout "$wait" "$bin/claude" --agent __bn_probe__ -p hi </dev/null 2>&1) || true
	expect_listed claude-plugin "$(grep -i 'available agents' <<<"$out" | sed 's/.*[Aa]vailable agents: //' | tr ',' '\n' | sed -n "s/^ *$plugin://p")" "${ids[@]}"
	env "${claude_env[@]}" timeout "$wait" "$bin/claude" plugin uninstall "$plugin@$plugin" >/dev/null 2>&1 || true
	ok "$label: claude installs the exported plugin and lists all ${#ids[@]} of its agents"
	env "${copilot_env[@]}" timeout "$wait" "$bin/copilot" plugin marketplace add "$PWD" >/dev/null 2>&1 || { echo "FAIL: copilot plugin marketplace add"; exit 1; }
	env "${copilot_env[@]}" timeout "$wait" "$bin/copilot" plugin install "$plugin@$plugin" >/dev/null 2>&1 || { echo "FAIL: copilot plugin install"; exit 1; }
	out=$(env "${copilot_env[@]}" COPILOT_OFFLINE=true COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:9/v1 \
		timeout "$wait" "$bin/copilot" --agent __bn_probe__ --model x -p hi --no-auto-update </dev/null 2>&1) || true
	expect_listed copilot "$(grep 'No such agent' <<<"$out" | sed 's/.*[Aa]vailable[^:]*: //' | tr ',' '\n' | sed 's/\.$//' | sed -n "s/^ *$plugin://p")" "${ids[@]}"
	env "${copilot_env[@]}" timeout "$wait" "$bin/copilot" plugin uninstall "$plugin" >/dev/null 2>&1 || true
	ok "$label: copilot installs the exported plugin and lists all ${#ids[@]} of its agents"
}

clients_list_every_agent "fresh project"
out=$(env "${opencode_env[@]}" timeout "$wait" "$bin/opencode" debug agent ask 2>&1)
node -e '
	const agent = JSON.parse(require("fs").readFileSync(0, "utf8"));
	const has = (permission, pattern, action) => agent.permission.some((r) => r.permission === permission && r.pattern === pattern && r.action === action);
	const want = [["bash", "git log *", "allow"], ["bash", "git push *", "deny"], ["*", "*", "deny"], ["edit", "*", "deny"], ["read", "*", "allow"]];
	const missing = want.filter((w) => !has(...w));
	if (agent.mode !== "all" || missing.length) { console.error("FAIL: opencode debug agent ask:", agent.mode, JSON.stringify(missing)); process.exit(1); }
' <<<"$out"
ok "opencode debug agent ask: bash patterns, everything else denied"

cd "$imp"
clients_list_every_agent "imported corpora"
cd "$proj"

# 7. MCP: an official client uses every tool of bn mcp serve; Claude Code
# and Copilot read the configs bn wrote.
node "$here/mcp-check.mjs" "$BN" "$proj"
ok "MCP client lists and calls list_agents, show_agent, emit_prompt, check_tool"

"$BN" session init --write-mcp-json -H >/dev/null
out=$(env "${claude_env[@]}" timeout "$wait" "$bin/claude" mcp get binnacle 2>&1) || true
for want in 'Type: stdio' 'Command: bn' 'Args: mcp serve'; do
	grep -qF "$want" <<<"$out" || { echo "FAIL: claude mcp get binnacle lacks '$want':"; echo "$out"; exit 1; }
done
ok "claude reads the binnacle server from .mcp.json"

out=$(env "${copilot_env[@]}" COPILOT_ALLOW_ALL=true timeout "$wait" "$bin/copilot" mcp get binnacle 2>&1) || true
for want in 'Command: bn mcp serve' 'Status: Enabled'; do
	grep -qF "$want" <<<"$out" || { echo "FAIL: copilot mcp get binnacle lacks '$want':"; echo "$out"; exit 1; }
done
grep -qi 'invalid\|malformed' <<<"$out" && { echo "FAIL: copilot warns about .mcp.json:"; echo "$out"; exit 1; }
"$BN" system host-init --write-mcp-copilot -H >/dev/null
out=$(env "${copilot_env[@]}" timeout "$wait" "$bin/copilot" mcp list 2>&1) || true
grep -q 'binnacle (local)' <<<"$out" || { echo "FAIL: copilot mcp list does not show binnacle:"; echo "$out"; exit 1; }
ok "copilot reads the binnacle server from .mcp.json and mcp-config.json"

# 8. verify: the clients judge a project's agents; a read-only agent and
# an agent with no tool mean the same everywhere, a shell pattern is
# enforced by bn's hook in Claude Code and widened where the tool cannot
# hold it (the Gemini CLI; Codex, whose agent files limit nothing), as
# export reports.
ver=$tmp/verify
mkdir -p "$ver/.git" "$ver/.binnacle/agents"
cat >"$ver/.binnacle/agents/config.kdl" <<'KDL'
export {
    built-in-agents #false
}
agent "reviewer" {
    description "Reads"
    prompt "Review the change."
    tools {
        reset
        allow read glob grep
    }
}
agent "talker" {
    description "No tools"
    prompt "Talk with the user."
    tools {
        reset
    }
}
agent "differ" {
    description "Diffs"
    prompt "Diff the change."
    tools {
        reset
        allow read "shell(git diff:*)"
    }
}
KDL
status=0
out=$(cd "$ver" && "$BN" config agents verify --client-dir "$CLIENTS_DIR" --target claude,codex,copilot,gemini,kilo,opencode,qwen -H) || status=$?
[ "$status" = 1 ] || { echo "FAIL: verify exited $status, not 1:"; echo "$out"; exit 1; }
for want in '  reviewer                 differs: Claude Code offers list, which the definition does not grant (reported by export)' '  talker                   same: no tool' \
	'  differ                   same: Bash, Read' \
	'  differ                   differs: Gemini CLI ran "expr 4000 + 242", which the definition does not allow (reported by export)' \
	'  differ                   same: bash, read' \
	'  reviewer                 differs: Codex offers edit, which the definition does not grant (reported by export)'; do
	grep -qxF -- "$want" <<<"$out" || { echo "FAIL: verify lacks '$want':"; echo "$out"; exit 1; }
done
if grep -q 'not reported by export' <<<"$out"; then echo "FAIL: verify found an unreported difference:"; echo "$out"; exit 1; fi
if [ -e "$ver/.claude" ] || [ -e "$ver/.github" ] || [ -e "$ver/.codex" ] || [ -e "$ver/.kilo" ] || [ -e "$ver/.qwen" ] || [ -e "$ver/.cline" ] || [ -e "$ver/.pi" ] || [ -e "$ver/.omp" ]; then echo "FAIL: verify wrote into the project"; exit 1; fi
ok "verify: Claude Code, Codex, Copilot, the Gemini CLI, Kilo, OpenCode and Qwen Code judge a project's agents; every difference reported by export"

echo "$passed passed, 0 failed"
