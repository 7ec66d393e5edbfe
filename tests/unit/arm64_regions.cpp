// Default regions of Linux arm64 (docs/encoder-arm64.md "Addresses") and
// the reach of BL (+-128 MiB, docs/encoder-arm64.md): a placement that
// puts a BL's target out of reach is a relocation overflow naming both
// addresses.
#include <catch2/catch.hpp>

#include "checker/explore/SiteInstance.h"
#include "checker/spec/Regions.h"
#include "checker/spec/Spec.h"
#include "encoder/IsaRegistry.h"

using namespace patchcheck;

namespace {

// The first error SiteInstance::make reports for a spec text, or "".
std::string placementError(const std::string& text) {
  auto loaded = parseSpec(text, "placement.toml");
  if (auto* e = std::get_if<Diagnostics>(&loaded)) return "spec: " + e->front().str();
  const Spec& spec = std::get<Spec>(loaded);
  z3::context c;
  auto site = SiteInstance::make(spec, spec.target, c);
  if (auto* e = std::get_if<Diagnostics>(&site)) return e->front().str();
  return "";
}

std::string siteSpec(const std::string& symbols, const std::string& word) {
  return "schema = 1\n[target]\nisa = \"arm64\"\n[site]\nwords = 2\n[symbols]\n" + symbols +
         "\n[states]\noff = [\"nop\", \"nop\"]\non = [\"" + word + "\", \"nop\"]\n[behaviour]\noff = \"untraced\"\n"
         "on = \"call T\"\n";
}

}  // namespace

TEST_CASE("arm64 default regions: modules below the kernel image, vmalloc after it", "[arm64_regions]") {
  Target t = *targetNamed("arm64");
  Spec s;
  auto regions = regionsFor(s, t);
  const RegionSpec* kernel = findRegion(regions, "kernel-text");
  const RegionSpec* modules = findRegion(regions, "module-text");
  REQUIRE(kernel);
  REQUIRE(modules);
  CHECK(kernel->lo == 0xffff800080000000ull);
  CHECK(kernel->hi - kernel->lo + 1 == 128ull << 20);  // BL reaches across it
  CHECK(modules->hi < kernel->lo);
  CHECK(modules->hi - modules->lo + 1 == 2ull << 30);  // 2 GiB of module space
}

TEST_CASE("a bl from module text to kernel text is a relocation overflow naming both addresses",
          "[arm64_regions]") {
  std::string e = placementError(siteSpec("F = { in = \"module-text\" }\nT = { in = \"kernel-text\" }", "bl T"));
  CHECK_THAT(e, Catch::Matchers::Contains("placement.toml:11:"));
  CHECK_THAT(e, Catch::Matchers::Contains("arm64/lp64/little"));  // a spec's arm64 target is little-endian
  CHECK_THAT(e, Catch::Matchers::Contains("reaches T"));
  CHECK_THAT(e, Catch::Matchers::Contains("F = 0xffff8000"));
  CHECK_THAT(e, Catch::Matchers::Contains("T = 0xffff8000"));
  CHECK_THAT(e, Catch::Matchers::Contains("relocation overflow"));
  // Within the kernel image (128 MiB) every placement is in reach.
  CHECK(placementError(siteSpec("F = { in = \"kernel-text\" }\nT = { in = \"kernel-text\" }", "bl T")) == "");
  // One byte more and T can lie 128 MiB past F: out of reach.
  e = placementError(siteSpec("F = { in = \"near\" }\nT = { in = \"near\", align = 4 }\n[regions]\n"
                              "near = [\"0xffff800080000000\", \"0xffff800088000000\"]",
                              "bl T"));
  CHECK_THAT(e, Catch::Matchers::Contains("relocation overflow"));
}
