// Default regions (../shared/FACTS.md: Linux MIPS KSEG0/KSEG2, CKSEG0/CKSEG2)
// and 32-bit addresses held sign-extended.
#include <catch2/catch.hpp>

#include "checker/Regions.h"

using namespace patchcheck;
using mips::Abi;
using mips::Endian;
using mips::Isa;
using mips::Target;

namespace {
const Target k32{Isa::Mips32R2, Endian::Big, Abi::O32};
const Target k64{Isa::Mips64R6, Endian::Little, Abi::N64};
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
