// Loads past stores (MachineState::loadByte): a byte is read past a store
// only where the two addresses surely differ (two numerals, or one base at
// two offsets). One case per row: the stores, the load, and whether the
// load must reach below every store. Whatever the row expects, the loaded
// term must equal select(memory, address) in every model.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "encoder/mips/Target.h"
#include "model/MachineState.h"

using namespace patchcheck;


namespace {

struct Row {
  std::string what;
  // (address, byte) stores, in program order, and the address loaded.
  std::function<std::vector<std::pair<z3::expr, unsigned>>(z3::context&)> stores;
  std::function<z3::expr(z3::context&)> load;
  enum class Reads { Below, Stored, Stops } reads;  // below every store / a stored byte / stops at a store
};

z3::expr sp(z3::context& c) { return c.bv_const("sp", 64); }
z3::expr at(z3::context& c, const z3::expr& base, int64_t k) { return (base + c.bv_val(uint64_t(k), 64)).simplify(); }
z3::expr num(z3::context& c, uint64_t v) { return c.bv_val(v, 64); }

// sp - 16 .. sp - 1, then `more`.
std::vector<std::pair<z3::expr, unsigned>> frame(z3::context& c, std::vector<std::pair<z3::expr, unsigned>> more = {}) {
  std::vector<std::pair<z3::expr, unsigned>> out;
  for (int i = 16; i >= 1; --i) out.push_back({at(c, sp(c), -i), unsigned(0xa0 + i)});
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

const std::vector<Row> kRows = {
    {"below a frame: every store is sp + another offset", [](z3::context& c) { return frame(c); },
     [](z3::context& c) { return at(c, sp(c), -24); }, Row::Reads::Below},
    {"in a frame: the byte stored there", [](z3::context& c) { return frame(c); },
     [](z3::context& c) { return at(c, sp(c), -8); }, Row::Reads::Stored},
    {"at sp itself (offset 0) past a frame", [](z3::context& c) { return frame(c); },
     [](z3::context& c) { return sp(c); }, Row::Reads::Below},
    {"another base: may be any of the frame's bytes", [](z3::context& c) { return frame(c); },
     [](z3::context& c) { return c.bv_const("p", 64); }, Row::Reads::Stops},
    {"another base plus an offset", [](z3::context& c) { return frame(c); },
     [](z3::context& c) { return at(c, c.bv_const("p", 64), 8); }, Row::Reads::Stops},
    {"a frame offset from sp + 2^64 - 16, the same byte as sp - 16", [](z3::context& c) { return frame(c); },
     [](z3::context& c) { return (sp(c) + c.bv_val(uint64_t(-16), 64)).simplify(); }, Row::Reads::Stored},
    {"numerals past numerals", [](z3::context& c) { return std::vector<std::pair<z3::expr, unsigned>>{{num(c, 0x1000), 1}, {num(c, 0x1001), 2}}; },
     [](z3::context& c) { return num(c, 0x2000); }, Row::Reads::Below},
    {"a numeral past a frame: sp may be anything", [](z3::context& c) { return frame(c); },
     [](z3::context& c) { return num(c, 0x2000); }, Row::Reads::Stops},
    {"sp past a numeral store", [](z3::context& c) { return std::vector<std::pair<z3::expr, unsigned>>{{num(c, 0x1000), 1}}; },
     [](z3::context& c) { return sp(c); }, Row::Reads::Stops},
    {"past the frame, stopped by a store at another base above it",
     [](z3::context& c) { return std::vector<std::pair<z3::expr, unsigned>>{{c.bv_const("p", 64), 7}, {at(c, sp(c), -1), 1}}; },
     [](z3::context& c) { return at(c, sp(c), -2); }, Row::Reads::Stops},
};

}  // namespace

TEST_CASE("a load reads past a store only where the addresses surely differ", "[machine_memory]") {
  for (const Row& row : kRows) {
    DYNAMIC_SECTION(row.what) {
      z3::context c;
      mips::Target t{mips::Isa::Mips64R2, Endian::Big, mips::Abi::N64};
      MachineState s = MachineState::symbolic(c, t, "in.");
      z3::expr m0 = s.memory;
      for (const auto& [a, v] : row.stores(c)) s.store(a, c.bv_val(v, 8), 1);
      z3::expr a = row.load(c);
      z3::expr got = s.loadByte(a);
      INFO("loaded: " << got);
      z3::solver solver(c);
      solver.add(got != z3::select(s.memory, a));
      CHECK(solver.check() == z3::unsat);
      bool below = got.is_app() && got.decl().decl_kind() == Z3_OP_SELECT && z3::eq(got.arg(0), m0);
      bool stored = got.simplify().is_numeral();  // the stored byte, extract(7, 0) of the value
      bool stops = got.is_app() && got.decl().decl_kind() == Z3_OP_SELECT && !z3::eq(got.arg(0), m0);
      switch (row.reads) {
        case Row::Reads::Below: CHECK(below); break;
        case Row::Reads::Stored: CHECK(stored); break;
        case Row::Reads::Stops: CHECK(stops); break;
      }
    }
  }
}
