// Default regions (docs/encoder.md: Linux MIPS KSEG0/KSEG2, CKSEG0/CKSEG2),
// 32-bit addresses held sign-extended, and placements an encoding cannot
// serve (relocation overflow).
#include <catch2/catch.hpp>

#include <set>

#include "checker/explore/SiteInstance.h"
#include "checker/spec/Regions.h"
#include "encoder/mips/Plugin.h"

using namespace patchcheck;
using mips::Abi;
using mips::Endian;
using mips::Isa;

namespace {
const Target k32 = mips::Target{Isa::Mips32R2, Endian::Big, Abi::O32};
const Target k64 = mips::Target{Isa::Mips64R6, Endian::Little, Abi::N64};
}  // namespace

TEST_CASE("32-bit addresses are held sign-extended", "[spec_regions]") {
  CHECK(addressFor(0x80000000, k32) == 0xffffffff80000000ull);
  CHECK(addressFor(0x7ffffffc, k32) == 0x7ffffffcull);
  CHECK(addressFor(0xffffffff80000000ull, k32) == 0xffffffff80000000ull);
  CHECK_FALSE(addressFor(0x100000000ull, k32));
  CHECK_FALSE(addressFor(0x9800000000001000ull, k32));
  CHECK_FALSE(addressFor(0x00000000ffffffffull + 1, k32));
  CHECK(addressFor(0x80000000, k64) == 0x80000000ull);  // 64-bit: as written
  CHECK(addressFor(0x9800000000001000ull, k64) == 0x9800000000001000ull);
}

TEST_CASE("default regions per target", "[spec_regions]") {
  for (const Target& t : {k32, k64}) {
    auto regions = defaultRegions(t);
    const RegionSpec* kernel = findRegion(regions, "kernel-text");
    const RegionSpec* modules = findRegion(regions, "module-text");
    REQUIRE(kernel);
    REQUIRE(modules);
    CHECK(kernel->lo == 0xffffffff80000000ull);
    CHECK(kernel->hi == 0xffffffff9fffffffull);
    CHECK(modules->lo == 0xffffffffc0000000ull);
    CHECK(modules->hi == 0xffffffffdfffffffull);
  }
}

TEST_CASE("spec regions override defaults by name and add new ones", "[spec_regions]") {
  Spec s;
  s.regions.push_back({"kernel-text", 0x80000000, 0x8fffffff, {}});
  s.regions.push_back({"low", 0x1000, 0x1fff, {}});
  auto regions = regionsFor(s, k32);
  REQUIRE(regions.size() == 3);
  CHECK(findRegion(regions, "kernel-text")->hi == 0xffffffff8fffffffull);
  CHECK(findRegion(regions, "module-text")->lo == 0xffffffffc0000000ull);
  CHECK(findRegion(regions, "low")->lo == 0x1000);
  CHECK(regionsFor(s, k64)[0].hi == 0x8fffffffull);  // 64-bit targets take it as written
  CHECK_FALSE(findRegion(regions, "nowhere"));
}

TEST_CASE("concrete symbols only", "[spec_regions]") {
  SymbolSpec symbolic{"T", std::nullopt, "kernel-text", 4, {}};
  SymbolSpec concrete{"C", 0x80001000, "", 4, {}};
  CHECK_FALSE(symbolAddress(symbolic, k32));
  CHECK(symbolAddress(concrete, k32) == 0xffffffff80001000ull);
  CHECK(symbolAddress(concrete, k64) == 0x80001000ull);
}

namespace {

// The first error SiteInstance::make reports for a spec text, or "".
std::string placementError(const std::string& text) {
  auto loaded = parseSpec(text, "placement.toml");
  REQUIRE(std::holds_alternative<Spec>(loaded));
  const Spec& spec = std::get<Spec>(loaded);
  z3::context c;
  auto site = SiteInstance::make(spec, spec.target, c);
  if (auto* e = std::get_if<Diagnostics>(&site)) return e->front().str();
  return "";
}

std::string siteSpec(const std::string& target, const std::string& symbols, const std::string& word) {
  return "schema = 1\n[target]\n" + target + "\n[site]\nwords = 2\n[symbols]\n" + symbols +
         "\n[states]\noff = [\"nop\", \"nop\"]\non = [\"" + word + "\", \"nop\"]\n[behaviour]\noff = \"untraced\"\n"
         "on = \"call T\"\n";
}

}  // namespace

TEST_CASE("a jal from module text to kernel text is a relocation overflow naming both addresses",
          "[spec_regions]") {
  std::string e = placementError(siteSpec("isa = \"mips32r2\"", "F = { in = \"module-text\" }\nT = { in = \"kernel-text\" }",
                                          "jal T"));
  CHECK_THAT(e, Catch::Matchers::Contains("placement.toml:11:"));
  CHECK_THAT(e, Catch::Matchers::Contains("256 MB region of the delay slot"));
  CHECK_THAT(e, Catch::Matchers::Contains("F = 0xffffffffc"));
  CHECK_THAT(e, Catch::Matchers::Contains("T = 0xffffffff8"));
  CHECK_THAT(e, Catch::Matchers::Contains("relocation overflow"));
  // Both in kernel text, one 256 MB region: fine.
  CHECK(placementError(siteSpec("isa = \"mips32r2\"",
                                "F = { in = \"kernel-text\" }\nT = { in = \"kernel-text\" }\n[regions]\n"
                                "kernel-text = [0x80000000, 0x8ffff000]",
                                "jal T")) == "");
}

