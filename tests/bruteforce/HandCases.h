#pragma once
// The hand-made specs of tests/data/specs/model with the verdicts argued in
// each file's header (and the knob the header says a test flips), plus the
// shipped orders each weakened by one step their comments say is needed.
// The enumeration must find a violation exactly where `unsafe` is true.
#include <functional>
#include <string>
#include <vector>

#include "checker/spec/Spec.h"

namespace bruteforce {

struct HandCase {
  std::string file;                               // under tests/data/specs/model, or "specs/..." from the root
  std::string knob;                               // "" or what `change` does
  std::function<void(patchcheck::Spec&)> change;  // the knob the header says the test flips
  std::string item;                               // "from->to" or "state NAME"
  bool unsafe;                                    // the argued verdict
};

std::vector<HandCase> handCases();

}  // namespace bruteforce
