// Package config reads and writes bn's layer files: config.kdl (KDL 2.0
// or 1.0) and markdown agent files with YAML frontmatter, decoded into
// agents.File values with every problem located (file, line, column,
// agent, field, and a fix). It also writes definitions back as KDL nodes
// and edits a config.kdl node by node, keeping comments and its version.
package config
