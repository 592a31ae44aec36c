// Package policy is the workspace visibility policy of docs/protocol.md §4, in one
// place. Every feature that names or reads workspace entries (project.files,
// project.list/read, the MCP tools) asks the same decision function,
// Policy.Check, through one of two walks:
//
//   - a recursive scan keeps one Frame per open directory: RootFrame for the
//     workspace root, Enter for each directory it descends into (pushing that
//     directory's ignore rules), and Check for every name it reads;
//   - a single path is resolved component by component with Resolve, which
//     does the same Enter/Check steps, opening every directory through
//     fsguard, so a path is visible exactly when a scan could have reached it.
//
// An entry is hidden when it is a symlink or special file, its name is not
// safe (fsguard.SafeName), it is protected (built-in credential names, the
// configuration's deny globs, provider credential files, the backend home
// inside the workspace, and every protection reserved earlier in the
// process), or it is noise (.git, .hg, .svn, .jj, node_modules, and what the
// ignore rules exclude when they are respected). Because a walk never enters
// a hidden directory, every rule applies to every path component.
//
// Ignore rules are read from .gitignore and .ignore in every directory and
// from .git/info/exclude at the root (and, for a workspace below the top of
// a git repository, from the repository's ignore files above it:
// ancestors.go), with git's precedence: deeper files
// override shallower ones, .ignore overrides .gitignore in the same directory,
// and later lines override earlier ones. As in git, a pattern decides an
// entry by the entry's own path: a pattern without a slash by its name, one
// with a slash by the whole path below the ignore file's directory,
// component by component (matchComps in ignore.go), each component by git's
// wildmatch (wildmatch.go). Both are checked against git check-ignore.
//
// A Policy is immutable and carries its generation. Manager owns the
// sequence of policies of one process: the generation counter, the
// reserved protections that are never forgotten, and the settlement that
// requests wait for during a transition (workspace.trust).
package policy
