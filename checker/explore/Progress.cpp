#include "checker/explore/Progress.h"

#include <unistd.h>

#include <cstdio>

namespace patchcheck {

Progress::Progress(std::string what)
    : what_(std::move(what)), terminal_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() { clear(); }

void Progress::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (drawn_) std::fputs("\r\033[K", stderr);
  drawn_ = false;
}

void Progress::addWork(size_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  total_ += n;
}

void Progress::advance(const std::string& item) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  if (!terminal_) return;
  // Runs shorter than about a second never show a bar.
  if (std::chrono::steady_clock::now() - start_ < std::chrono::seconds(1)) return;
  std::string line = render(what_, done_, total_, item);
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

std::string Progress::render(const std::string& what, size_t done, size_t total, const std::string& item,
                             unsigned width) {
  if (total < done) total = done;
  unsigned filled = total ? unsigned(done * width / total) : width;
  std::string bar(filled, '=');
  if (filled < width) bar += '>' + std::string(width - filled - 1, ' ');
  char head[64];
  std::snprintf(head, sizeof head, "] %zu/%zu ", done, total);
  std::string s = what + " [" + bar + head + item;
  if (s.size() > 100) s.resize(100);
  return s;
}

}  // namespace patchcheck
