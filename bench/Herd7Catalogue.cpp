#include "bench/Herd7Catalogue.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace patchcheck::bench {

Herd7Catalogue readHerd7Catalogue(const std::string& dir, const std::string& kindsPath) {
  namespace fs = std::filesystem;
  Herd7Catalogue c;
  c.dir = dir;
  if (!fs::is_directory(dir)) return c;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".litmus") c.files.push_back(e.path().string());
  std::sort(c.files.begin(), c.files.end());

  // As herdtools7's catalogue runner does: the shelf's first cat and cfg.
  fs::path cat = fs::path(dir) / "cats" / "aarch64.cat", cfg = fs::path(dir) / "cfgs" / "new-web.cfg";
  if (fs::is_regular_file(cat)) c.herdFlags.insert(c.herdFlags.end(), {"-model", cat.string()});
  if (fs::is_regular_file(cfg)) c.herdFlags.insert(c.herdFlags.end(), {"-conf", cfg.string()});
  else c.herdFlags.insert(c.herdFlags.end(), {"-variant", "ifetch,fatal"});  // new-web.cfg's variant

  c.kindsPath = kindsPath;
  if (c.kindsPath.empty() && fs::is_regular_file(fs::path(dir) / "tests" / "kinds.txt"))
    c.kindsPath = (fs::path(dir) / "tests" / "kinds.txt").string();
  std::ifstream in(c.kindsPath);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string name, kind;
    if (words >> name >> kind) c.kinds[name] = kind;
  }
  return c;
}

}  // namespace patchcheck::bench
