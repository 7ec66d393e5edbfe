#pragma once
// Random (mnemonic, operands) instances over every row of the instruction
// table, for the differential tests against GNU as and llvm-mc. A batch is
// one source file for one target: line i sits at base + 4*i and is labelled
// L<i>, so branch and jump targets name labels in the same file (absolute
// targets would become relocations against *ABS*).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "encoder/mips/InstructionTable.h"
#include "encoder/mips/Target.h"

namespace patchcheck::oracle {

struct Instance {
  std::string text;                     // one statement, without its label
  const mips::InstrDesc* row = nullptr;  // the row it exercises; nullptr: filler nop
};

struct Batch {
  mips::Target target;
  uint64_t base = 0;  // address of line 0 (where the linker puts .text)
  std::vector<Instance> lines;

  uint64_t address(size_t line) const { return base + 4 * line; }
  // ".set noreorder", ".set noat", then "L<i>: text" per line; every 64th
  // line also defines the numeric label 1.
  std::string source() const;
};

// Every row available in the target's ISA (assembler-only spellings
// included) gets `perRow` instances. A control transfer is followed by a nop
// so that no delay or forbidden slot holds another one.
// irixNames: also spell $8..$11 as $ta0..$ta3 under n32/n64 (GNU as takes
// them; llvm-mc does not).
Batch makeBatch(const mips::Target&, uint64_t base, unsigned perRow, std::mt19937_64&,
                bool irixNames = true);

// One valid-looking instance of a row that needs no labels (targets are
// `.+N`, jumps absolute in the region of `address`), for corpora of inputs
// that must be refused for another reason (wrong ISA, a bad operand).
std::string loneInstance(const mips::InstrDesc&, const mips::Target&, uint64_t address,
                         std::mt19937_64&);

// The ISA's rows, in table order, that makeBatch draws from.
std::vector<const mips::InstrDesc*> rowsFor(mips::Isa);

// Command-line flags for GNU as (-march, -mabi, -EB/-EL) and GNU ld's
// emulation (-m) for a target.
std::vector<std::string> gasFlags(const mips::Target&);
std::string ldEmulation(const mips::Target&);
// A kernel-like link address: KSEG0 for 32-bit pointers, CKSEG0 for n64.
uint64_t linkBase(const mips::Target&);

}  // namespace patchcheck::oracle
