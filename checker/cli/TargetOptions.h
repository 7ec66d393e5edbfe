#pragma once
// --isa/--endian/--abi as every subcommand takes them.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "encoder/Target.h"

namespace patchcheck {

struct TargetOptions {
  std::string isa, endian, abi;

  void addTo(CLI::App& app) {
    app.add_option("--isa", isa, "mips32r2 | mips64r2 | mips32r6 | mips64r6")
        ->check(CLI::IsMember({"mips32r2", "mips64r2", "mips32r6", "mips64r6"}));
    app.add_option("--endian", endian, "big | little")->check(CLI::IsMember({"big", "little"}));
    app.add_option("--abi", abi, "o32 | n32 | n64")->check(CLI::IsMember({"o32", "n32", "n64"}));
  }

  // Fills in what was given on the command line over `base`.
  mips::Target over(mips::Target base) const {
    if (!isa.empty()) {
      base.isa = *mips::parseIsa(isa);
      if (abi.empty()) base.abi = mips::defaultAbi(base.isa);
    }
    if (!endian.empty()) base.endian = *mips::parseEndian(endian);
    if (!abi.empty()) base.abi = *mips::parseAbi(abi);
    return base;
  }
};

// Parses 0x-hex or decimal; nullopt on anything else.
std::optional<uint64_t> parseAddress(const std::string&);

}  // namespace patchcheck
