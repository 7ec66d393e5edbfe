// Z3 proofs over the whole field space (bit-vector variables, not samples)
// that the instruction table is a faithful encoding, per row and per ISA:
// for all operand fields that satisfy the row's FieldRule, the word
// match | placed fields
//   1. has the row's fixed bits: (word & mask) == match,
//   2. gives back every field from every place it was written to,
//   3. decodes (first accepting row, in table order, of the ISA) to a row
//      with the same Op: the row itself or an alias of it.
// Assembler-only rows (li, not, dsll 32..63, aui $0) get 3 as well, so that
// what they produce disassembles to the same operation.
#include <catch2/catch.hpp>

#include <sstream>

#include "encoder/mips/FieldTerms.h"
#include "encoder/mips/Fields.h"

using namespace patchcheck::mips;

namespace {

std::vector<const InstrDesc*> decodeOrder(Isa isa) {
  std::vector<const InstrDesc*> rows;
  for (const InstrDesc& d : instructionTable())
    if ((d.isas & bit(isa)) && !(d.flags & kAsmOnly)) rows.push_back(&d);
  return rows;
}

struct Encoded {
  z3::expr word;
  z3::expr_vector inputs;
  std::vector<std::pair<Field, z3::expr>> fields;  // each field with its input
};

Encoded encode(const InstrDesc& d, z3::context& c) {
  Encoded e{c.bv_val(d.match, 32), z3::expr_vector(c), {}};
  for (unsigned i = 0; i < d.operandCount(); ++i) {
    unsigned n = 0;
    for (const Field& f : fieldsOf(d.operands[i])) {
      z3::expr v = c.bv_const(("op" + std::to_string(i) + "_" + std::to_string(n++)).c_str(), f.width);
      e.word = e.word | placeTerm(f, v);
      e.inputs.push_back(v);
      e.fields.push_back({f, v});
    }
  }
  return e;
}

// The rows the decoder tries for words with `d`'s major opcode (every row
// fixes bits 31-26; a test below checks it), in table order.
std::vector<const InstrDesc*> bucket(const std::vector<const InstrDesc*>& order, const InstrDesc& d) {
  std::vector<const InstrDesc*> out;
  for (const InstrDesc* r : order)
    if ((r->match >> 26) == (d.match >> 26)) out.push_back(r);
  return out;
}

// "The first row of `order` that accepts `word` has Op `op`."
z3::expr decodesToOp(const std::vector<const InstrDesc*>& order, Op op, const z3::expr& word) {
  z3::context& c = word.ctx();
  z3::expr none = c.bool_val(true);  // no earlier row accepted
  z3::expr good = c.bool_val(false);
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

TEST_CASE("each row encodes, extracts and decodes to itself or an alias, for all fields",
          "[encoder_roundtrip_proof]") {
  z3::context c;
  size_t proved = 0;
  for (Isa isa : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6}) {
    auto order = decodeOrder(isa);
    for (const InstrDesc& d : instructionTable()) {
      if (!(d.isas & bit(isa))) continue;
      INFO(std::string(name(isa)) << " row '" << d.mnemonic << "' match 0x" << std::hex << d.match);
      Encoded e = encode(d, c);
      z3::expr claim = decodesToOp(bucket(order, d), d.op, e.word);
      if (!(d.flags & kAsmOnly)) {
        claim = claim && (e.word & c.bv_val(d.mask(), 32)) == c.bv_val(d.match, 32);
        for (auto& [f, v] : e.fields)
          for (unsigned p = 0; p < f.shifts.size(); ++p) claim = claim && extractTerm(f, p, e.word) == v;
      }
      z3::solver s(c);
      s.add(ruleTerm(d.rule, e.word));
      s.add(!claim);
      z3::check_result r = s.check();
      if (r == z3::sat) FAIL("counterexample: " << counterexample(s, e));
      REQUIRE(r == z3::unsat);
      ++proved;
    }
  }
  // Every row of the table, once per ISA it exists in.
  size_t expected = 0;
  for (const InstrDesc& d : instructionTable())
    for (Isa isa : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6})
      expected += (d.isas & bit(isa)) != 0;
  CHECK(proved == expected);
  CHECK(proved > 600);
}

TEST_CASE("no row's fixed bits overlap its operand fields", "[encoder_roundtrip_proof]") {
  for (const InstrDesc& d : instructionTable()) {
    INFO("row '" << d.mnemonic << "'");
    CHECK((d.match & ~d.mask()) == 0);
    CHECK((d.mask() & 0xfc000000u) == 0xfc000000u);  // the decoder buckets by major opcode
    // Operand fields of one row are disjoint (else extraction could not
    // give every field back, which the proof above also shows).
    uint32_t seen = 0;
    for (unsigned i = 0; i < d.operandCount(); ++i) {
      CHECK((seen & operandBits(d.operands[i])) == 0);
      seen |= operandBits(d.operands[i]);
    }
  }
}

TEST_CASE("the Z3 layout is the concrete layout", "[encoder_roundtrip_proof]") {
  z3::context c;
  for (unsigned k = 0; k < kOpndKinds; ++k) {
    Opnd kind = Opnd(k);
    INFO("operand kind " << k);
    uint32_t covered = 0;
    auto fields = fieldsOf(kind);
    bool hasRegister = placeRegister(kind, 31) != 0;  // then it is field 0
    for (size_t fi = 0; fi < fields.size(); ++fi) {
      const Field& f = fields[fi];
      for (unsigned b = 0; b < f.width; ++b) {
        // One bit at a time: the term places it where the concrete helper does.
        uint32_t term = placeTerm(f, c.bv_val(uint64_t(1) << b, f.width)).simplify().get_numeral_uint();
        uint32_t concrete = fi == 0 && hasRegister ? placeRegister(kind, 1u << b)
                                                   : placeImmediate(kind, uint64_t(1) << b);
        CHECK(term == concrete);
        covered |= term;
      }
    }
    CHECK(covered == operandBits(kind));
  }
}

TEST_CASE("ruleTerm is satisfiesRule on every rs, rt pair", "[encoder_roundtrip_proof]") {
  z3::context c;
  for (FieldRule r : {FieldRule::None, FieldRule::RsZero, FieldRule::RsNonZero,
                      FieldRule::RsZeroRtNonZero, FieldRule::RsEqRtNonZero,
                      FieldRule::RsNeRtBothNonZero, FieldRule::RsGeRt,
                      FieldRule::RsNonZeroRsLtRt, FieldRule::RtNotRa}) {
    size_t disagree = 0;
    for (uint32_t s = 0; s < 32; ++s)
      for (uint32_t t = 0; t < 32; ++t) {
        uint32_t w = (s << 21) | (t << 16);
        bool term = ruleTerm(r, c.bv_val(w, 32)).simplify().is_true();
        disagree += term != satisfiesRule(r, w);
      }
    CHECK(disagree == 0);
  }
}
