// One test per class of input the assembler must refuse, each naming the
// place (file:line:column) and what is wrong. Which inputs GNU as refuses as
// well is checked against GNU as itself by tests/oracle/gnu_as_reject.cpp;
// here the messages and positions are pinned.
#include <catch2/catch.hpp>

#include "encoder/mips/Assembler.h"

using namespace patchcheck;
using namespace patchcheck::mips;

namespace {

const mips::Target r2_32{Isa::Mips32R2, Endian::Big, Abi::O32};
const mips::Target r2_64{Isa::Mips64R2, Endian::Big, Abi::N64};
const mips::Target r6_64{Isa::Mips64R6, Endian::Little, Abi::N64};

// The first error, "" when the source assembles.
std::string firstError(const std::string& src, const mips::Target& t, uint64_t base = 0,
                       bool unpredictable = false) {
  AssemblyOptions o;
  o.target = t;
  o.base = Value::constant(int64_t(base));
  o.allowUnpredictable = unpredictable;
  auto a = assemble(src, "e.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) return (*e)[0].str();
  return "";
}

bool has(const std::string& error, const std::string& part) {
  return error.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("unknown instruction and wrong ISA", "[encoder_errors]") {
  CHECK(firstError("nop\n  frob $4", r2_32) == "e.s:2:3: error: unknown instruction 'frob'");
  std::string e = firstError("daddu $4, $5, $6", r2_32);
  CHECK(has(e, "e.s:1:1:"));
  CHECK(has(e, "'daddu' is not available in mips32r2 (only in mips64r2, mips64r6)"));
  CHECK(has(firstError("lwl $4, 0($5)", r6_64), "'lwl' is not available in mips64r6"));
  CHECK(has(firstError("bc 1f\n1: nop", r2_64), "'bc' is not available in mips64r2"));
}

TEST_CASE("operand count and kind", "[encoder_errors]") {
  CHECK(has(firstError("addu $4, $5", r2_32), "'addu' takes addu rd, rs, rt (got 2 operands)"));
  CHECK(has(firstError("nop $4", r2_32), "(got 1 operand)"));
  CHECK(has(firstError("addu $4, $32, $5", r2_32), "e.s:1:10: error: expected a register, got '$32'"));
  CHECK(has(firstError("addu $4, $t10, $5", r2_32), "expected a register"));
  CHECK(has(firstError("addu $a4, $4, $5", r2_32), "expected a register"));  // a4 is n32/n64 only
  CHECK(has(firstError("lw $4, 0", r2_32), "expected offset(base)"));
  CHECK(has(firstError("mfc0 $4, $c0", r2_32), "coprocessor 0 register"));
  CHECK(has(firstError("div $4, $5, $6", r2_32), "must be $zero here"));
  CHECK(has(firstError("dahi $4, $5, 1", r6_64), "must repeat operand 1"));
}

TEST_CASE("immediates out of range name the range", "[encoder_errors]") {
  CHECK(firstError("addiu $4, $5, 65536", r2_32) ==
        "e.s:1:15: error: operand 3 of 'addiu' is out of range: 65536 not in -32768..65535");
  CHECK(has(firstError("addiu $4, $5, -32769", r2_32), "-32769 not in -32768..65535"));
  CHECK(has(firstError("ori $4, $5, -1", r2_32), "-1 not in 0..65535"));
  CHECK(has(firstError("sll $4, $5, 32", r2_32), "32 not in 0..31"));
  CHECK(has(firstError("dsll $4, $5, 64", r2_64), "64 not in 32..63"));
  CHECK(has(firstError("lw $4, 32768($5)", r2_32), "32768 not in -32768..32767"));
  CHECK(has(firstError("ll $4, 256($5)", r6_64), "256 not in -256..255"));
  CHECK(has(firstError("sync 32", r2_32), "32 not in 0..31"));
  CHECK(has(firstError("mfc0 $4, $12, 8", r2_32), "8 not in 0..7"));
  CHECK(has(firstError("break 1024", r2_32), "1024 not in 0..1023"));
  CHECK(has(firstError("syscall 0x100000", r2_32), "not in 0..1048575"));
  CHECK(has(firstError("wait 0x80000", r2_32), "not in 0..524287"));
}

TEST_CASE("li needs one word or is refused, naming the value", "[encoder_errors]") {
  std::string e = firstError("li $4, 0x12345678", r2_32);
  CHECK(has(e, "e.s:1:8:"));
  CHECK(has(e, "li 0x12345678 needs more than one word"));
  CHECK(has(firstError("li $4, 0x100000000", r2_64), "needs more than one word"));
}

TEST_CASE("UNPREDICTABLE register choices, unless allowed", "[encoder_errors]") {
  CHECK(has(firstError("jalr $1, $1", r2_32), "jalr with rd == rs is UNPREDICTABLE"));
  CHECK(has(firstError("jalr $31", r2_32), "UNPREDICTABLE"));
  CHECK(has(firstError("jalr.hb $4, $4", r6_64), "UNPREDICTABLE"));
  CHECK(firstError("jalr $1, $1", r2_32, 0, true).empty());
  CHECK(firstError("jr $0", r6_64).empty());  // jalr $0, $0 links nowhere; GNU takes jr $0
  CHECK(has(firstError("bltzal $31, .+8", r2_32), "testing $31 is UNPREDICTABLE"));
  CHECK(has(firstError("bgezall $ra, .+8", r2_32), "testing $31"));
  CHECK(has(firstError("bgezalc $31, .+8", r6_64), "testing $31"));
  CHECK(firstError("bltzal $31, .+8", r2_32, 0, true).empty());
  CHECK(has(firstError("jalrc $31", r6_64), "jialc $31, 0"));
}

TEST_CASE("R6 compact branch register rules", "[encoder_errors]") {
  CHECK(has(firstError("beqc $0, $5, .+4", r6_64), "must not be $0"));
  CHECK(has(firstError("beqc $5, $5, .+4", r6_64), "two different registers"));
  CHECK(has(firstError("bgec $5, $5, .+4", r6_64), "rs and rt must differ"));
  CHECK(has(firstError("bltuc $0, $5, .+4", r6_64), "must not be $0"));
  CHECK(has(firstError("beqzc $0, .+4", r6_64), "must not be $0"));
  CHECK(has(firstError("blezc $0, .+4", r6_64), "must not be $0"));
  CHECK(has(firstError("daui $4, $0, 1", r6_64), "must not be $0"));
}

TEST_CASE("branch reach and alignment, per encoding width", "[encoder_errors]") {
  CHECK(firstError("beq $4, $5, .+131072", r2_32).empty());
  CHECK(has(firstError("beq $4, $5, .+131076", r2_32),
            "branch offset 131072 bytes is out of range for 'beq' (16-bit word offset: -131072..131068)"));
  CHECK(has(firstError("bne $4, $5, .-131072", r2_32), "out of range"));
  CHECK(has(firstError("beqzc $4, .+8388612", r6_64), "21-bit word offset"));
  CHECK(has(firstError("bc .+134217732", r6_64), "26-bit word offset"));
  CHECK(firstError("bc .-134217724", r6_64).empty());
  CHECK(has(firstError("b .+6", r2_32), "not word-aligned"));
}

TEST_CASE("jump region and alignment name the addresses", "[encoder_errors]") {
  std::string e = firstError("j 0x90000000", r2_32, 0x80000000);
  CHECK(has(e, "jump target 0x90000000 is outside the 256 MB region of the delay slot at 0x80000004"));
  CHECK(has(e, "0x80000000..0x8ffffffc"));
  CHECK(has(firstError("jal 0x80000002", r2_32, 0x80000000), "not word-aligned"));
  // The region is the delay slot's: a jal in the last word of a region reaches the next.
  CHECK(firstError("jal 0x90000010", r2_32, 0x8ffffffc).empty());
}

TEST_CASE("control transfers in delay and forbidden slots", "[encoder_errors]") {
  CHECK(firstError("jr $31\njr $4", r2_32) ==
        "e.s:2:1: error: 'jr' in the delay slot of 'jr' (line 1) is UNPREDICTABLE");
  CHECK(has(firstError("beqzc $4, 1f\nbc 1f\n1: nop", r6_64), "in the forbidden slot of 'beqzc'"));
  CHECK(has(firstError("b 1f\nbal 1f\n1: nop", r6_64), "Reserved Instruction"));
  CHECK(firstError("jr $31\njr $4", r2_32, 0, true).empty());
  // An unconditional compact branch has no forbidden slot.
  CHECK(firstError("bc 1f\nbc 1f\n1: nop", r6_64).empty());
}

TEST_CASE("labels, symbols and directives", "[encoder_errors]") {
  CHECK(has(firstError("a: nop\na: nop", r2_32), "e.s:2:1: error: label 'a' is already defined"));
  CHECK(has(firstError("b nowhere", r2_32), "undefined symbol 'nowhere'"));
  CHECK(has(firstError("b 1f\nnop", r2_32), "no local label 1 ahead"));
  CHECK(has(firstError("b 1b\nnop", r2_32), "no local label 1 behind"));
  // Found by the assembler fuzz target: a label number past 2^32 threw
  // (std::stoul) or aliased a small one.
  CHECK(has(firstError("99999999999999999999: nop", r2_32), "local label number '99999999999999999999' is too large"));
  CHECK(has(firstError("4294967297: nop\nb 1b\nnop", r2_32), "local label number '4294967297' is too large"));
  CHECK(has(firstError("1: nop\nb 4294967297b\nnop", r2_32), "local label number '4294967297' is too large"));
  CHECK(has(firstError(".set reorder", r2_32), "not supported"));
  CHECK(has(firstError(".frob", r2_32), "unknown directive '.frob'"));
  CHECK(has(firstError(".word 0x100000000", r2_32), "does not fit 32 bits"));
  // The one quotient that overflows: computed in C it raised SIGFPE and
  // killed the run (before the shared front end, encoder/gnu/Expr.cpp).
  CHECK(firstError(".word (-0x7fffffffffffffff-1)/-1", r2_64) ==
        "e.s:1:7: error: .word value 0x8000000000000000 does not fit 32 bits");
  CHECK(firstError(".word (-0x7fffffffffffffff-1)%-1", r2_64).empty());
  CHECK(has(firstError("addiu $4, $4, (-0x7fffffffffffffff-1)/-1", r2_64), "e.s:1:15: error: operand 3 of 'addiu' is out of range"));
  // GNU as's generic data names for a 4-byte value (gnu::dataWidth).
  CHECK(firstError(".long 1\n.int 2\n.4byte 3", r2_32).empty());
  CHECK(has(firstError(".quad 1", r2_64), "e.s:1:1: error: unknown directive '.quad'"));
}

TEST_CASE("every error is reported, nothing partial is emitted", "[encoder_errors]") {
  AssemblyOptions o;
  o.target = r2_32;
  auto a = assemble("nop\nfrob\naddiu $4, $5, 70000\nnop\nli $4, 0x12345678", "e.s", o);
  REQUIRE(std::holds_alternative<Diagnostics>(a));
  const auto& errs = std::get<Diagnostics>(a);
  REQUIRE(errs.size() == 3);
  CHECK(errs[0].where.line == 2);
  CHECK(errs[1].where.line == 3);
  CHECK(errs[2].where.line == 5);
}