TEST_CASE("MIPS64: lui %hi of an address outside the 32-bit compatibility segments is an error",
          "[spec_regions]") {
  std::string xkphys = "[regions]\nkernel-text = [\"0x9800000000100000\", \"0x98000000ffffffff\"]";
  std::string e = placementError(siteSpec("isa = \"mips64r2\"",
                                          "F = { in = \"kernel-text\" }\nT = { in = \"kernel-text\" }\n" + xkphys,
                                          "lui at, %hi(T)"));
  CHECK_THAT(e, Catch::Matchers::Contains("32-bit compatibility segments"));
  CHECK_THAT(e, Catch::Matchers::Contains("T = 0x98"));
  // CKSEG0 (the default kernel text) is in reach.
  CHECK(placementError(siteSpec("isa = \"mips64r2\"", "F = { in = \"kernel-text\" }\nT = { in = \"kernel-text\" }",
                                "lui at, %hi(T)")) == "");
  // lui 0x8000 + daddiu -0x8000 forms 0xffffffff7fff8000 (x + 0x8000 is
  // sign-extended), symbolic or concrete.
  std::string low = "[regions]\nkernel-text = [\"0xffffffff7fff8000\", \"0xffffffff7fff8000\"]";
  CHECK(placementError(siteSpec("isa = \"mips64r2\"",
                                "F = { value = \"0xffffffff80100000\" }\nT = { in = \"kernel-text\", align = 4 }\n" + low,
                                "lui at, %hi(T)")) == "");
  CHECK(placementError(siteSpec("isa = \"mips64r2\"",
                                "F = { value = \"0xffffffff80100000\" }\nT = { value = \"0xffffffff7fff8000\" }",
                                "lui at, %hi(T)")) == "");
}

TEST_CASE("a branch reaches exactly what its offset field holds: 16 bits of words from the delay slot",
          "[spec_regions]") {
  // F and T anywhere in 128 KB: every distance from the delay slot fits
  // -0x20000..0x1fffc, so `b T` encodes for every placement.
  CHECK(placementError(siteSpec("isa = \"mips32r2\"",
                                "F = { in = \"near\" }\nT = { in = \"near\" }\n[regions]\n"
                                "near = [0x80000000, 0x8001ffff]",
                                "b T")) == "");
  // In 256 KB, T can lie 0x3fff8 bytes past the slot: out of reach.
  std::string e = placementError(siteSpec("isa = \"mips32r2\"",
                                          "F = { in = \"near\" }\nT = { in = \"near\" }\n[regions]\n"
                                          "near = [0x80000000, 0x8003ffff]",
                                          "b T"));
  CHECK_THAT(e, Catch::Matchers::Contains("is within reach of 'b'"));
  CHECK_THAT(e, Catch::Matchers::Contains("relocation overflow"));
}

TEST_CASE("a branch to a symbolic address that may be misaligned is a relocation overflow", "[spec_regions]") {
  std::string near = "[regions]\nnear = [0x80000000, 0x8000ffff]";
  CHECK(placementError(siteSpec("isa = \"mips32r2\"", "F = { in = \"near\" }\nT = { in = \"near\", align = 4 }\n" + near,
                                "b T + 8")) == "");
  std::string e = placementError(
      siteSpec("isa = \"mips32r2\"", "F = { in = \"near\" }\nT = { in = \"near\", align = 4 }\n" + near, "b T + 2"));
  CHECK_THAT(e, Catch::Matchers::Contains("branch target T+0x2 is word-aligned"));
  CHECK_THAT(e, Catch::Matchers::Contains("relocation overflow"));
}

TEST_CASE("a placement a trampoline contract's symbols make impossible is reported once, at the contract's line",
          "[spec_regions]") {
  // tests/data/soundness/contract-unplaceable.toml: the contract puts its
  // callback cb in two bytes that hold no 16-aligned address.
  auto loaded = loadSpec(std::string(PATCHCHECK_TEST_DATA) + "/soundness/contract-unplaceable.toml");
  REQUIRE(std::holds_alternative<Spec>(loaded));
  const Spec& spec = std::get<Spec>(loaded);
  z3::context c;
  auto site = SiteInstance::make(spec, spec.target, c);
  REQUIRE(std::holds_alternative<Diagnostics>(site));
  const Diagnostics& d = std::get<Diagnostics>(site);
  REQUIRE_FALSE(d.empty());
  std::set<std::string> said;
  for (const Diagnostic& e : d) {
    INFO(e.str());
    CHECK(said.insert(e.str()).second);  // no message twice
    CHECK_THAT(e.where.file, Catch::Matchers::EndsWith("trampolines/mips/unplaceable.toml"));
    CHECK(e.where.line == 18);  // cb's line, not the spec's [trampolines]
    CHECK_THAT(e.message, Catch::Matchers::Contains("trampoline tramp: cb "));
    // The clause it names is not repeated among the others.
    size_t made = e.message.find("so no proof can be made: "), with = e.message.find(", together with: ");
    if (made != std::string::npos && with != std::string::npos) {
      std::string clause = e.message.substr(made + 25, with - made - 25);
      CHECK(e.message.find(clause, with) == std::string::npos);
    }
  }
}
