#pragma once
// --isa/--endian/--abi as every subcommand takes them.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <variant>

#include "checker/spec/Spec.h"
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

  bool given() const { return !isa.empty() || !endian.empty() || !abi.empty(); }

  // The target `spec` runs on: `base` (its [target] or a matrix entry) with
  // the command line over it, through the validation the loader gives the
  // spec's own targets (checkSpecForTarget); each error says the target
  // came from the command line.
  std::variant<Target, Diagnostics> forSpec(const Spec&, const Target& base) const;
};

// Parses 0x-hex or decimal; nullopt on anything else.
std::optional<uint64_t> parseAddress(const std::string&);

}  // namespace patchcheck
