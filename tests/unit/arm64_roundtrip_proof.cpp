// Z3 proofs over the whole field space of every row of the A64 table (bit-
// vector variables, not samples): for all operand field values that meet
// the row's rule, the word match | placed fields
//   1. keeps the row's fixed bits: (word & mask) == match,
//   2. gives every field back,
//   3. decodes (the first accepting row in table order) to a row with the
//      same Op: the row itself or an alias of it.
// Assembler-only rows get 3 as well: what they produce disassembles to the
// same operation. The rule terms are shown equal to the C++ rules by
// evaluating the C++ rule at every value of the bits it reads.
#include <catch2/catch.hpp>

#include <sstream>

#include "encoder/arm64/Decoder.h"
#include "encoder/arm64/FieldTerms.h"

using namespace patchcheck::arm64;

namespace {

struct Encoded {
  z3::expr word;
  z3::expr_vector inputs;
  std::vector<std::pair<BitField, z3::expr>> fields;
};

Encoded encode(const InstrDesc& d, z3::context& c) {
  Encoded e{c.bv_val(d.match, 32), z3::expr_vector(c), {}};
  for (unsigned i = 0; i < d.operandCount(); ++i) {
    unsigned n = 0;
    for (const BitField& f : layoutOf(d.operands[i]).all()) {
      z3::expr v = c.bv_const(("op" + std::to_string(i) + "_" + std::to_string(n++)).c_str(), f.width);
      e.word = e.word | placeTerm(f, v);
      e.inputs.push_back(v);
      e.fields.push_back({f, v});
    }
  }
  return e;
}

// Rows that can accept a word with `d`'s fixed bits, in decode order.
std::vector<const InstrDesc*> rivals(const InstrDesc& d) {
  std::vector<const InstrDesc*> out;
  for (const InstrDesc& r : instructionTable())
    if (!(r.flags & kAsmOnly) && ((r.match ^ d.match) & r.mask() & d.mask()) == 0) out.push_back(&r);
  return out;
}

// "The first row of `order` that accepts `word` has Op `op`."
z3::expr decodesToOp(const std::vector<const InstrDesc*>& order, Op op, const z3::expr& word) {
  z3::context& c = word.ctx();
  z3::expr none = c.bool_val(true), good = c.bool_val(false);
  for (const InstrDesc* r : order) {
    z3::expr acc = acceptsTerm(*r, word);
    if (r->op == op) good = good || (none && acc);
    none = none && !acc;
  }
  return good;
}

std::string counterexample(z3::solver& s, const Encoded& e) {
  z3::model m = s.get_model();
  std::ostringstream o;
  o << "word " << m.eval(e.word, true);
  for (unsigned i = 0; i < e.inputs.size(); ++i) o << ", " << e.inputs[i] << " = " << m.eval(e.inputs[i], true);
  return o.str();
}

}  // namespace

TEST_CASE("each A64 row encodes, extracts and decodes to itself or an alias, for all fields",
          "[arm64_roundtrip_proof]") {
  z3::context c;
  size_t proved = 0;
  for (const InstrDesc& d : instructionTable()) {
    INFO("row '" << d.mnemonic << (d.keyword.empty() ? "" : " ") << d.keyword << "' match 0x" << std::hex << d.match);
    Encoded e = encode(d, c);
    z3::expr claim = decodesToOp(rivals(d), d.op, e.word);
    if (!(d.flags & kAsmOnly)) {
      claim = claim && (e.word & c.bv_val(d.mask(), 32)) == c.bv_val(d.match, 32);
      for (auto& [f, v] : e.fields) claim = claim && extractTerm(f, e.word) == v;
    }
    z3::solver s(c);
    s.add(ruleTerm(d.rule, e.word));
    s.add(!claim);
    z3::check_result r = s.check();
    if (r == z3::sat) FAIL("counterexample: " << counterexample(s, e));
    REQUIRE(r == z3::unsat);
    // And the rule admits some word at all (else the row is dead).
    z3::solver some(c);
    some.add(ruleTerm(d.rule, e.word));
    CHECK(some.check() == z3::sat);
    ++proved;
  }
  CHECK(proved == instructionTable().size());
  CHECK(proved > 240);
}

