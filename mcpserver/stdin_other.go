//go:build !unix

package mcpserver

import "os"

// pollable returns f: only Unix pipes are read through the poller.
func pollable(f *os.File) (r *os.File, restore func()) { return f, func() {} }
