// The Arm rules for the floor (checker/explore/CacheMaintenance.h), one
// sequence of maintenance per row: which version no later fetch goes below.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "checker/explore/CacheMaintenance.h"

using namespace patchcheck;

namespace {

// A writer (cpu 0) that wrote version 1 of location 0, then ran `ops`
// ("dc", "ic", "dsb", "dmb"; "seen" = a store after the last dmb reached
// memory), against the floor left under each cache type.
struct Row {
  std::vector<std::string> ops;
  unsigned idc0, idc1;  // the floor under DIC0-IDC0 and DIC0-IDC1
};

unsigned floorAfter(CacheType type, const std::vector<std::string>& ops) {
  CacheMaintenance cm(type);
  unsigned fences = 0;
  for (const std::string& op : ops) {
    if (op == "dc") cm.clean(0, 0, 1);
    else if (op == "ic") cm.invalidate(0, 0, 1);  // version 1 is in memory
    else if (op == "dsb") cm.barrier(0);
    else if (op == "dmb") cm.release(0, ++fences);
    else if (op == "seen") cm.storeSeen(0, fences);
  }
  return cm.floor(0);
}

}  // namespace

TEST_CASE("the floor each maintenance sequence leaves", "[cache_maintenance]") {
  const std::vector<Row> rows = {
      {{"dc", "dsb", "ic", "dsb"}, 1, 1},   // caches_clean_inval_pou
      {{"dc", "dsb", "ic"}, 0, 0},          // the invalidation not completed
      {{"dsb", "ic", "dsb"}, 0, 1},         // no clean: only IDC = 1 refills the new word
      {{"ic", "dsb", "dc", "dsb"}, 0, 1},   // clean after the invalidation (herd7's badcachesync)
      {{"dc", "ic", "dsb"}, 0, 1},          // the clean not completed when the invalidation was issued
      {{"dc", "dmb", "ic", "dsb"}, 0, 1},   // a dmb alone does not complete the clean
      {{"dc", "dmb", "seen", "ic", "dsb"}, 1, 1},  // ... a store after it seen in memory does
      {{"dc", "dsb"}, 0, 0},                // a clean alone leaves stale copies
      {{}, 0, 0},
  };
  for (const Row& r : rows) {
    std::string seq;
    for (const std::string& o : r.ops) seq += o + " ";
    INFO(seq);
    CHECK(floorAfter(CacheType::Dic0Idc0, r.ops) == r.idc0);
    CHECK(floorAfter(CacheType::Dic0Idc1, r.ops) == r.idc1);
  }
}

TEST_CASE("maintenance state: each cpu completes only its own", "[cache_maintenance]") {
  CacheMaintenance cm(CacheType::Dic0Idc0);
  cm.clean(0, 3, 2);
  cm.barrier(1);  // another cpu's dsb
  cm.invalidate(1, 3, 2);
  cm.barrier(1);
  CHECK(cm.floor(3) == 0);  // cpu 0's clean was not complete when cpu 1 invalidated
  cm.barrier(0);
  cm.invalidate(1, 3, 2);
  cm.barrier(1);
  CHECK(cm.floor(3) == 2);
  std::string a, b;
  cm.appendKey(a);
  CacheMaintenance other(CacheType::Dic0Idc0);
  other.appendKey(b);
  CHECK(a != b);
}
