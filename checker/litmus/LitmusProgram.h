#pragma once
// A litmus test laid out in memory (docs/litmus.md "How a test runs"): each
// thread's code assembled by the plug-in the header's architecture word
// selects (Test::dialect), each thread at its own base, the
// data locations, every register's initial value, the cache type. What
// the runner does not model is refused here, by name, with the position
// in the test: never a guess.
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "checker/litmus/LitmusTest.h"
#include "checker/spec/Spec.h"
#include "encoder/Diagnostic.h"
#include "encoder/Target.h"

namespace patchcheck::litmus {

struct CodeUnit {
  uint64_t address = 0;
  uint32_t initial = 0;
  unsigned thread = 0;  // index into Program::threads
  std::string text;     // as written
  Position at;
};

struct ThreadCode {
  std::string name;      // "P0"
  unsigned number = 0;   // N of PN: the condition's "N:X1"
  uint64_t base = 0, end = 0;
  bool hasHandler = false;
  uint64_t handler = 0;  // P<N>.F's first instruction
  std::map<unsigned, uint64_t> regs;  // the init block's registers: model register index -> value (others 0)
};

struct Program {
  Target target;
  const FetchRules* fetch = nullptr;  // the model the test runs under (FetchRules::litmusFetch)
  CacheType cacheType = CacheType::Dic0Idc0;
  std::vector<ThreadCode> threads;            // in column order, handlers folded in
  std::vector<CodeUnit> code;                 // every instruction word, ascending addresses
  std::map<uint64_t, unsigned> codeAt;        // address -> index into code
  std::map<std::string, uint64_t> locations;  // data location -> address (8 bytes each)
  std::map<uint64_t, uint64_t> initialData;   // location address -> value
  std::map<std::string, uint64_t> labels;     // "P1:L0" -> address
  std::string file;

  const ThreadCode* thread(unsigned number) const {
    for (const ThreadCode& t : threads)
      if (t.number == number) return &t;
    return nullptr;
  }
};

// The value an init entry or a condition names: a number, a location's
// or label's address, or an instruction's encoding.
std::variant<uint64_t, Diagnostics> valueOf(const InitValue&, const Program&);

// `fetch`: the model to run the test under, one its ISA allows; nothing:
// the dialect's (LitmusDialect::fetchModel).
std::variant<Program, Diagnostics> layOut(const Test&, const FetchRules* fetch = nullptr);

}  // namespace patchcheck::litmus
