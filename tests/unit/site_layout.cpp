// Sites as byte regions (checker/spec/SiteLayout.h): units by offset
// and length from F, the body after the site, I-cache lines by byte
// address, units before F.
#include <catch2/catch.hpp>

#include "checker/spec/SiteLayout.h"

using namespace patchcheck;

TEST_CASE("a MIPS site: 4-byte words from F, the body after them", "[site_layout]") {
  SiteLayout l = SiteLayout::consecutive(2, 3, 4);
  CHECK(l.size() == 5);
  CHECK(l.start() == 0);
  CHECK(l.end() == 20);
  CHECK(l.bodyOffset() == 8);
  CHECK(l.unitAt(12) == 3u);
  CHECK_FALSE(l.unitAt(6));   // inside a unit, not at its start
  CHECK_FALSE(l.unitAt(20));  // the end is no unit
  CHECK(l.offsetOf(5) == 20);
  // F 8 bytes before a 16-byte line: words 0-1 in the first line, 2-4 in the next.
  CHECK(l.cacheLines(0x1008, 16) == std::vector<unsigned>{0, 0, 1, 1, 1});
}

TEST_CASE("byte units and a site without a body", "[site_layout]") {
  SiteLayout l = SiteLayout::consecutive(5, 0, 1);
  CHECK(l.end() == 5);
  CHECK(l.bodyOffset() == 5);
  CHECK(l.unitAt(4) == 4u);
  CHECK(l.cacheLines(62, 64) == std::vector<unsigned>{0, 0, 1, 1, 1});
}

TEST_CASE("a data unit before F (arm64's ops literal) and the words from F", "[site_layout]") {
  SiteLayout l = SiteLayout::of({{-8, 8}, {0, 4}, {4, 4}}, 3);
  CHECK(l.start() == -8);
  CHECK(l.end() == 8);
  CHECK(l.unitAt(-8) == 0u);
  CHECK(l.unitAt(0) == 1u);
  CHECK(l.bodyOffset() == 8);
  // F at address 0 (a line start): the literal lies in the line before.
  CHECK(l.cacheLines(0, 64) == std::vector<unsigned>{0, 1, 1});
  CHECK(l.cacheLines(0x1008, 16) == std::vector<unsigned>{0, 0, 0});
}
