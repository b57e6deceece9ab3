// Package team keeps shared source layers: agent definitions in a git
// repository that many projects name in their config.kdl. Fetch resolves
// each source's ref to a commit with the system git, stores the tree in
// bn's cache and records URL, ref, commit and a hash of the files in a
// lock file beside the config.kdl. Resolving agents reads only the cache:
// it never runs git or touches the network, and it verifies the hash, so
// a missing, moved or tampered tree fails closed.
package team
