#pragma once
// Where a short jump to a `near` symbol lands. A jmp or Jcc rel8 at A is 2
// bytes and the CPU adds its displacement to A + 2 (Intel SDM Vol. 2A,
// JMP: "relative to the next instruction"). When the target T + b is
// declared within W bytes of the jump's own symbol S (the jump at S + a,
// or the other way round), the displacement T + b - (S + a + 2) lies in
// [b - a - 2 - W, b - a - 2 + W] on every placement; with S and T both
// concrete-anchored the same holds with the constants. GNU as relaxes a
// jump to a label of its own section to rel8 exactly when it reaches, so
// a range inside [-128, 127] is rel8 everywhere, one outside it rel32
// everywhere, and one across its edge depends on the placement.
#include <cstdint>
#include <optional>
#include <string>

#include "encoder/Value.h"
#include "encoder/x86_64/Assembler.h"

namespace patchcheck::x86_64 {

struct NearDisplacement {
  __int128 lo = 0, hi = 0;  // the rel8 displacement's bounds over every allowed placement
  std::string symbol, anchor;
  uint64_t within = 0;

  bool alwaysShort() const { return lo >= -128 && hi <= 127; }
  bool neverShort() const { return hi < -128 || lo > 127; }
};

// None when no `near` fact relates the target to the jump's address.
std::optional<NearDisplacement> nearDisplacement(const Value& jumpAt, const Value& target, const AssemblyOptions&);

}  // namespace patchcheck::x86_64
