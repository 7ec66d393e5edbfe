#pragma once
// herd7 run as a child process on a list of litmus files, once, as the
// catalogue runs it (`herd7 -model cats/aarch64.cat -conf cfgs/new-web.cfg
// FILE...`), and its answers read back from what it prints. Used by the
// `herd7` bench only: no test depends on herd7.
#include <string>
#include <vector>

namespace patchcheck::bench {

// One test's block of herd7's output: "Test NAME Allowed" ...
// "Observation NAME Sometimes 1 2".
struct Herd7Answer {
  std::string name;         // the test's header name
  std::string kind;         // the condition's kind, not a verdict: Allowed (exists), Forbidden (~exists), Required (forall)
  std::string observation;  // the verdict: Never, Sometimes, Always
  unsigned positive = 0, negative = 0;
};

struct Herd7Run {
  bool started = false;  // false: the binary could not be run (`error` says why)
  int exitStatus = 0;
  double wallSeconds = 0, cpuSeconds = 0;  // the child's user + system time
  std::vector<Herd7Answer> answers;        // in the order herd7 printed them
  std::string error;                       // why it did not start
  std::string firstOtherLine;              // its first line outside any answer: a warning, an error, `-version`
};

Herd7Run runHerd7(const std::string& binary, const std::vector<std::string>& args);

// herd7's answers read from its standard output (and error, merged).
std::vector<Herd7Answer> parseHerd7Output(const std::string& text, std::string& firstStrayLine);

}  // namespace patchcheck::bench
