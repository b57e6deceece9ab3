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
names=$("$BN" config agents list -H | awk '/^  [A-Za-z0-9]/ {print $1}')
for name in $names; do
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
sed -E 's#^// ?##' "$scaffold/.binnacle/agents/config.kdl" | grep -v '^bn agent definitions\|^Layers apply\|^true/false\|^replace; \|^pattern and\|^`bn config\|^and `bn\|^Change a\|^Add an\|^Remove an\|^$' >"$tmp/uncommented.kdl" || true
check parse "$tmp/uncommented.kdl" 3; ok "init scaffold examples"

# 4. init NAME appends to an existing config.kdl.
"$BN" config agents init worker >/dev/null
check parse "$proj/.binnacle/agents/config.kdl" 3; ok "init worker into an existing config.kdl"

echo "$passed passed, 0 failed"
