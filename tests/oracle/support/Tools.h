#pragma once
// Running outside tools from oracle tests: find them (or fail naming the
// Debian package), run them with captured output, keep files in a temp dir.
#include <string>
#include <vector>

namespace patchcheck::oracle {

struct RunResult {
  int status = -1;  // exit code; -1 when it could not run
  std::string out, err;
};

// Path of `tool` on PATH; throws std::runtime_error naming `package`
// ("install it: apt-get install PACKAGE") when missing.
std::string requireTool(const std::string& tool, const std::string& package);

// Runs argv (no shell) with optional stdin; captures stdout and stderr.
RunResult run(const std::vector<std::string>& argv, const std::string& input = "");

// A fresh directory under $TMPDIR, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void writeFile(const std::string& path, const std::string& bytes);
std::string readFile(const std::string& path);

}  // namespace patchcheck::oracle
