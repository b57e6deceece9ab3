// Package emit turns resolved agent definitions into what other tools read
// (Copilot agent files, KDL for editing) and writes files safely: atomically,
// and only when their content changes.
package emit
