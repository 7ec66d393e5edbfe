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

#include "encoder/Target.h"

namespace patchcheck {

class IsaPlugin {
 public:
  virtual ~IsaPlugin() = default;

  virtual std::string_view family() const = 0;                      // "mips"
  virtual std::span<const std::string_view> variants() const = 0;  // "mips32r2", ...
  virtual std::span<const std::string_view> abis() const = 0;      // "o32", "n32", "n64"
  virtual uint8_t defaultAbi(uint8_t variant) const = 0;
  virtual uint8_t defaultVariant() const = 0;  // of a spec without [target], a command without --isa
  virtual unsigned registerBits(uint8_t variant) const = 0;
  // Why the combination cannot be used ("ABI n32 needs a 64-bit ISA"), or nothing.
  virtual std::optional<std::string> problem(const Target&) const = 0;
  // One instruction as objdump prints it (aliases on, tab between mnemonic
  // and operands): `value` holds its `bytes` bytes as the plug-in reads
  // them (MIPS: the 32-bit word); `address` is where it lies.
  virtual std::string disassemble(uint64_t value, unsigned bytes, uint64_t address, const Target&) const = 0;

 protected:
  IsaPlugin() = default;
};

}  // namespace patchcheck
