#pragma once
// A progress bar on stderr for long runs: drawn only when stderr is a
// terminal and the run has lasted about a second, so pipes, CI logs and
// quick runs see nothing. Safe to advance from several worker threads.
#include <chrono>
#include <mutex>
#include <string>

namespace patchcheck {

class Progress {
 public:
  explicit Progress(std::string what);
  ~Progress();  // clears the bar
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void addWork(size_t n);                  // more items to do
  void advance(const std::string& item);   // one item done
  void clear();                            // before printing to the terminal; the next advance redraws

  // The bar's text for `done` of `total`, `width` columns of bar.
  static std::string render(const std::string& what, size_t done, size_t total, const std::string& item,
                            unsigned width = 30);

 private:
  std::string what_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  size_t done_ = 0, total_ = 0;
  bool drawn_ = false;
};

}  // namespace patchcheck
