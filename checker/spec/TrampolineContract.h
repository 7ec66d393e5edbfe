#pragma once
// What a trampoline expects when a site calls it: which register holds the
// address where the site resumes, which holds the caller's ra when the call
// itself overwrote ra (the legacy `move at, ra; jal _mcount`), how far the
// site moved sp, and a mode register. Proven separately for its code
// (checker/explore/TrampolineProof.h); the format of the contract files is in
// docs/trampolines.md.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/spec/Evidence.h"

namespace patchcheck {

// A register whose value at the trampoline's entry selects what it does:
// `regs` makes it pass a pt_regs pointer, `noregs` a null pointer.
struct TrampolineMode {
  std::string reg;
  uint64_t regs = 0, noregs = 1;
};

// The C function the trampoline calls, and what it must receive:
// a0 = ip (the traced site's rec->ip), a1 = parent ip (the traced
// function's return address), a2 = ops, a3 = regs pointer.
struct TrampolineCallback {
  std::string symbol;
  // ip = resume address + offset, by the region the traced function lies
  // in ("" = every region): the legacy _mcount tells vmlinux and module
  // sites apart this way.
  std::map<std::string, int64_t> ipOffset;
  std::optional<std::string> ops;  // a2 = the pointer stored at this data symbol
  bool regs = false;               // a3 = pt_regs in regs mode, 0 otherwise
  // In regs mode: where the pt_regs frame holds each register of F's entry
  // ("epc" = the traced ip), as offsets from the regs pointer.
  std::vector<std::pair<std::string, int64_t>> ptRegs;
};

struct TrampolineContract {
  std::string symbol;
  std::string resume;                  // register holding the resume address
  std::optional<std::string> savedRa;  // register holding the caller's ra
  int64_t stackAdjust = 0;             // sp at entry = caller's sp + stackAdjust
  std::vector<std::string> clobbers;   // registers the site may change besides ABI-dead ones
  bool proven = false;                 // its code was proven to honour the contract

  int64_t entryOffset = 0;             // the entry is symbol + entryOffset
  std::optional<TrampolineMode> mode;
  TrampolineCallback callback;
  std::string source;                  // the assembly file the proof ran, named from the spec's tree root
  std::string sourceSha256;            // its SHA-256, of the bytes assembled

  // The proof's outcome when it did not succeed: a counterexample (the code
  // breaks the contract), or why the solver could not decide.
  std::optional<Counterexample> refutation;
  std::string unknownReason;
  Counts proofCounts;

  // The key of this entry in a contract map: "ftrace_caller" or "ftrace_caller+8".
  std::string key() const {
    return entryOffset == 0 ? symbol : symbol + "+" + std::to_string(entryOffset);
  }
};

}  // namespace patchcheck
