#include "tests/oracle/support/Tools.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace patchcheck::oracle {

std::string requireTool(const std::string& tool, const std::string& package) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string p = dir + "/" + tool;
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  throw std::runtime_error("oracle '" + tool + "' is missing: install it with `apt-get install " +
                           package + "` (scripts/install-deps does)");
}

RunResult run(const std::vector<std::string>& argv, const std::string& input) {
  RunResult r;
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) return r;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) posix_spawn_file_actions_addclose(&fa, fd);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    r.err = std::string("cannot run ") + argv[0] + ": " + std::strerror(rc);
    return r;
  }
  // Feed stdin and drain both outputs without deadlocking.
  size_t written = 0;
  if (input.empty()) close(in[1]), in[1] = -1;
  else fcntl(in[1], F_SETFL, O_NONBLOCK);
  bool outOpen = true, errOpen = true;
  char buf[65536];
  while (outOpen || errOpen) {
    pollfd fds[3];
    int n = 0;
    if (outOpen) fds[n++] = {out[0], POLLIN, 0};
    if (errOpen) fds[n++] = {err[0], POLLIN, 0};
    if (in[1] >= 0) fds[n++] = {in[1], POLLOUT, 0};
    if (poll(fds, nfds_t(n), -1) < 0) break;
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in[1]) {
        ssize_t k = write(in[1], input.data() + written, input.size() - written);
        if (k > 0) written += size_t(k);
        if (k < 0 || written == input.size()) close(in[1]), in[1] = -1;
        continue;
      }
      ssize_t k = read(fds[i].fd, buf, sizeof buf);
      std::string& dst = fds[i].fd == out[0] ? r.out : r.err;
      if (k > 0) dst.append(buf, size_t(k));
      else (fds[i].fd == out[0] ? outOpen : errOpen) = false;
    }
  }
  if (in[1] >= 0) close(in[1]);
  close(out[0]);
  close(err[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "patchcheck-XXXXXX").string();
  std::vector<char> b(tmpl.begin(), tmpl.end());
  b.push_back(0);
  if (!mkdtemp(b.data())) throw std::runtime_error("mkdtemp failed");
  path_ = b.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
  if (!f) throw std::runtime_error("cannot write " + path);
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace patchcheck::oracle
