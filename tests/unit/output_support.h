#pragma once
// For the output tests: run the patchcheck CLI (or a shell line), read and
// write files, and a temporary directory removed at the end.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace patchcheck::test {

struct Ran {
  int status = -1;
  std::string out;
};

// Runs `line` with /bin/sh; stdout captured, stderr to /dev/null unless asked.
inline Ran sh(const std::string& line, bool withStderr = false) {
  Ran r;
  std::string full = line + (withStderr ? " 2>&1" : " 2>/dev/null");
  FILE* p = popen(full.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline std::string cli(const std::string& args) { return std::string(PATCHCHECK_BINARY) + " " + args; }

inline std::string readFile(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void writeFile(const std::string& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "patchcheck-out-XXXXXX").string();
    path_ = mkdtemp(tmpl.data()) ? tmpl : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& n) const { return path_ + "/" + n; }

 private:
  std::string path_;
};

}  // namespace patchcheck::test
