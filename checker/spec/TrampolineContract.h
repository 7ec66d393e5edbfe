#pragma once
// What a trampoline expects when a site calls it: which register (or, on
// x86, which stack slot) holds the address where the site resumes, which holds the caller's ra when the call
// itself overwrote ra (the legacy `move at, ra; jal _mcount`), how far the
// site moved sp, and a mode register. Proven separately for its code
// (checker/explore/TrampolineProof.h); the format of the contract files is in
// docs/trampolines.md.
#include <cstdint>
#include <map>
#include <memory>
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

struct TrampolineContract;

// CALL_OPS (arm64): the site keeps a pointer to its struct ftrace_ops just
// before F, and the trampoline finds the callback, and a direct trampoline
// if any, through it. What the proof may assume of that memory, since the
// site's own proof keeps the literal a valid ops pointer at every point.
struct TrampolineCallOps {
  int64_t literal = -8;  // the pointer lies at F + literal
  std::string ops;       // a symbol standing for the struct it points to
  int64_t func = 0;      // offset of ops->func: holds the callback's address
  // Offset of ops->direct_call: 0, or the address of a trampoline (the
  // symbol `direct`) that takes over with the entry convention of
  // `directContract` (a contract file beside this one).
  std::optional<int64_t> directCall;
  std::string direct, directContract;
  std::shared_ptr<const TrampolineContract> handoff;  // directContract's entry, once loaded
};

// What a tracer may leave in the regs frame for the trampoline to act on
// after the call (x86's ftrace_regs_caller: livepatch sets regs->ip to the
// new function, a direct call sets regs->orig_ax to its trampoline). The
// callback writes the address of `target` at regs + `at`, or leaves the
// frame alone; at most one redirect per call.
struct TrampolineRedirect {
  int64_t at = 0;        // offset from the regs pointer
  std::string target;    // the symbol whose address the tracer writes
  // true: the new function replaces F, entered with F's entry state (as at
  // the resume address); false: a direct trampoline, handed over to with
  // the entry of `contract` (a contract file beside this one).
  bool enter = false;
  std::string contract;
  std::shared_ptr<const TrampolineContract> handoff;  // contract's entry, once loaded
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
  // ("resume" = the resume address, as arm64's fregs->pc).
  std::vector<std::pair<std::string, int64_t>> ptRegs;
  std::optional<TrampolineCallOps> callOps;
  std::vector<TrampolineRedirect> redirects;

  // A trampoline without a callback (an empty symbol) must reach the
  // resume address without calling anything.
  bool none() const { return symbol.empty(); }
};

struct TrampolineContract {
  std::string symbol;
  std::string resume;                  // register holding the resume address
  // Set when the resume address lies in memory at `resume`'s entry value
  // plus this offset rather than in the register: "[rsp]", where x86's
  // call pushed it (AbiModel::link == sp).
  std::optional<int64_t> resumeSlot;
  std::optional<std::string> savedRa;  // register holding the caller's ra
  int64_t stackAdjust = 0;             // sp at entry = caller's sp + stackAdjust
  std::vector<std::string> clobbers;   // registers the site may change besides ABI-dead ones
  // Registers outside the general ones (arm64's btype) and the values
  // they may hold at entry: "reached by bl or by br x17".
  std::vector<std::pair<std::string, std::vector<uint64_t>>> values;
  bool proven = false;                 // its code was proven to honour the contract

  int64_t entryOffset = 0;             // the entry is symbol + entryOffset
  std::optional<TrampolineMode> mode;
  TrampolineCallback callback;
  std::string source;                  // the assembly file the proof ran, named from the spec's tree root
  std::string sourceSha256;            // its SHA-256, of the bytes assembled
  bool fromObject = false;             // source is OBJ:SYMBOL; the SHA-256 is of the symbol's bytes

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
