#pragma once
// 32-bit ISAs compute an address as sext(base + offset) and a multi-byte
// access touches sext(...) + i: Z3's simplifier cannot tell two such frame
// addresses apart, so a value stored at sp + 48 and read back would stay a
// select over the whole store chain. FrameAddresses rewrites every memory
// index that lies within 64 KB of the caller's sp into one canonical form,
// sext(sp) + k, which the simplifier compares like 64-bit addresses. This
// is exact under AbiModel::entryAssumptions (sp is at least 64 KB away from the
// points where a 32-bit address wraps or changes sign).
#include <z3++.h>

#include <map>
#include <optional>

#include "model/MachineState.h"

namespace patchcheck {

class FrameAddresses {
 public:
  explicit FrameAddresses(const MachineState& caller);

  // An address in canonical form when it is sp + k, |k| <= 64 KB.
  z3::expr index(const z3::expr& address64) const;
  // The term with every select and store index in canonical form.
  z3::expr rewrite(const z3::expr&);
  // Registers and memory of a 32-bit state; 64-bit states are left alone.
  void canonicalize(MachineState&);

 private:
  static std::optional<z3::expr> sextOf(const z3::expr&);

  z3::expr sp32_, base_;
  bool wide_;
  std::map<unsigned, std::pair<z3::expr, z3::expr>> done_;  // ast id -> (term, rewritten)
};

}  // namespace patchcheck
