#include "model/MachineState.h"

#include <stdexcept>

#include "model/Fault.h"
#include "model/IsaModel.h"

namespace patchcheck {

MachineState::MachineState(z3::context& c, const Target& t)
    : ctx(c),
      target(t),
      memory(z3::const_array(c.bv_sort(64), c.bv_val(0, 8))),
      bits_(t.registerBits()),
      zeroRegister_(-1) {
  const std::vector<RegisterInfo>& file = modelOf(t).registers(t);
  regs.reserve(file.size());
  for (size_t r = 0; r < file.size(); ++r) {
    regs.push_back(file[r].bits == 0 ? c.bool_val(false) : c.bv_val(0, file[r].bits));
    if (file[r].zero) zeroRegister_ = int(r);
  }
}

std::string_view name(EffectKind k) {
  switch (k) {
    case EffectKind::Barrier: return "barrier";
    case EffectKind::SystemRead: return "cp0-read";
    case EffectKind::SystemWrite: return "cp0-write";
    case EffectKind::InterruptEnable: return "interrupt-enable";
    case EffectKind::CacheOp: return "cache";
    case EffectKind::Tlb: return "tlb";
    case EffectKind::ExceptionReturn: return "eret";
    case EffectKind::Wait: return "wait";
    case EffectKind::Other: return "other";
  }
  return "other";
}

std::string_view name(FaultKind k) {
  switch (k) {
    case FaultKind::ReservedInstruction: return "reserved instruction";
    case FaultKind::Unpredictable: return "UNPREDICTABLE";
    case FaultKind::AddressError: return "address error";
    case FaultKind::IntegerOverflow: return "integer overflow";
    case FaultKind::Trap: return "trap";
    case FaultKind::Break: return "break";
    case FaultKind::Syscall: return "syscall";
    case FaultKind::DebugBreak: return "debug breakpoint";
    case FaultKind::Eret: return "eret";
    case FaultKind::Wait: return "wait";
    case FaultKind::BranchTarget: return "branch target (BTI)";
  }
  return "?";
}

MachineState& MachineState::operator=(const MachineState& o) {
  if (&ctx != &o.ctx) throw std::logic_error("MachineState: assignment across Z3 contexts");
  target = o.target;
  regs = o.regs;
  memory = o.memory;
  effects = o.effects;
  freshCount = o.freshCount;
  concrete = o.concrete;
  stored = o.stored;
  loaded = o.loaded;
  storedSinceBoundary = o.storedSinceBoundary;
  boundarySp = o.boundarySp;
  havocCount = o.havocCount;
  valuesFrom = o.valuesFrom;
  overlay = o.overlay;
  overlayReads = o.overlayReads;
  bits_ = o.bits_;
  zeroRegister_ = o.zeroRegister_;
  return *this;
}

MachineState MachineState::symbolic(z3::context& c, const Target& t, const std::string& prefix) {
  MachineState s(c, t);
  const std::vector<RegisterInfo>& file = modelOf(t).registers(t);
  for (size_t r = 0; r < file.size(); ++r) {
    if (!file[r].unknownAtEntry) continue;
    std::string n = prefix + file[r].name;
    s.regs[r] = file[r].bits == 0 ? c.bool_const(n.c_str()) : c.bv_const(n.c_str(), file[r].bits);
  }
  s.memory = c.constant((prefix + "mem").c_str(), c.array_sort(c.bv_sort(64), c.bv_sort(8)));
  return s;
}

void MachineState::setReg(unsigned r, const z3::expr& v) {
  if (int(r) == zeroRegister_) return;
  regs[r] = v;
}

z3::expr MachineState::address(const z3::expr& v) const {
  return bits_ == 64 ? v : z3::sext(v, 32);
}

z3::expr MachineState::fromAddress(const z3::expr& a) const {
  return bits_ == 64 ? a : a.extract(31, 0);
}

z3::expr MachineState::normalize(const z3::expr& a) const {
  return bits_ == 64 ? a : z3::sext(a.extract(31, 0), 32);
}

z3::expr MachineState::advance(const z3::expr& addr64, uint64_t bytes) const {
  uint64_t v = 0;
  if (addr64.is_numeral() && addr64.is_numeral_u64(v)) {  // the common, concrete case
    v += bytes;
    if (bits_ != 64) v = uint64_t(int64_t(int32_t(uint32_t(v))));
    return ctx.bv_val(v, 64);
  }
  return normalize(addr64 + ctx.bv_val(bytes, 64)).simplify();
}

// select(store(m, i, v), j) = v if i = j, else select(m, j): applied here
// where i and j surely differ, two numerals or one base at two offsets
// (a frame's bytes, sp + k), so loads do not drag the store history into
// every term and concrete runs stay fast. The simplifier would do the
// same, but on the whole chain, its stored values too, at every load.
z3::expr MachineState::loadByte(const z3::expr& addr64) const {
  z3::expr a = addr64.is_numeral() ? addr64 : addr64.simplify();
  Z3_context zc = ctx;
  // An index as base + k: (bvadd k B) as the simplifier writes it, or
  // itself with k = 0 (a numeral is its own base).
  auto split = [zc](Z3_ast i, Z3_ast& base, uint64_t& k) {
    base = i;
    k = 0;
    if (Z3_get_ast_kind(zc, i) != Z3_APP_AST) return;
    Z3_app app = Z3_to_app(zc, i);
    if (Z3_get_decl_kind(zc, Z3_get_app_decl(zc, app)) != Z3_OP_BADD || Z3_get_app_num_args(zc, app) != 2) return;
    Z3_ast first = Z3_get_app_arg(zc, app, 0);
    if (Z3_is_numeral_ast(zc, first) && Z3_get_numeral_uint64(zc, first, &k)) base = Z3_get_app_arg(zc, app, 1);
  };
  Z3_ast aBase = nullptr, iBase = nullptr;
  uint64_t aK = 0, iK = 0;
  split(a, aBase, aK);
  bool aNumeral = Z3_is_numeral_ast(zc, a);
  // The subterms stay alive through `memory`.
  Z3_ast m = memory;
  while (Z3_get_ast_kind(zc, m) == Z3_APP_AST) {
    Z3_app app = Z3_to_app(zc, m);
    Z3_decl_kind k = Z3_get_decl_kind(zc, Z3_get_app_decl(zc, app));
    if (k == Z3_OP_CONST_ARRAY) return z3::to_expr(ctx, Z3_get_app_arg(zc, app, 0));
    if (k != Z3_OP_STORE) break;
    Z3_ast index = Z3_get_app_arg(zc, app, 1);
    if (Z3_is_eq_ast(zc, index, a)) return z3::to_expr(ctx, Z3_get_app_arg(zc, app, 2));
    bool apart = aNumeral && Z3_is_numeral_ast(zc, index);  // numerals are hash-consed: not the same AST, not equal
    if (!apart) {
      split(index, iBase, iK);
      apart = Z3_is_eq_ast(zc, iBase, aBase) && iK != aK;
    }
    if (!apart) break;
    m = Z3_get_app_arg(zc, app, 0);
  }
  return z3::select(z3::to_expr(ctx, m), a);
}

namespace {

// Bytes in address order as one value in the target's byte order (big
// endian: the byte at the lowest address is the most significant).
z3::expr joined(const std::vector<z3::expr>& bytes, Endian e) {
  z3::expr value = bytes[0];
  for (size_t i = 1; i < bytes.size(); ++i)
    value = e == Endian::Big ? z3::concat(value, bytes[i]) : z3::concat(bytes[i], value);
  return value;
}

// Is the access of `bytes` bytes at `a` naturally aligned? Only a power of
// two up to 8 can be.
z3::expr naturallyAligned(const z3::expr& a, unsigned bytes) {
  z3::context& c = a.ctx();
  if (bytes == 1) return c.bool_val(true);
  if (bytes > 8 || (bytes & (bytes - 1))) return c.bool_val(false);
  return (a & c.bv_val(uint64_t(bytes - 1), 64)) == c.bv_val(0, 64);
}

// Does a store to `a` land in the unit?
z3::expr within(const z3::expr& a, const OverlayUnit& u, unsigned length) {
  return z3::ult(a - u.address, a.ctx().bv_val(uint64_t(length), 64));
}

}  // namespace

std::vector<z3::expr> MachineState::loadBytes(const z3::expr& addr64, unsigned bytes) const {
  z3::expr base = addr64.simplify();
  uint64_t numeric = 0;
  bool known = base.is_numeral() && base.is_numeral_u64(numeric);
  std::vector<z3::expr> out;
  for (unsigned i = 0; i < bytes; ++i)
    out.push_back(loadByte(i == 0 ? base : known ? ctx.bv_val(numeric + i, 64) : base + ctx.bv_val(i, 64)));
  return out;
}

z3::expr MachineState::peek(const z3::expr& addr64, unsigned bytes) const {
  return joined(loadBytes(addr64, bytes), target.endian);
}

z3::expr MachineState::load(const z3::expr& addr64, unsigned bytes) {
  loaded.push_back(addr64);
  std::vector<z3::expr> out = loadBytes(addr64, bytes);
  if (!overlay) return joined(out, target.endian);
  z3::expr base = addr64.simplify();
  for (const OverlayUnit& u : overlay->units) {
    unsigned length = unsigned(u.versions.front().size());
    // One choice per load and unit when both the unit (the writer's store)
    // and the load are naturally aligned: each is then single-copy atomic
    // (Arm ARM B2.2.1; MIPS and x86 give no less), so the load's bytes come
    // from one version. Otherwise either access may be split, and each byte
    // is chosen on its own (`torn`).
    const unsigned n = unsigned(u.versions.size());
    std::optional<z3::expr> pick;
    unsigned bits = 1;
    if (n > 1) {
      while ((1u << bits) < n) ++bits;
      pick = havoc("version of " + u.name, bits);
    }
    // Each byte's own choice, made for every load (as `pick` is), so that a
    // concrete replay, where alignment and overlap are numerals, names its
    // later havoc values as the symbolic run did.
    std::vector<z3::expr> ownChoice;
    for (unsigned k = 0; pick && k < length; ++k)
      ownChoice.push_back(havoc("version of " + u.name + " byte " + std::to_string(k), bits));
    std::optional<z3::expr> torn;
    std::vector<z3::expr> byteOfPick;  // the version byte k of the unit comes from
    auto prepareTear = [&] {
      if (torn || !pick) return;
      torn = (!naturallyAligned(u.address, length) || !naturallyAligned(base, bytes)).simplify();
      for (unsigned k = 0; k < length; ++k)
        byteOfPick.push_back(torn->is_false() ? *pick : z3::ite(*torn, ownChoice[k], *pick));
    };
    z3::expr touched = ctx.bool_val(false);
    // Bytes this CPU stored there itself: it may read its own store.
    z3::expr mine = ctx.bool_val(false);
    for (const z3::expr& a : stored) mine = mine || within(a, u, length);
    mine = mine.simplify();
    std::optional<z3::expr> own;
    if (!mine.is_false()) own = mine && havoc("own store in " + u.name, 0);
    for (unsigned i = 0; i < bytes; ++i) {
      z3::expr at = (base + ctx.bv_val(i, 64)).simplify();
      z3::expr offset = (at - u.address).simplify();
      z3::expr inside = z3::ult(offset, ctx.bv_val(uint64_t(length), 64)).simplify();
      if (inside.is_false()) continue;
      touched = touched || inside;
      prepareTear();
      // The byte at `offset` of the chosen version.
      z3::expr byte = out[i];
      for (unsigned k = length; k-- > 0;) {
        z3::expr ofVersion = u.versions[n - 1][k];
        for (unsigned v = n - 1; v-- > 0;) ofVersion = z3::ite(byteOfPick[k] == ctx.bv_val(v, bits), u.versions[v][k], ofVersion);
        byte = k + 1 == length ? ofVersion : z3::ite(offset == ctx.bv_val(uint64_t(k), 64), ofVersion, byte);
      }
      byte = z3::ite(inside, byte, out[i]);
      if (own) byte = z3::ite(*own, out[i], byte);
      out[i] = valuesFrom ? valuesFrom->eval(byte, true) : byte.simplify();
    }
    touched = touched.simplify();
    if (!touched.is_false())
      overlayReads.push_back({u.name, touched, pick ? *pick : ctx.bv_val(0, 1), u.versionNames,
                              torn ? *torn : ctx.bool_val(false)});
  }
  return joined(out, target.endian);
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
  for (z3::expr& r : out.regs) r = m.eval(r, true);
  out.memory = m.eval(memory, true);
  for (auto* list : {&out.stored, &out.storedSinceBoundary})
    for (z3::expr& a : *list) a = m.eval(a, true);
  if (out.boundarySp) out.boundarySp = m.eval(*out.boundarySp, true);
  out.concrete = true;
  out.valuesFrom = &m;
  return out;
}

}  // namespace patchcheck
