#pragma once
// Runs one piece of work in a child process and stops it after a wall-clock
// limit: the checker's own budget (--max-seconds) holds per exploration,
// and one check or synthesis may run many explorations, so only the
// process bounds a row of a table. The work returns its result as bytes.
// Call it only while this process runs one thread (fork copies one).
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

namespace patchcheck::bench {

// The work's bytes, or nullopt when it was stopped at `seconds` (or its
// process died). What the child printed is printed too.
template <class Work>
std::optional<std::string> inChild(double seconds, Work work) {
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  std::fflush(stdout);  // else the child prints our buffer again
  auto start = std::chrono::steady_clock::now();
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]), close(fds[1]);
    return std::nullopt;
  }
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // the bench stopped: so does its row
    close(fds[0]);
    std::string out = work();
    std::fflush(stdout);
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n = write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) _exit(1);
      done += size_t(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  bool stopped = false;
  char buf[4096];
  for (;;) {
    double left = seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    pollfd p{fds[0], POLLIN, 0};
    if (left <= 0 || poll(&p, 1, int(left * 1000) + 1) == 0) {
      kill(child, SIGKILL);
      stopped = true;
      break;
    }
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;  // the child is done (or died)
    out.append(buf, size_t(n));
  }
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (stopped || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

}  // namespace patchcheck::bench
