// Package importer brings other tools' agent files into bn and measures
// how faithfully bn's output keeps them: it collects source files without
// ever blocking on special files, plans an import into a config.kdl (edited
// node by node, in its own KDL version, with prompt files beside it, all
// written as one unit), compares a source file with bn's output for the
// same agent as meaning (tool access in three states, model, every field,
// the prompt), and shows every agent each tool on this machine would see.
package importer
