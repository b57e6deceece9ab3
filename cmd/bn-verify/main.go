// Command bn-verify is `bn config agents verify`: it runs the tools'
// clients, offline, to see what they grant bn's agents. It is a binary of
// its own so that the stand-in model server stays off every other bn
// command's start-up.
package main

import (
	"os"

	"github.com/binnacle-dev/bn/verify"
)

func main() {
	os.Exit(verify.Main(os.Args[1:], os.Stdout, os.Stderr))
}
