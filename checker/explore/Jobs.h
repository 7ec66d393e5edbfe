#pragma once
// Runs independent pieces of work on N threads. Results go into slots the
// caller indexes by job number, so the output never depends on which thread
// finished first: `--jobs 4` prints what `--jobs 1` prints.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace patchcheck {

// The default for --jobs: the machine's cores (1 when unknown).
unsigned defaultJobs();

// A `<command line>:` message for a --jobs value that runs nothing (0).
std::optional<std::string> jobsProblem(unsigned jobs);

// Calls work(i) once for each i in [0, count), on up to `jobs` threads.
// work must not throw across threads; catch inside and store the error.
void runJobs(unsigned jobs, size_t count, const std::function<void(size_t)>& work);

}  // namespace patchcheck
