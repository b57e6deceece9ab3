// Command plainwrite is the floor `make bench` holds bn's export to: the
// least a program can do to write the same files safely. It reads every
// file of SRC and writes it into DST (made if missing) as bn writes a
// file: a temporary file beside it, given the file's mode, then a rename
// over it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: plainwrite SRC DST")
		os.Exit(2)
	}
	src, dst := os.Args[1], os.Args[2]
	if err := write(src, dst); err != nil {
		fmt.Fprintln(os.Stderr, "plainwrite:", err)
		os.Exit(1)
	}
}

func write(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		tmp, err := os.CreateTemp(dst, "."+e.Name()+".tmp-*")
		if err != nil {
			return err
		}
		_, werr := tmp.Write(data)
		if cerr := tmp.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(tmp.Name(), 0o644)
		}
		if werr != nil {
			return werr
		}
		if err := os.Rename(tmp.Name(), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
