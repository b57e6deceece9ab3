// Package clientbin finds a tool's client program, as doctor and verify
// look for it. It is apart from probe, which drives the clients, so bn's
// own commands find a client without linking probe's HTTP stand-in.
package clientbin
