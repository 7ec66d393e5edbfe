#pragma once
// One instruction request (a mnemonic and its operands, as written or as a
// pseudo-instruction expands) -> the first table row that takes them, as
// GNU as picks it (opcodes/riscv-opc.c order: a compressed row first when
// the C extension is on and the operands fit it).
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "encoder/gnu/Expr.h"
#include "encoder/gnu/Source.h"
#include "encoder/riscv/Assembly.h"

namespace patchcheck::riscv {

// One operand: source text, or a value a pseudo-instruction made.
struct Arg {
  enum class Kind : uint8_t { Text, Register, Expression } kind = Kind::Text;
  gnu::Piece text;   // Text; also the column for messages
  unsigned reg = 0;  // Register
  Expr expr;         // Expression
  static Arg reg_(unsigned r, unsigned column) { return {Kind::Register, {{}, column}, r, {}}; }
  static Arg expr_(Expr e, unsigned column) { return {Kind::Expression, {{}, column}, 0, std::move(e)}; }
};

struct Request {
  std::string mnemonic;  // lower case
  std::vector<Arg> args;
  unsigned column = 0;   // of the mnemonic
};

// How a statement's names resolve; records whether one named a label of
// the code or `.` (GNU as knows such a value only after layout, so it takes
// no compressed form).
class Names : public gnu::NameResolver {
 public:
  mutable bool usedLabel = false;

 protected:
  ~Names() = default;
};

struct EncodeContext {
  unsigned xlen = 64;
  bool rvc = true;
  bool fd = false;                   // the F and D extensions
  Value address;                     // of the unit
  unsigned minLength = 2;            // relaxation: rows shorter than this are skipped
  const Names* names = nullptr;
  // The %pcrel_hi target of the auipc at an address (for %pcrel_lo), if
  // there is one.
  std::function<std::optional<Value>(const Value&)> pcrelHiAt;
  bool requireKernelReach = false;
};

struct Mismatch {
  unsigned column;
  std::string message;
};

// The unit (address, bytes, bits, mask, row, operands) or why no row fits.
std::variant<AssembledUnit, Mismatch> encode(const Request&, const EncodeContext&);

// Does the mnemonic name any row?
bool knownMnemonic(std::string_view);

}  // namespace patchcheck::riscv
