package main

import (
	"testing"

	"github.com/binnacle-dev/bn/verify"
	"github.com/stretchr/testify/assert"
)

// bn keeps the probe package (and its HTTP server) out of its own binary,
// so it names verify's targets from the registry itself: the two lists
// must agree.
func TestVerifyTargetsAgree(t *testing.T) {
	assert.Equal(t, verify.Targets(), verifyTargets())
}
