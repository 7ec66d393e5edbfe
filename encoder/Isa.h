#pragma once
// What the ISA-neutral core asks of an instruction set's encoder: its
// variants and ABIs, and how it prints instructions. Each ISA implements
// it in its own folder (encoder/mips/Plugin.cpp) and is found through the
// registry (encoder/IsaRegistry.h) by the name a spec gives in [target]
// isa. The model half is model/IsaModel.h.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "encoder/Assembly.h"
#include "encoder/IsaPatching.h"
#include "encoder/KernelVersion.h"
#include "encoder/Litmus.h"
#include "encoder/Target.h"

namespace patchcheck {

// A named address range where code may lie ("kernel-text"), as the
// target holds addresses (64-bit; sign-extended on 32-bit targets).
struct AddressRange {
  std::string name;
  uint64_t lo = 0, hi = 0;  // inclusive
};

class IsaPlugin {
 public:
  virtual ~IsaPlugin() = default;

  virtual std::string_view family() const = 0;                      // "mips"
  virtual std::span<const std::string_view> variants() const = 0;  // "mips32r2", ...
  virtual std::span<const std::string_view> abis() const = 0;      // "o32", "n32", "n64"
  virtual uint8_t defaultAbi(uint8_t variant) const = 0;
  virtual uint8_t defaultVariant() const = 0;  // of a spec without [target], a command without --isa
  // The byte order a target of this ISA has unless a spec or --endian says
  // otherwise (MIPS: big; arm64: little).
  virtual Endian defaultEndian() const { return Endian::Big; }
  // The byte order of instructions in memory: the target's (MIPS), unless
  // the ISA fixes it (AArch64: always little-endian, whatever the data's).
  virtual Endian instructionByteOrder(const Target& t) const { return t.endian; }
  // The byte order of one unit of an assembly in memory: an instruction's
  // is instructionByteOrder, a data directive's the target's.
  virtual Endian byteOrder(const Unit&, const Target& t) const { return t.endian; }
  virtual unsigned registerBits(uint8_t variant) const = 0;
  // Why the combination cannot be used ("ABI n32 needs a 64-bit ISA"), or nothing.
  virtual std::optional<std::string> problem(const Target&) const = 0;
  // One instruction as objdump prints it (aliases on, tab between mnemonic
  // and operands): `value` holds its `bytes` bytes as the plug-in reads
  // them (MIPS: the 32-bit word); `address` is where it lies.
  virtual std::string disassemble(uint64_t value, unsigned bytes, uint64_t address, const Target&) const = 0;
  // The same for an instruction given as its bytes in memory order, however
  // long (x86: up to 15 bytes). By default the bytes become `value` in the
  // instruction byte order.
  virtual std::string disassembleBytes(std::span<const uint8_t> bytes, uint64_t address, const Target& t) const;

  // How long the instruction that starts at bytes[0] is, as a CPU decodes
  // it: a variable-length ISA (x86) is fetched byte by byte until this
  // says Length. `symbolic[k]` marks bytes whose value depends on the
  // placement (their entry in `bytes` is arbitrary): PlacementDependent
  // when one of them is needed to tell the length or the operation (not
  // only an immediate or displacement). A fixed-length ISA answers its
  // patch unit.
  struct Length {
    enum Kind { Known, NeedMore, Invalid, PlacementDependent } kind = Known;
    unsigned bytes = 0;
  };
  virtual Length instructionLength(std::span<const uint8_t> bytes, std::span<const bool> symbolic,
                                   const Target& t) const {
    (void)bytes, (void)symbolic;
    return {Length::Known, patchUnitBytes(t)};
  }

  // GNU-syntax assembly for options.target: one Unit per instruction or
  // data directive, or the errors with file:line:column.
  virtual std::variant<Program, Diagnostics> assemble(std::string_view source, const std::string& file,
                                                      const AssemblyOptions&) const = 0;
  // A unit of this plug-in's assembly as a Z3 term over the symbols.
  virtual SymbolicUnit symbolic(const Unit&, const Target&, z3::context&, const SymbolTerm&) const = 0;
  // How the unit's address-dependent field is formed; nothing for a
  // concrete unit.
  virtual std::optional<Relocation> relocation(const Unit&) const = 0;
  // The instruction table as text, one row per line: a certificate holds
  // its hash, so a table made with another encoding table is refused.
  virtual std::string tableText() const = 0;
  // The libraries the plug-in encodes or decodes with, and their versions
  // ("Zydis 4.0.0"): part of the checker build a certificate names.
  virtual std::string libraryVersions() const { return {}; }
  // The alignment every instruction address has (MIPS, arm64: 4): the
  // smallest `align` a code symbol may have, and its default.
  virtual unsigned codeAlignment() const { return 4; }
  // The smallest alignment an instruction of `t` may have (RISC-V with C:
  // 2); a byte site's symbols may be aligned to it. Word sites keep
  // codeAlignment, their unit being one aligned fetch.
  virtual unsigned minimumCodeAlignment(const Target&) const { return codeAlignment(); }
  // The length of a site's patch unit, the bytes a writer replaces at
  // once (MIPS: one 4-byte instruction word).
  virtual unsigned patchUnitBytes(const Target&) const = 0;
  // May a spec count a site of `t` in bytes ([site] bytes = N), each byte
  // a unit and instructions decoded from them as fetched? Always when the
  // patch unit is a byte (x86); RISC-V with C, whose 2- and 4-byte
  // instructions share 4-byte fetch chunks.
  virtual bool byteSites(const Target& t) const { return patchUnitBytes(t) == 1; }
  // Where the kernel's code lies when a spec does not say: at least
  // "kernel-text" and "module-text" (a spec's [regions] override them).
  virtual std::vector<AddressRange> defaultRegions(const Target&) const = 0;
  // The fetch models (checker/fetch/, by the name [model] fetch gives) a
  // spec of this ISA may take, and the one it gets without [model] fetch.
  // An architecture that defines how instruction fetch sees changes
  // (arm64's CMODX rules, x86's cross-modification rule) names its own
  // model only: another would claim coherence the hardware does not give.
  virtual std::span<const std::string_view> fetchModels() const = 0;
  virtual std::string_view defaultFetchModel() const = 0;
  // What the architecture says about code that changes under a running
  // CPU (encoder/IsaPatching.h); by default nothing restricts it.
  virtual const IsaPatching& patching() const;
  // herd7's word for this architecture in a litmus test's header
  // ("AArch64", "MIPS", "X86_64"); empty: herd7 has none.
  virtual std::string_view litmusArchitecture() const { return {}; }
  // How this plug-in runs litmus tests (encoder/Litmus.h); nothing: it
  // does not, and `patchcheck litmus` refuses a test of its architecture.
  virtual const LitmusDialect* litmus() const { return nullptr; }

 protected:
  IsaPlugin() = default;
};

}  // namespace patchcheck
