#pragma once
// --isa/--endian/--abi as every subcommand takes them.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "encoder/IsaRegistry.h"

namespace patchcheck {

struct TargetOptions {
  std::string isa, endian, abi;

  void addTo(CLI::App& app) {
    std::vector<std::string> isas = variantNames(), abis = abiNames();
    auto list = [](const std::vector<std::string>& v) {
      std::string s;
      for (const std::string& n : v) s += (s.empty() ? "" : " | ") + n;
      return s;
    };
    app.add_option("--isa", isa, list(isas))->check(CLI::IsMember(isas));
    app.add_option("--endian", endian, "big | little")->check(CLI::IsMember({"big", "little"}));
    app.add_option("--abi", abi, list(abis))->check(CLI::IsMember(abis));
  }

  // Fills in what was given on the command line over `base`. An ABI the
  // ISA does not have is left for Isa::problem to name.
  Target over(Target base) const {
    if (!isa.empty()) {
      Target named = *targetNamed(isa);
      if (named.isa == base.isa) named.endian = base.endian;  // another ISA keeps its own default
      base = named;
    }
    if (!endian.empty()) base.endian = *parseEndian(endian);
    if (!abi.empty()) base.abi = abiNamed(base, abi).value_or(kUnknownAbi);
    return base;
  }
  static constexpr uint8_t kUnknownAbi = 0xff;
};

// Parses 0x-hex or decimal; nullopt on anything else.
std::optional<uint64_t> parseAddress(const std::string&);

}  // namespace patchcheck
