#!/usr/bin/env bash
# Sets up, once, the Debian 13 root whose Wine 10 runs bn's Windows test
# binaries (Debian 12's Wine 8 lacks bcryptprimitives!ProcessPrng, which Go
# 1.26 Windows binaries call). The root lives outside the checkout, since
# scripts/test-windows.sh mounts the checkout inside it, and is reused when
# present: a root is used only once its ready mark is written.
#
#   BN_WINE_ROOT   where the root lives ($XDG_CACHE_HOME/bn-trixie)
#   BN_WINE_MIRROR the Debian mirror (default: the one in the apt sources)
#
# Prints the root's path on its last line. Needs root (debootstrap, chroot,
# mount); takes a lock, so a setup started in the background and a test run
# waiting for it share one root.
set -euo pipefail

root=${BN_WINE_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/bn-trixie}
ready=$root/.bn-ready
stage=$root.partial

# unmount_under DIR: undoes every mount at or under DIR, deepest first, and
# fails if one stays (a bind mount of /dev or the checkout must never be
# exposed to a removal). The scripts mount inside namespaces of their own,
# which take their mounts with them; this is for what an older run left.
unmount_under() {
	local dir m
	dir=$(realpath -m "$1")
	while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m"
	done < <(awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts | sort -r)
	if awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { found = 1 } END { exit !found }' /proc/mounts; then
		echo "wine-root: mounts under $dir remain; not removing it" >&2
		return 1
	fi
}

# remove DIR: removes a root that may have mounts left by a killed run.
remove() {
	[ -e "$1" ] || return 0
	unmount_under "$1"
	rm -rf --one-file-system "$1"
}

# mirror: the Debian mirror of the apt sources in use (deb822 .sources files
# and one-line .list files), not a host written down here.
mirror() {
	if [ -n "${BN_WINE_MIRROR:-}" ]; then
		echo "$BN_WINE_MIRROR"
		return
	fi
	local f u
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		u=$(awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f" | grep -E '/debian/?$' | head -n1 || true)
		[ -n "$u" ] && { echo "$u"; return; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		u=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }' "$f" | grep -E '/debian/?$' | head -n1 || true)
		[ -n "$u" ] && { echo "$u"; return; }
	done
	echo "wine-root: no Debian mirror in /etc/apt/sources.list(.d); set BN_WINE_MIRROR" >&2
	return 1
}

mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
flock 9

if [ -f "$ready" ]; then
	echo "$root"
	exit 0
fi

if ! command -v debootstrap >/dev/null; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
url=$(mirror)
remove "$stage"

echo "wine-root: debootstrap trixie from $url into $stage" >&2
debootstrap --variant=minbase trixie "$stage" "$url" >"$root.log" 2>&1 ||
	{ tail -n 20 "$root.log" >&2; exit 1; }
cp /etc/resolv.conf "$stage/etc/resolv.conf"
echo "wine-root: installing wine" >&2
# In a mount namespace of its own: the mounts go with it, however it ends.
# shellcheck disable=SC2016 # the inner shell expands $1
unshare --mount --propagation private sh -c '
	mount -t proc proc "$1/proc" && mount --bind /dev "$1/dev" &&
	chroot "$1" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine wine64 && apt-get clean" &&
	chroot "$1" /usr/lib/wine/wine64 --version' - "$stage" >>"$root.log" 2>&1 ||
	{ tail -n 20 "$root.log" >&2; exit 1; }
tail -n1 "$root.log" >&2

remove "$root"
mv "$stage" "$root"
touch "$ready"
echo "$root"
