#pragma once
// What the snippet commands (asm, run, disasm) read alike: the target the
// command line names and an assembly file or stdin. Each prints its error
// (exit code 2 for the caller) and returns nothing on failure.
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/cli/TargetOptions.h"

namespace patchcheck {

inline std::optional<Target> commandTarget(const TargetOptions& options) {
  Target t = options.over(defaultTarget());
  if (auto problem = t.problem()) {
    std::cerr << "<command line>: error: " << *problem << "\n";
    return std::nullopt;
  }
  return t;
}

// --sym NAME=ADDRESS options into `symbols`.
inline bool addSymbols(const std::vector<std::string>& given, std::map<std::string, uint64_t>& symbols) {
  for (const std::string& s : given) {
    size_t eq = s.find('=');
    auto v = eq == std::string::npos ? std::nullopt : parseAddress(s.substr(eq + 1));
    if (!v || eq == 0) {
      std::cerr << "<command line>: error: --sym '" << s << "' is not NAME=ADDRESS\n";
      return false;
    }
    symbols[s.substr(0, eq)] = *v;
  }
  return true;
}

struct Source {
  std::string name;  // the file, or <stdin>
  std::string text;
};

// `file`, or stdin for "-".
inline std::optional<Source> readSource(const std::string& file) {
  if (file == "-") return Source{"<stdin>", std::string(std::istreambuf_iterator<char>(std::cin), {})};
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << file << ": error: cannot read file\n";
    return std::nullopt;
  }
  return Source{file, std::string(std::istreambuf_iterator<char>(in), {})};
}

}  // namespace patchcheck
