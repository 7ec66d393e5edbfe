#pragma once
// The one table of the x86-64 subset patchcheck assembles: each row is a
// GNU as (AT&T) spelling, the Zydis mnemonic it asks the encoder for, the
// operand sizes it takes and its operands in AT&T order. The parser picks
// rows by spelling and operand shape, the encoder turns a row into a Zydis
// request, and the printer finds objdump's spelling of a decoded
// instruction here. Zydis holds the encodings; this table holds only what
// GNU as and objdump add to them (names, suffixes, which forms exist).
#include <Zydis/Zydis.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace patchcheck::x86_64 {

// Operand kinds, in AT&T syntax. "Sized" kinds take the row's operand size.
enum class Opnd : uint8_t {
  None,
  R,      // a general register of the operand size
  M,      // memory: disp(base,index,scale), sym(%rip), or an absolute address
  RM,     // R or M
  I,      // $immediate of the operand size (Zydis picks imm8 or the full width)
  I64,    // $immediate, all 64 bits (movabs)
  Count,  // $shift count, 0..255
  Cl,     // %cl, the shift count register
  Rel,    // a branch target: label, symbol or address
  Ind,    // *%reg or *mem: an indirect branch target (64-bit)
  RM8,    // a byte register or byte memory (the source of movzb/movsb)
  RM16,   // a word register or memory (movzw/movsw)
  RM32,   // a doubleword register or memory (movslq)
};

// Operand sizes a row takes, as a set.
enum Size : uint8_t { B = 1, W = 2, L = 4, Q = 8 };
constexpr uint8_t kBWLQ = B | W | L | Q, kWLQ = W | L | Q, kLQ = L | Q;
unsigned sizeBits(uint8_t size);  // B -> 8, ..., Q -> 64
char suffixOf(uint8_t size);      // B -> 'b', ...

enum Flag : uint16_t {
  kSuffix = 1 << 0,        // the spelling takes a size suffix (movq, addl); objdump
                           // prints it when no register operand shows the size
  kAlwaysSuffix = 1 << 1,  // objdump always prints the suffix (movzbl)
  kDefault64 = 1 << 2,     // 64-bit without a suffix or register (push, call *,
                           // ret); objdump never prints the suffix
  kBranch = 1 << 3,        // a control transfer
  kCall = 1 << 4,          // pushes a return address
  kConditional = 1 << 5,   // may fall through (Jcc)
  kRelax = 1 << 6,         // rel8 or rel32 to a label as GNU as relaxes (jmp, Jcc)
  kAsmOnly = 1 << 7,       // a spelling the printer never chooses (sal)
  kSwapMemReg = 1 << 8,    // GNU as takes the operands either way round
                           // (test, xchg): one encoding, r/m then reg
};

struct InstrDesc {
  std::string_view mnemonic;  // without the size suffix
  ZydisMnemonic zydis;
  uint8_t sizes = 0;  // Size set; 0: no operand size (nop, int3)
  std::array<Opnd, 2> operands{};
  uint16_t flags = 0;

  unsigned operandCount() const {
    unsigned n = 0;
    while (n < operands.size() && operands[n] != Opnd::None) ++n;
    return n;
  }
};

std::span<const InstrDesc> instructionTable();

// Condition codes in objdump's spelling (o, no, b, ae, e, ...), indexed by
// the condition's encoding 0..15, and the spellings GNU as also takes.
std::string_view conditionName(unsigned cc);
// "z" -> 4 ("e"), "nae" -> 2 ("b"); -1 for no condition.
int conditionCode(std::string_view);

// The rows a mnemonic names, in table order, with the operand size its
// suffix gives (0: none): "addq" -> the add rows and Q; "jz" -> je.
struct Spelling {
  std::span<const InstrDesc* const> rows;
  uint8_t suffix = 0;
};
std::optional<Spelling> rowsSpelled(std::string_view mnemonic);

// The first printable row with this Zydis mnemonic and number of operands
// (objdump's name for it).
const InstrDesc* rowFor(ZydisMnemonic, unsigned operands);

std::string_view syntaxOf(Opnd);  // "%reg", "mem", "$imm", ... for messages

}  // namespace patchcheck::x86_64
