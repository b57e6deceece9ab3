// Package wine tells a test whether it runs under Wine, which runs bn's
// Windows tests on Linux (make test-windows). Wine is not Windows: where
// it lacks a Windows behaviour a test depends on, the test skips under
// Wine alone, naming the behaviour; wine_test.go reproduces each one, and
// fails once Wine gains it, so the skips are removed.
package wine
