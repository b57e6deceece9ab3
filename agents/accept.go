package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// fingerprintHex is how many hex digits of the hash a fingerprint keeps:
// enough to tell one agent's differences for one tool and field apart,
// short enough to copy into an accept node.
const fingerprintHex = 8

// Fingerprint names one difference of an agent's file for a target, as
// an accept node accepts it: TARGET:FIELD:HASH, the hash of the agent,
// the target, the field, the kind and the detail. Any change in what the
// difference says makes a new fingerprint, which no accept matches.
func Fingerprint(agent, target, field, kind, detail string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{agent, target, field, kind, detail}, "\x00")))
	return target + ":" + field + ":" + hex.EncodeToString(sum[:])[:fingerprintHex]
}

// FingerprintTarget is the target a well-formed fingerprint names.
func FingerprintTarget(fp string) string {
	t, _, _ := strings.Cut(fp, ":")
	return t
}

// CheckFingerprint checks the form of a fingerprint an accept node gives:
// a target among tools, a field, and the hash.
func CheckFingerprint(fp string, tools []string) error {
	parts := strings.Split(fp, ":")
	if len(parts) != 3 || parts[1] == "" {
		return fmt.Errorf("%q is not a fingerprint: copy one as an export's report prints it, TARGET:FIELD:HASH (copilot:tools:1a2b3c4d)", fp)
	}
	if !slices.Contains(tools, parts[0]) {
		return fmt.Errorf("fingerprint %q names no tool %q: use one of %s%s", fp, parts[0], strings.Join(tools, ", "), hintSuffix(DidYouMean(parts[0], tools)))
	}
	if _, err := hex.DecodeString(parts[2]); err != nil || len(parts[2]) != fingerprintHex || strings.ToLower(parts[2]) != parts[2] {
		return fmt.Errorf("fingerprint %q: its hash %q is not %d lower-case hex digits; copy it as the export's report prints it", fp, parts[2], fingerprintHex)
	}
	return nil
}

func hintSuffix(h string) string {
	if h == "" {
		return ""
	}
	return " (" + h + ")"
}
