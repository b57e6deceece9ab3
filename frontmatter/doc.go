// Package frontmatter reads markdown files that start with YAML
// frontmatter: it splits the two, and reads the frontmatter's top-level
// keys with the file line and column of each. Plain `key: value` lines,
// which nearly all agent files are, go through a small fast path that a
// differential fuzz test holds to what goccy/go-yaml reads; everything
// else goes to goccy/go-yaml. Read is strict YAML; Lenient also reads
// frontmatter that strict YAML rejects but agent tools accept.
package frontmatter
