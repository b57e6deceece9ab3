// Package verify asks the real tools what bn's exported agents mean:
// `bn config agents verify`. For each tool whose client is installed (on
// PATH, or in a directory named), it renders each agent as export would,
// runs the client offline as that agent against a stand-in model API
// (package probe), and compares what the client grants with the
// definition. It writes nothing in the repository or the user's home.
package verify
