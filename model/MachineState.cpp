#include "model/MachineState.h"

#include <stdexcept>

#include "encoder/mips/Registers.h"

namespace patchcheck::mips {
namespace {

std::array<z3::expr, 32> zeroRegisters(z3::context& c, unsigned bits) {
  return {c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits)};
}

}  // namespace

MachineState::MachineState(z3::context& c, const Target& t)
    : ctx(c),
      target(t),
      gpr(zeroRegisters(c, t.gprBits())),
      hi(c.bv_val(0, t.gprBits())),
      lo(c.bv_val(0, t.gprBits())),
      memory(z3::const_array(c.bv_sort(64), c.bv_val(0, 8))),
      llbit(c.bool_val(false)) {}

std::string_view name(EffectKind k) {
  switch (k) {
    case EffectKind::Barrier: return "barrier";
    case EffectKind::Cp0Read: return "cp0-read";
    case EffectKind::Cp0Write: return "cp0-write";
    case EffectKind::InterruptEnable: return "interrupt-enable";
    case EffectKind::CacheOp: return "cache";
    case EffectKind::Tlb: return "tlb";
    case EffectKind::Eret: return "eret";
    case EffectKind::Wait: return "wait";
    case EffectKind::Other: return "other";
  }
  return "other";
}

MachineState& MachineState::operator=(const MachineState& o) {
  if (&ctx != &o.ctx) throw std::logic_error("MachineState: assignment across Z3 contexts");
  target = o.target;
  gpr = o.gpr;
  hi = o.hi;
  lo = o.lo;
  memory = o.memory;
  effects = o.effects;
  llbit = o.llbit;
  freshCount = o.freshCount;
  concrete = o.concrete;
  stored = o.stored;
  storedSinceBoundary = o.storedSinceBoundary;
  boundarySp = o.boundarySp;
  havocCount = o.havocCount;
  valuesFrom = o.valuesFrom;
  return *this;
}

MachineState MachineState::symbolic(z3::context& c, const Target& t, const std::string& prefix) {
  MachineState s(c, t);
  unsigned w = t.gprBits();
  for (unsigned r = 1; r < 32; ++r)
    s.gpr[r] = c.bv_const((prefix + std::string(gprName(r, t.abi))).c_str(), w);
  if (!t.isR6()) {
    s.hi = c.bv_const((prefix + "hi").c_str(), w);
    s.lo = c.bv_const((prefix + "lo").c_str(), w);
  }
  s.memory = c.constant((prefix + "mem").c_str(), c.array_sort(c.bv_sort(64), c.bv_sort(8)));
  s.llbit = c.bool_const((prefix + "llbit").c_str());
  return s;
}

void MachineState::setReg(unsigned r, const z3::expr& v) {
  r &= 31;
  if (r == 0) return;
  gpr[r] = v;
}

z3::expr MachineState::address(const z3::expr& v) const {
  return target.is64() ? v : z3::sext(v, 32);
}

z3::expr MachineState::fromAddress(const z3::expr& a) const {
  return target.is64() ? a : a.extract(31, 0);
}

z3::expr MachineState::normalize(const z3::expr& a) const {
  return target.is64() ? a : z3::sext(a.extract(31, 0), 32);
}

z3::expr MachineState::advance(const z3::expr& addr64, uint64_t bytes) const {
  uint64_t v = 0;
  if (addr64.is_numeral() && addr64.is_numeral_u64(v)) {  // the common, concrete case
    v += bytes;
    if (!target.is64()) v = uint64_t(int64_t(int32_t(uint32_t(v))));
    return ctx.bv_val(v, 64);
  }
  return normalize(addr64 + ctx.bv_val(bytes, 64)).simplify();
}

// select(store(m, i, v), j) = v if i = j, else select(m, j): applied here
// when both indexes are numerals, so loads from concrete addresses do not
// drag the whole store history into every term (and concrete runs stay fast).
z3::expr MachineState::loadByte(const z3::expr& addr64) const {
  z3::expr a = addr64.is_numeral() ? addr64 : addr64.simplify();
  if (!a.is_numeral()) return z3::select(memory, a);
  // Walk the store chain with the C API: numerals are hash-consed, so equal
  // indexes are the same AST; the subterms stay alive through `memory`.
  Z3_context zc = ctx;
  Z3_ast m = memory;
  while (Z3_get_ast_kind(zc, m) == Z3_APP_AST) {
    Z3_app app = Z3_to_app(zc, m);
    Z3_decl_kind k = Z3_get_decl_kind(zc, Z3_get_app_decl(zc, app));
    if (k == Z3_OP_CONST_ARRAY) return z3::to_expr(ctx, Z3_get_app_arg(zc, app, 0));
    if (k != Z3_OP_STORE) break;
    Z3_ast index = Z3_get_app_arg(zc, app, 1);
    if (Z3_is_eq_ast(zc, index, a)) return z3::to_expr(ctx, Z3_get_app_arg(zc, app, 2));
    if (!Z3_is_numeral_ast(zc, index)) break;
    m = Z3_get_app_arg(zc, app, 0);
  }
  return z3::select(z3::to_expr(ctx, m), a);
}

z3::expr MachineState::load(const z3::expr& addr64, unsigned bytes) const {
  // Big endian: the byte at the lowest address is the most significant.
  z3::expr base = addr64.simplify();
  uint64_t numeric = 0;
  bool known = base.is_numeral() && base.is_numeral_u64(numeric);
  z3::expr value = loadByte(base);
  for (unsigned i = 1; i < bytes; ++i) {
    z3::expr b = loadByte(known ? ctx.bv_val(numeric + i, 64) : base + ctx.bv_val(i, 64));
    value = target.endian == Endian::Big ? z3::concat(value, b) : z3::concat(b, value);
  }
  return value;
}

void MachineState::store(const z3::expr& addr64, const z3::expr& value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) {
    unsigned byte = target.endian == Endian::Big ? bytes - 1 - i : i;  // significance of byte i
    z3::expr at = (addr64 + ctx.bv_val(i, 64)).simplify();
    memory = z3::store(memory, at, value.extract(8 * byte + 7, 8 * byte));
    stored.push_back(at);
    storedSinceBoundary.push_back(at);
  }
}

z3::expr MachineState::fresh(const std::string& what, unsigned bits) {
  std::string n = what + "#" + std::to_string(++freshCount);
  return bits == 0 ? ctx.bool_const(n.c_str()) : ctx.bv_const(n.c_str(), bits);
}

z3::expr MachineState::havoc(const std::string& what, unsigned bits) {
  std::string n = what + "@" + std::to_string(++havocCount);
  z3::expr v = bits == 0 ? ctx.bool_const(n.c_str()) : ctx.bv_const(n.c_str(), bits);
  return valuesFrom ? valuesFrom->eval(v, true) : v;
}

MachineState MachineState::evaluatedIn(const z3::model& m) const {
  MachineState out = *this;
  for (unsigned r = 1; r < 32; ++r) out.gpr[r] = m.eval(gpr[r], true);
  out.hi = m.eval(hi, true);
  out.lo = m.eval(lo, true);
  out.memory = m.eval(memory, true);
  out.llbit = m.eval(llbit, true);
  for (auto* list : {&out.stored, &out.storedSinceBoundary})
    for (z3::expr& a : *list) a = m.eval(a, true);
  if (out.boundarySp) out.boundarySp = m.eval(*out.boundarySp, true);
  out.concrete = true;
  out.valuesFrom = &m;
  return out;
}

}  // namespace patchcheck::mips
