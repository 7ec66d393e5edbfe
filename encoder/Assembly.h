#pragma once
// What an ISA plug-in's assembler gives the core: units of code (an
// instruction, or data a directive emits), each with its address, its
// bits, which of them depend on a symbolic address, and where it came
// from. The plug-in keeps its own reading of a unit (table row, operands)
// in `detail` and gets it back when it turns the unit into a Z3 term or a
// relocation.
#include <z3++.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "encoder/Diagnostic.h"
#include "encoder/Target.h"
#include "encoder/Value.h"

namespace patchcheck {

struct AssemblyOptions {
  Target target;
  Value base = Value::constant(0);            // address of the first unit
  std::map<std::string, uint64_t> symbols;    // concrete addresses
  std::set<std::string> symbolic;             // symbols without a fixed address
  // Symbolic symbols known to lie near another: |symbol - anchor| <= within
  // bytes on every placement (a spec's `near`), which a plug-in may use to
  // pick a short form that reaches every such placement.
  struct Near {
    std::string anchor;
    uint64_t within = 0;
  };
  std::map<std::string, Near> near;
  // Accept encodings the architecture calls UNPREDICTABLE (MIPS: jalr rd ==
  // rs, a control transfer in a delay slot) so a spec can describe them
  // and the checker can show their consequences.
  bool allowUnpredictable = false;
  // Address-forming sequences must reach every address a kernel symbol may
  // have (MIPS: `lui rt, %hi(x)` on a 64-bit ISA names a sign-extended
  // 32-bit x). Specs and trampolines ask for it; GNU as does not.
  bool requireKernelReach = false;
};

// The plug-in's own reading of a unit.
struct UnitDetail {
  virtual ~UnitDetail() = default;
};

struct Unit {
  Value address;              // where the unit lies
  unsigned bytes = 4;         // its length
  uint64_t bits = 0;          // every bit not in symbolicMask, as the plug-in reads the unit
  uint64_t symbolicMask = 0;  // bits that depend on a symbolic address
  SourceLocation where;
  std::string source;         // the statement's text
  std::shared_ptr<const UnitDetail> detail;

  bool isConcrete() const { return symbolicMask == 0; }
};

struct Program {
  std::vector<Unit> units;
  std::map<std::string, Value> labels;
};

// A unit whose field depends on symbolic addresses, as a Z3 term: the
// encoding's range rules (branch reach, immediate range) become side
// conditions the placement must meet.
struct SymbolicUnit {
  z3::expr term;                     // 8 * bytes bits
  std::vector<z3::expr> conditions;  // must hold for the encoding to be valid
  std::vector<std::string> reasons;  // one per condition, for reports
  uint64_t knownBits = 0;
  uint64_t knownMask = 0;            // bits that are the same for every placement
};

// A symbol's address as a 64-bit bit-vector term.
using SymbolTerm = std::function<z3::expr(const std::string&)>;

// How a unit's address-dependent field is formed, for patch tables.
struct Relocation {
  std::string kind;     // the plug-in's name: MIPS "jump26", "branch", "abs", "hi", "lo", ...
  Value value;          // the value the field encodes
  std::string text;     // as written: "%hi(ftrace_caller)"
  std::optional<Value> relativeTo;  // for pc-relative fields: the address the offset counts from
  // The field's value as a C expression over u64 `S` (value) and `P`
  // (relativeTo): MIPS hi is "(S + 0x8000) >> 16", arm64 ADRP
  // "(S >> 12) - (P >> 12)". Patch tables turn it into code.
  std::string formula;
  // Where the formula's bits go: bits [from, from + width) of its value
  // into bits [at, at + width) of the unit. Empty: the value's low bits
  // fill the unit's one run of address-dependent bits (Unit::symbolicMask).
  // A split field (arm64 ADR: immlo at 30:29, immhi at 23:5) lists each run.
  struct Piece {
    unsigned from = 0, width = 0, at = 0;
  };
  std::vector<Piece> pieces;
  // Must the formula's value fit the field's width (its pieces) as a
  // signed or an unsigned number for the encoding to exist (x86 rel32:
  // signed)? Unchecked: the field keeps the value's low bits, as MIPS and
  // arm64 fields do within the regions a spec allows.
  enum class Fits { Unchecked, Signed, Unsigned };
  Fits fits = Fits::Unchecked;
};

}  // namespace patchcheck
