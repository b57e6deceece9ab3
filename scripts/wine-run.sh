#!/usr/bin/env bash
# Runs one Windows program under Wine 10, in the Debian 13 root that
# scripts/wine-root.sh sets up once (and this script sets up if missing).
#
#   scripts/wine-run.sh [-s SRCDIR [-C RELDIR]] PROGRAM [ARGS...]
#
# PROGRAM's directory is mounted at /prog in the root; SRCDIR, if given, at
# /src, and the program runs in /src/RELDIR (else in /). The mounts live in a
# mount namespace of this script's own, so they vanish with it even if it
# is killed; a trap undoes them on the way out too, and the Wine server is
# stopped. The Wine prefix is kept in the root between runs: making one
# takes a while. Exits with the program's status.
set -euo pipefail

if [ "${BN_WINE_NS:-}" != 1 ]; then
	root=$("$(dirname "$0")/wine-root.sh" | tail -n1)
	# One program at a time in the root: every Wine client connects to the
	# one Wine server of the prefix, which resolves paths in the mount
	# namespace of the run that started it.
	exec 8>"$root.run.lock"
	flock 8
	BN_WINE_NS=1 BN_WINE_ROOT=$root exec unshare --mount --propagation private "$0" "$@"
fi

root=$BN_WINE_ROOT
src='' rel=.
while getopts s:C: opt; do
	case $opt in
	s) src=$(realpath "$OPTARG") ;;
	C) rel=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
prog=$(realpath "$1")
shift

undo() {
	chroot "$root" /usr/lib/wine/wineserver -k 2>/dev/null || true
	chroot "$root" /usr/lib/wine/wineserver -w 2>/dev/null || true
	umount "$root/prog" "$root/src" "$root/dev" "$root/proc" 2>/dev/null || true
}
trap undo EXIT
mkdir -p "$root/prog" "$root/src" "$root/var/lib/bn-wine/run"
chmod 700 "$root/var/lib/bn-wine/run"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind "$(dirname "$prog")" "$root/prog"
cwd=/
if [ -n "$src" ]; then
	mount --bind "$src" "$root/src"
	cwd=/src/$rel
fi
# shellcheck disable=SC2016 # the inner shell expands $1 and $@
chroot "$root" env -i WINEDEBUG=-all HOME=/var/lib/bn-wine XDG_RUNTIME_DIR=/var/lib/bn-wine/run \
	"WINEDLLOVERRIDES=mscoree,mshtml=" LANG=C.UTF-8 TZ=UTC PATH=/usr/bin:/bin \
	sh -c 'cd "$1" && shift && exec /usr/lib/wine/wine64 "$@"' - "$cwd" "/prog/$(basename "$prog")" "$@"
