#pragma once
// A word whose immediate depends on a symbolic address: opcode and register
// fields stay concrete, the immediate is a Z3 bit-vector term, and the
// encoding's range rules become side conditions for the solver.
#include <z3++.h>

#include <functional>
#include <string>
#include <vector>

#include "encoder/mips/Assembly.h"
#include "encoder/mips/Target.h"

namespace patchcheck::mips {

struct SymbolicWord {
  z3::expr word;                     // 32-bit
  std::vector<z3::expr> conditions;  // must hold for the encoding to be valid
  std::vector<std::string> reasons;  // one per condition, for reports
  uint32_t knownBits = 0;
  uint32_t knownMask = 0;            // bits that are the same for every placement
};

// A symbol's address as a 64-bit bit-vector term.
using SymbolTerm = std::function<z3::expr(const std::string&)>;

SymbolicWord symbolicWord(const AssembledWord&, const Target&, z3::context&, const SymbolTerm&);

}  // namespace patchcheck::mips
