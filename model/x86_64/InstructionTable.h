#pragma once
// The x86-64 subset patchcheck gives a meaning to, as one table: each row
// names a Zydis mnemonic, what it does (Op), its condition code where it
// has one, and the operand forms it accepts. The semantics dispatch on the
// row; an instruction no row accepts is executed as #UD, never skipped
// (docs/semantics-x86.md).
#include <Zydis/Zydis.h>

#include <array>
#include <cstdint>
#include <span>

namespace patchcheck::x86_64 {

enum class Op : uint8_t {
  Nop, Int3, Undefined, Hlt,
  Call, Jmp, Jcc, Ret,
  Push, Pop, Pushf, Popf, Leave,
  Mov, Movzx, Movsx, Lea, Xchg, Cmovcc, Setcc,
  Add, Adc, Sub, Sbb, And, Or, Xor, Cmp, Test, Inc, Dec, Neg, Not,
  Shl, Shr, Sar,
  Cld, Std, Cli, Sti, Fence,
};

// Operand forms, as a mask per visible operand.
enum Form : uint8_t {
  kReg = 1,  // a general register (al..r15, ah..bh)
  kMem = 2,  // memory, flat (no fs/gs base)
  kImm = 4,
  kRel = 8,  // a branch displacement
};

struct Row {
  ZydisMnemonic mnemonic;
  Op op;
  uint8_t cond = 0;             // Jcc, CMOVcc, SETcc: the condition's encoding (0 = O ... 15 = G)
  uint8_t arity = 0;            // visible operands
  std::array<uint8_t, 2> forms{};  // per visible operand
};

std::span<const Row> semanticsTable();

// The row that accepts the decoded instruction, or nullptr.
const Row* rowFor(const ZydisDecodedInstruction&, const ZydisDecodedOperand* operands);

}  // namespace patchcheck::x86_64
