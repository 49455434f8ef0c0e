// Package rules holds the checks over the module's own source that keep
// each of the explorer's input and output rules in one place: a test here
// parses every non-test Go file and fails when a package reaches past the
// one implementation of a rule (a number parsed with strconv rather than
// internal/numtext, say, or a lab that reads a link's results row itself
// rather than through the pool). The package has no code of its own to link.
package rules
