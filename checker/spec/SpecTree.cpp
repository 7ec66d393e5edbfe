#include "checker/spec/SpecTree.h"

#include <filesystem>
#include <optional>

namespace patchcheck {
namespace fs = std::filesystem;

namespace {

fs::path normal(const fs::path& p) {
  fs::path n = p.lexically_normal();
  if (n.empty()) return ".";
  if (n.has_filename()) return n;
  return n.parent_path().empty() ? fs::path(".") : n.parent_path();  // "a/b/" -> "a/b"
}

fs::path absoluteOf(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return normal(ec ? p : a);
}

// The nearest directory from `dir` upwards holding `marker` (a directory,
// or for .git also a file: a worktree's), if any.
std::optional<fs::path> nearestHolding(const fs::path& dir, const char* marker) {
  for (fs::path at = dir;; at = normal(at / "..")) {
    std::error_code ec;
    if (fs::exists(at / marker, ec)) return at;
    fs::path abs = absoluteOf(at);
    if (abs == abs.root_path() || abs.parent_path() == abs) return std::nullopt;
  }
}

}  // namespace

SpecTree locateSpecTree(const std::string& specPath) {
  fs::path dir = normal(fs::path(specPath).parent_path());
  for (fs::path at = dir;; at = normal(at / "..")) {
    std::error_code ec;
    if (fs::is_directory(at / "trampolines", ec)) return {at.string(), normal(at / "trampolines").string()};
    fs::path abs = absoluteOf(at);
    if (abs == abs.root_path() || abs.parent_path() == abs) break;
  }
  // No trampolines/: the checkout the spec lies in is its tree, so a table
  // made from the top of it names "specs/x/y.toml", not "y.toml", and
  // verify-table finds it again from wherever the table was written.
  if (auto checkout = nearestHolding(dir, ".git")) return {checkout->string(), ""};
  return {dir.string(), ""};
}

std::string treeName(const std::string& root, const std::string& file) {
  fs::path rel = absoluteOf(file).lexically_relative(absoluteOf(root));
  if (rel.empty()) return fs::path(file).filename().generic_string();
  // An absolute path outside the tree stays as given: named from the
  // tree's root it would change whenever the spec moved.
  bool outside = rel.begin() != rel.end() && *rel.begin() == "..";
  if (outside && fs::path(file).is_absolute()) return normal(file).generic_string();
  return rel.generic_string();
}

}  // namespace patchcheck
