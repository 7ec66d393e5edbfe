#pragma once
// Where the files a spec names lie (docs/spec-format.md, "The spec's tree").
// A spec's tree root is the nearest directory, from the spec's own directory
// upwards, that holds a `trampolines/` directory; when none does, the
// nearest that holds `.git` (the checkout); else the spec's own directory. `[trampolines]` paths are relative to that `trampolines/`
// directory, or to the one `--trampolines DIR` names. Tables and
// certificates name every file relative to the root, so they do not depend
// on the working directory or on how a path was typed; nothing is ever read
// from a path compiled into the binary.
#include <string>

namespace patchcheck {

struct SpecTree {
  // Both usable from the working directory: relative when the spec's path
  // was given relative, absolute when it was given absolute.
  std::string root;
  std::string trampolines;  // root/trampolines; empty when no such directory was found
};

SpecTree locateSpecTree(const std::string& specPath);

// `file` as the tree names it: relative to `root`, '/'-separated, without
// "." or ".." where the file lies inside the tree. An absolute `file`
// outside the tree is named as given (normalised), so a table's bytes do
// not depend on where the spec lies.
std::string treeName(const std::string& root, const std::string& file);

}  // namespace patchcheck
