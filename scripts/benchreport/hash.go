//go:build linux

package main

import (
	"crypto/sha256"
	"encoding/hex"
)

// sessionHash is binnacle's session key, written out here so the fixture
// does not depend on the code it measures.
func sessionHash(canonicalRoot string) string {
	sum := sha256.Sum256([]byte(canonicalRoot))
	return hex.EncodeToString(sum[:])[:12]
}
