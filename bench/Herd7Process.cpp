#include "bench/Herd7Process.h"

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>

extern char** environ;

namespace patchcheck::bench {

std::vector<Herd7Answer> parseHerd7Output(const std::string& text, std::string& firstStrayLine) {
  std::vector<Herd7Answer> out;
  std::istringstream in(text);
  std::string line;
  bool inBlock = false;  // between "Test NAME ..." and its "Hash=" line
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "Test") {
      Herd7Answer a;
      words >> a.name >> a.kind;
      out.push_back(a);
      inBlock = true;
    } else if (inBlock && first == "Observation") {
      std::string name;
      words >> name >> out.back().observation >> out.back().positive >> out.back().negative;
    } else if (inBlock && first.rfind("Hash=", 0) == 0) {
      inBlock = false;
    } else if (!inBlock && !first.empty() && firstStrayLine.empty()) {
      firstStrayLine = line;  // a warning or an error: herd7 says it outside any answer
    }
  }
  return out;
}

Herd7Run runHerd7(const std::string& binary, const std::vector<std::string>& args) {
  Herd7Run run;
  int pipeFds[2];
  if (pipe(pipeFds) != 0) {
    run.error = std::string("pipe: ") + std::strerror(errno);
    return run;
  }
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(binary.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeFds[0]);

  auto w0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeFds[1]);
  if (spawned != 0) {
    close(pipeFds[0]);
    run.error = binary + ": " + std::strerror(spawned);
    return run;
  }
  std::string text;
  char buf[1 << 16];
  for (ssize_t n; (n = read(pipeFds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buf, size_t(n));
  }
  close(pipeFds[0]);
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  run.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  run.cpuSeconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                   double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  run.started = true;
  run.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.answers = parseHerd7Output(text, run.firstOtherLine);
  return run;
}

}  // namespace patchcheck::bench