TEST_CASE("no A64 row's fixed bits overlap its operand fields", "[arm64_roundtrip_proof]") {
  for (const InstrDesc& d : instructionTable()) {
    INFO("row '" << d.mnemonic << "' match 0x" << std::hex << d.match);
    CHECK((d.match & ~d.mask()) == 0);
    uint32_t seen = 0;
    for (unsigned i = 0; i < d.operandCount(); ++i) {
      uint32_t bits = operandBits(d.operands[i]), laid = 0;
      for (const BitField& f : layoutOf(d.operands[i]).all()) {
        CHECK((laid & f.mask()) == 0);  // fields of one operand are disjoint
        laid |= f.mask();
      }
      CHECK(laid == bits);  // the layout covers exactly the operand's bits
      CHECK((seen & bits) == 0);
      seen |= bits;
    }
    CHECK((ruleBits(d.rule) & ~d.mask() & ~seen) == 0);  // a rule reads only operand and fixed bits
  }
}

TEST_CASE("each rule term is the C++ rule at every value of the bits it reads", "[arm64_roundtrip_proof]") {
  z3::context c;
  z3::expr word = c.bv_const("w", 32);
  const FieldRule rules[] = {FieldRule::None, FieldRule::NoRor, FieldRule::ExtendAmount, FieldRule::MemRegOption,
                             FieldRule::Bitmask, FieldRule::MovBitmaskX, FieldRule::MovBitmaskW, FieldRule::MovWide,
                             FieldRule::MovWideNotW, FieldRule::MovSp, FieldRule::SysRegRead, FieldRule::SysRegWrite,
                             FieldRule::CondNotAlNv, FieldRule::SameRnRm};
  // Every rule is listed: the last one's number plus one.
  CHECK(std::size(rules) == unsigned(FieldRule::SameRnRm) + 1);
  for (FieldRule r : rules) {
    INFO("rule " << unsigned(r));
    uint32_t bits = ruleBits(r);
    // The mov alias of orr reads Rd only as "is it 31": enumerate Rd 0 and
    // 31, and prove every other Rd behaves as 0 does.
    bool rdAs31 = r == FieldRule::MovBitmaskX || r == FieldRule::MovBitmaskW;
    if (rdAs31) {
      z3::expr rd0 = (word & c.bv_val(~0x1fu, 32));
      z3::solver s(c);
      s.add(word.extract(4, 0) != c.bv_val(31, 5));
      s.add(ruleTerm(r, word) != ruleTerm(r, rd0));
      REQUIRE(s.check() == z3::unsat);
      for (uint32_t rd = 1; rd < 31; ++rd) CHECK(satisfiesRule(r, 0x00001000u | rd) == satisfiesRule(r, 0x00001000u));
    }
    uint32_t enumerated = rdAs31 ? bits & ~0x1fu : bits;
    // Every word over those bits (the others zero), split by the C++
    // verdict; Z3 must agree on the smaller side and on nothing else.
    std::vector<uint32_t> accepted, refused;
    for (uint32_t rd : rdAs31 ? std::vector<uint32_t>{0, 31} : std::vector<uint32_t>{0}) {
      uint32_t w = 0;
      do {
        (satisfiesRule(r, w | rd) ? accepted : refused).push_back(w | rd);
        w = (w - enumerated) & enumerated;  // next subset of `enumerated`
      } while (w != 0);
    }
    bool listAccepted = accepted.size() <= refused.size();
    z3::expr_vector values(c);
    for (uint32_t v : listAccepted ? accepted : refused) values.push_back(word == c.bv_val(v, 32));
    z3::expr listed = values.empty() ? c.bool_val(false) : z3::mk_or(values);
    z3::expr cxx = listAccepted ? listed : !listed;
    z3::solver s(c);
    uint32_t free = rdAs31 ? ~enumerated & ~0x1fu : ~enumerated;
    s.add((word & c.bv_val(free, 32)) == 0);
    if (rdAs31) s.add(word.extract(4, 0) == c.bv_val(0, 5) || word.extract(4, 0) == c.bv_val(31, 5));
    s.add(ruleTerm(r, word) != cxx);
    REQUIRE(s.check() == z3::unsat);
  }
}
