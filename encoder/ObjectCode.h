#pragma once
// What `patchcheck scan` asks of an ISA about compiled code (docs/scan.md):
// which ELF machine it is, how its relocations are spelled and what field
// each forms, where Linux puts a function's patched instruction given the
// address the build recorded (ftrace_call_adjust), which relocations
// recordmcount turns into sites, and where a branch goes. A plug-in
// implements it in its own folder (encoder/<isa>/ObjectCode.cpp), and
// the build lists it (build/generated/ObjectCodes.inc, one line per
// encoder/<isa>/ObjectCode.cpp), so the scan has no ISA in it.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "encoder/Assembly.h"
#include "encoder/Target.h"

namespace patchcheck {

// One relocation of the object as the plug-in sees it.
struct ObjectRelocation {
  uint32_t type = 0;    // the ELF relocation type (R_MIPS_26, ...)
  std::string symbol;   // the symbol's name; a section symbol's is its section's
  int64_t addend = 0;   // RELA's; 0 under REL, where the field holds it
  bool rela = false;
  unsigned at = 0;      // where r_offset lies, in bytes from the unit's or instruction's first byte
};

// The bytes of the object's code at an address, if it has that many there.
using CodeAt = std::function<std::optional<std::span<const uint8_t>>(uint64_t address, unsigned bytes)>;

class ObjectCode {
 public:
  virtual ~ObjectCode() = default;

  virtual std::string_view family() const = 0;  // its IsaPlugin's family ("mips")
  virtual uint16_t elfMachine() const = 0;      // e_machine (EM_MIPS, ...)
  // r_info's symbol index and relocation type, from libelf's GElf r_info
  // (the ELF64 layout, ELF32 entries included); an ISA may pack more
  // (MIPS64: three types in one entry).
  virtual std::pair<uint32_t, uint32_t> relocationInfo(uint64_t info, bool elf64, Endian) const;
  virtual std::string relocationName(uint32_t type) const = 0;  // "R_MIPS_26"

  // Linux's ftrace_call_adjust: from the address an entry of
  // __patchable_function_entries or __mcount_loc holds to rec->ip, the
  // instruction ftrace patches. `beforeBytes` is what the compiler put
  // before the function's entry (CALL_OPS: the 8-byte literal); `code`
  // reads the object where the kernel would read it.
  virtual std::optional<uint64_t> ftraceCallAdjust(uint64_t recorded, unsigned beforeBytes, const CodeAt& code) const = 0;

  // recordmcount for an object the build has not yet passed through it (no
  // __mcount_loc): does this relocation at `offset` of a text section mark
  // a call to the profiling function, and which address would it record?
  virtual std::optional<uint64_t> mcountRecord(const ObjectRelocation&, uint64_t offset) const = 0;

  // Does relocation `r` inside `unitBytes` (the object's bytes of a spec
  // unit) form the field the spec unit `u` has (`field`, the plug-in's
  // Relocation of it) with the same addend? The caller compares symbols.
  // Nothing when it does, else why not.
  virtual std::optional<std::string> fieldProblem(const Unit& u, const Relocation& field, const ObjectRelocation& r,
                                                  std::span<const uint8_t> unitBytes, const Target&) const = 0;

  // A direct branch's target: an address when the instruction encodes it,
  // or an offset from `r`'s symbol when a relocation `r` inside the
  // instruction forms its field. Nothing for any other instruction.
  struct BranchTarget {
    bool viaRelocation = false;
    int64_t value = 0;
  };
  virtual std::optional<BranchTarget> branchTarget(std::span<const uint8_t> insn, uint64_t address,
                                                   const ObjectRelocation* r, const Target&) const = 0;

  // A trampoline taken from an object (docs/trampolines.md, "From a
  // build"): instruction `index` of `code` as one line of GNU assembly
  // that the plug-in's assembler turns back into the same unit: a raw
  // directive for an instruction without a relocation, else the
  // instruction with its field written as the relocation's symbol and
  // addend (`code` is all of it: a MIPS REL %hi takes the low half of
  // its addend from the %lo after it). The caller compares what it
  // assembles with the object; `problem` says why no line can be written.
  struct CodeLine {
    std::span<const uint8_t> bytes;                // in memory order
    uint64_t offset = 0;                           // from the code's first byte
    std::optional<ObjectRelocation> relocation;    // the one inside it, if any
  };
  struct SourceLine {
    std::string text, problem;
  };
  virtual SourceLine sourceLine(std::span<const CodeLine> code, size_t index, const Target&) const = 0;

  // What a linker may still do to a relocatable object beyond filling
  // fields (RISC-V linker relaxation): delete or rewrite up to `bytes`
  // bytes from r_offset on, which moves everything after them; `aligns`,
  // when not 0, is the alignment it gives the byte after them (alignment
  // padding it shrinks). `paired` is the relocation just before `r` at the
  // same r_offset, if any (R_RISCV_RELAX marks the one before it).
  // Nothing: `r` only fills its field.
  struct LinkerEdit {
    unsigned bytes = 0;
    uint64_t aligns = 0;
  };
  virtual std::optional<LinkerEdit> linkerEdit(const ObjectRelocation& r, const ObjectRelocation* paired) const;

  // Why `t` (in the object's byte order) cannot read an object whose ELF
  // header has these e_flags and class: a RISC-V object with compressed
  // instructions read by a target without C would be decoded at the wrong
  // lengths. Nothing: it can.
  virtual std::optional<std::string> targetProblem(uint32_t eFlags, bool elf64, const Target& t) const;

 protected:
  ObjectCode() = default;
};

// "sym", "sym+0x10", "sym-0x4": a relocation's symbol and addend as an
// assembler expression.
std::string symbolPlus(const std::string& symbol, int64_t addend);
// The operands of a disassembled line, split at the first blank.
struct SplitLine {
  std::string mnemonic, operands;
};
SplitLine splitLine(const std::string& line);

// The part of the plug-in of `t`'s ISA, and the one for an ELF machine;
// nothing when no plug-in has one.
const ObjectCode* objectCodeOf(const Target& t);
const ObjectCode* objectCodeForMachine(uint16_t machine);

}  // namespace patchcheck
