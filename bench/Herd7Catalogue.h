#pragma once
// A folder of litmus tests as the `herd7` bench compares them: every
// .litmus file under it, the herd7 flags it is run with, and the verdicts
// published beside it. herdtools7's catalogue/aarch64-ifetch brings its
// own model and configuration (cats/aarch64.cat, cfgs/new-web.cfg) and,
// in releases after 7.57, tests/kinds.txt; a folder without them (the
// shipped tests/data/litmus/ifetch) runs with the configuration's variant.
#include <map>
#include <string>
#include <vector>

namespace patchcheck::bench {

struct Herd7Catalogue {
  std::string dir;
  std::vector<std::string> files;            // every .litmus under dir, sorted by path
  std::vector<std::string> herdFlags;        // before the files on herd7's command line
  std::string kindsPath;                     // empty: none found
  std::map<std::string, std::string> kinds;  // test name -> Allowed, Forbidden, Required, ...
};

// `kindsPath`: a kinds.txt to use instead of dir/tests/kinds.txt (empty: that one, if any).
Herd7Catalogue readHerd7Catalogue(const std::string& dir, const std::string& kindsPath);

}  // namespace patchcheck::bench
