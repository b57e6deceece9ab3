#!/usr/bin/env bash
# make test-windows: builds each package's tests for windows/amd64 and runs
# them under Wine 10 (scripts/wine-run.sh, in the Debian 13 root that
# scripts/wine-root.sh sets up once), each from its package directory in
# the checkout, as `go test` runs them, so they find their testdata.
#
#   scripts/test-windows.sh [PACKAGE...]   (default: every package)
#   BN_WINE_TIMEOUT    each package's test timeout (default 30m: cmd/bn's scripts took 823 s under Wine on a loaded machine)
#
# Prints one `ok` or `FAIL` line a package, as go test does, and a count.
set -euo pipefail
cd "$(dirname "$0")/.."

# The probe package drives the real clients (Node programs on the host,
# stand-in servers on loopback) and is not meant for Windows.
excluded='/probe$'
pkgs=("$@")
# Every package with tests that build for Windows (scripts/benchreport
# measures Linux processes and builds for Linux alone).
[ ${#pkgs[@]} -gt 0 ] || mapfile -t pkgs < <(GOOS=windows go list -e \
	-f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./... | grep -Ev "$excluded")

scripts/wine-root.sh >/dev/null # before the builds: a first setup says so
bins=$(mktemp -d)
trap 'rm -rf "$bins"' EXIT
echo "building the tests of ${#pkgs[@]} packages for windows/amd64" >&2
for p in "${pkgs[@]}"; do
	rel=$(go list -f '{{.Dir}}' "$p")
	rel=${rel#"$PWD"}
	rel=${rel#/}
	rel=${rel:-.}
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -o "$bins/${rel//\//_}.test.exe" "./$rel"
done

# skips PACKAGE-DIR: the -test.skip pattern of that package's lines in
# scripts/windows-skip.txt: top-level tests (Test), or subtests of tests
# (Test/sub, one level a slash, as go test splits it), not both.
skips() {
	awk -v p="$1" '$1 !~ /^#/ && index($1, p ":") == 1 {
			sub(/^[^:]*:/, "", $1); n = split($1, t, "/")
			if (!(t[1] in top)) { top[t[1]]; tops = tops (tops == "" ? "" : "|") t[1] }
			if (n > 1) subs = subs (subs == "" ? "" : "|") t[2]
		}
		END { if (tops != "") print "^(" tops ")$" (subs == "" ? "" : "/^(" subs ")$") }' scripts/windows-skip.txt
}
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1fs", b - a }'; }
passed=0 failed=0
for p in "${pkgs[@]}"; do
	rel=$(go list -f '{{.Dir}}' "$p")
	rel=${rel#"$PWD"}
	rel=${rel#/}
	rel=${rel:-.}
	start=$EPOCHREALTIME
	skip=$(skips "$rel")
	if scripts/wine-run.sh -s . -C "$rel" "$bins/${rel//\//_}.test.exe" -test.count=1 -test.timeout="${BN_WINE_TIMEOUT:-30m}" \
		${skip:+"-test.skip=$skip"} >"$bins/out" 2>&1; then
		passed=$((passed + 1))
		printf 'ok  \t%s\t%s\n' "$rel" "$(elapsed "$start")"
	else
		failed=$((failed + 1))
		cat "$bins/out"
		printf 'FAIL\t%s\t%s\n' "$rel" "$(elapsed "$start")"
	fi
done
echo "windows: $passed passed, $failed failed ($(grep -cv '^#' scripts/windows-skip.txt) tests in scripts/windows-skip.txt not run)"
[ "$failed" -eq 0 ]
