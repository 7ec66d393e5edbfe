// The meaning of every row of the A64 table as Z3 terms, after the Arm
// ARM's pseudocode (DDI 0487, C6: AddWithCarry, ConditionHolds,
// DecodeBitMasks, ExtendReg, ShiftReg, the load/store forms). Where the
// architecture leaves a choice (CONSTRAINED UNPREDICTABLE writeback, a
// system register's value) the model faults or takes a fresh value; it
// never picks the convenient outcome. docs/model-arm64.md says what is
// modelled and why.
#include "model/arm64/Semantics.h"

#include <string>

#include "encoder/arm64/Bitmask.h"
#include "encoder/arm64/Printer.h"
#include "encoder/arm64/SystemNames.h"

namespace patchcheck::arm64 {

z3::expr Fetched::field(BitField f) const {
  z3::context& c = word.ctx();
  if (word.is_numeral()) return c.bv_val(f.of(bits), f.width);
  return word.extract(f.shift + f.width - 1, f.shift).simplify();
}

z3::expr acceptsBranchType(const Fetched& f, const z3::expr& btype) {
  z3::context& c = btype.ctx();
  auto is = [&](unsigned v) { return btype == c.bv_val(v, 2); };
  z3::expr none = is(kBtypeNone);
  if (!f.desc || f.desc->op != Op::Hint) return none;
  switch ((f.bits >> 5) & 0x7f) {
    case 32: return none;                                         // bti
    case 34: case 25: case 27: return !is(kBtypeBr);              // bti c, paciasp, pacibsp
    case 36: return !is(kBtypeBlr);                               // bti j
    case 38: return c.bool_val(true);                             // bti jc
    default: return none;
  }
}

namespace {

// DC ZVA zeroes a block of 4 << DCZID_EL0.BS bytes: 64 on every Arm core
// Linux runs on and in QEMU (BS = 4); docs/model-arm64.md.
constexpr unsigned kZvaBytes = 64;

class Execution {
 public:
  Execution(MachineState& s, const Fetched& f, const z3::expr& pc)
      : s_(s), f_(f), pc_(pc), c_(s.ctx),
        effect_{Control{Control::Kind::None, c_.bool_val(false), pc, false, false}, {}} {}

  StepEffect run();

 private:
  MachineState& s_;
  const Fetched& f_;
  const z3::expr& pc_;
  z3::context& c_;
  StepEffect effect_;
  unsigned btype_ = kBtypeNone;  // BTYPE for the next instruction

  uint32_t bits() const { return f_.bits; }
  bool sf() const { return bits() >> 31; }  // 64-bit data processing
  unsigned rd() const { return rdOf(bits()); }
  unsigned rn() const { return rnOf(bits()); }
  unsigned rm() const { return rmOf(bits()); }
  unsigned rt2() const { return rt2Of(bits()); }
  z3::expr bv(uint64_t v, unsigned w) const { return c_.bv_val(v, w); }
  std::string text() const { return disassemble(bits(), 0); }

  // --- registers: 31 is sp or the zero register as the encoding says
  z3::expr X(unsigned r, bool sp = false) const {
    if (r == 31 && !sp) return bv(0, 64);
    return s_.reg(r);
  }
  z3::expr R(unsigned r, bool wide, bool sp = false) const {
    z3::expr v = X(r, sp);
    return wide ? v : v.extract(31, 0);
  }
  // A W write zeroes bits 63..32; a write to the zero register is dropped.
  void set(unsigned r, const z3::expr& v, bool sp = false) {
    if (r == 31 && !sp) return;
    z3::expr w = v.get_sort().bv_size() == 64 ? v : z3::zext(v, 64 - v.get_sort().bv_size());
    s_.setReg(r, w.simplify());
  }
  void setFlags(const z3::expr& n, const z3::expr& z, const z3::expr& c, const z3::expr& v) {
    s_.regs[reg::n] = n.simplify();
    s_.regs[reg::z] = z.simplify();
    s_.regs[reg::c] = c.simplify();
    s_.regs[reg::v] = v.simplify();
  }

  void fault(FaultKind k, const z3::expr& when, const std::string& detail) {
    z3::expr w = when.simplify();
    if (w.is_false()) return;
    effect_.faults.push_back(Fault{k, w, detail.empty() ? text() : text() + ": " + detail});
  }
  void effect(std::string what, const z3::expr& address, EffectKind kind,
              std::optional<z3::expr> value = std::nullopt, Ordering ordering = Ordering::None) {
    s_.effects.push_back(SideEffect{std::move(what), address.simplify(), std::move(value), kind, ordering});
  }
  // dmb / dsb by their CRm option: the domain (bits 3-2) does not matter to
  // one shareable domain; the type (bits 1-0) does: 3 all, 2 stores, 1 loads.
  Ordering barrierOrdering(Op op) const {
    unsigned types = (bits() >> 8) & 3;
    if (op == Op::Isb) return Ordering::ContextSync;
    if (op == Op::Dsb) return types == 3 ? Ordering::Completion : Ordering::None;
    return types == 3 ? Ordering::Full : types == 2 ? Ordering::Stores : types == 1 ? Ordering::Loads : Ordering::None;
  }
  void transfer(const z3::expr& taken, const z3::expr& target) {
    effect_.control = Control{Control::Kind::Compact, taken.simplify(), target.simplify(), false, false};
  }

  // --- operands
  z3::expr signedField(BitField f, unsigned width) const {
    z3::expr v = f_.field(f);
    return f.width == width ? v : z3::sext(v, width - f.width);
  }
  z3::expr unsignedField(BitField f, unsigned width) const {
    z3::expr v = f_.field(f);
    return f.width == width ? v : z3::zext(v, width - f.width);
  }
  z3::expr pcPlus(const z3::expr& offset64) const { return (pc_ + offset64).simplify(); }
  // A label operand: the word offset scaled to bytes.
  z3::expr labelTarget(Opnd k) const {
    return pcPlus(z3::shl(signedField(layoutOf(k).fields[0], 64), bv(2, 64)));
  }
  // ShiftReg: lsl, lsr, asr, ror by a concrete amount.
  z3::expr shifted(const z3::expr& v, unsigned type, unsigned amount) const {
    unsigned w = v.get_sort().bv_size();
    if (amount == 0) return v;
    switch (type) {
      case 0: return z3::shl(v, bv(amount, w));
      case 1: return z3::lshr(v, bv(amount, w));
      case 2: return z3::ashr(v, bv(amount, w));
      default: return z3::lshr(v, bv(amount, w)) | z3::shl(v, bv(w - amount, w));
    }
  }
  // ExtendReg: the register extended from its low 8/16/32/64 bits, then
  // shifted left, at `width` bits.
  z3::expr extended(unsigned r, unsigned option, unsigned shift, unsigned width) const {
    z3::expr x = X(r);
    unsigned from = 8u << (option & 3);
    z3::expr part = from == 64 ? x : x.extract(from - 1, 0);
    z3::expr v = from >= width ? part.extract(width - 1, 0)
                 : (option & 4) ? z3::sext(part, width - from)
                                : z3::zext(part, width - from);
    return shift ? z3::shl(v, bv(shift, width)) : v;
  }
  // AddWithCarry: the sum and its NZCV.
  z3::expr addWithCarry(const z3::expr& x, const z3::expr& y, bool carry, bool setFlagsToo) {
    unsigned w = x.get_sort().bv_size();
    z3::expr wide = z3::zext(x, 1) + z3::zext(y, 1) + bv(carry ? 1 : 0, w + 1);
    z3::expr result = wide.extract(w - 1, 0);
    if (setFlagsToo) {
      z3::expr sx = x.extract(w - 1, w - 1), sy = y.extract(w - 1, w - 1), sr = result.extract(w - 1, w - 1);
      setFlags(sr == bv(1, 1), result == bv(0, w), wide.extract(w, w) == bv(1, 1), sx == sy && sr != sx);
    }
    return result;
  }
  void logicalFlags(const z3::expr& result) {
    unsigned w = result.get_sort().bv_size();
    setFlags(result.extract(w - 1, w - 1) == bv(1, 1), result == bv(0, w), c_.bool_val(false),
             c_.bool_val(false));
  }
  // ConditionHolds(cond) on the current flags.
  z3::expr conditionHolds(unsigned cond) const {
    const z3::expr &n = s_.reg(reg::n), &z = s_.reg(reg::z), &c = s_.reg(reg::c), &v = s_.reg(reg::v);
    z3::expr r = c_.bool_val(true);
    switch (cond >> 1) {
      case 0: r = z; break;
      case 1: r = c; break;
      case 2: r = n; break;
      case 3: r = v; break;
      case 4: r = c && !z; break;
      case 5: r = n == v; break;
      case 6: r = n == v && !z; break;
      default: r = c_.bool_val(true); break;
    }
    if ((cond & 1) && cond != 15) r = !r;
    return r;
  }

  void moveWide(Op op);
  void addSubImmediate(Op op);
  void addSubShifted(Op op);
  void addSubExtended(Op op);
  void logicalImmediate(Op op);
  void logicalShifted(Op op);
  void conditionalSelect(Op op);
  void hint();
  void pointerAuthentication(unsigned dest, const z3::expr& modifier, bool keyB);
  void loadStore(Op op);
  void loadStorePair(Op op);
  void systemRegisterAccess(Op op);
  void cacheMaintenance(Op op);
  void requireSpAligned(unsigned base);
};

void Execution::moveWide(Op op) {
  bool wide = sf();
  unsigned w = wide ? 64 : 32;
  unsigned hw = (bits() >> 21) & 3;
  z3::expr imm = z3::shl(unsignedField({5, 16}, w), bv(16 * hw, w));
  switch (op) {
    case Op::Movz: set(rd(), imm); break;
    case Op::Movn: set(rd(), ~imm); break;
    default: {  // movk: the other halfwords keep their value
      z3::expr keep = bv(~(uint64_t(0xffff) << (16 * hw)) & (wide ? ~uint64_t(0) : 0xffffffffull), w);
      set(rd(), (R(rd(), wide) & keep) | imm);
      break;
    }
  }
}

// add/adds/sub/subs #imm12{, lsl #12}: Rn is sp-capable; Rd too unless
// the flags are set (then 31 is the zero register: cmp, cmn).
void Execution::addSubImmediate(Op op) {
  bool wide = sf(), flags = op == Op::AddsImm || op == Op::SubsImm, sub = op == Op::SubImm || op == Op::SubsImm;
  unsigned w = wide ? 64 : 32;
  z3::expr imm = unsignedField({10, 12}, w);
  if ((bits() >> 22) & 1) imm = z3::shl(imm, bv(12, w));
  z3::expr a = R(rn(), wide, true);
  z3::expr r = sub ? addWithCarry(a, ~imm, true, flags) : addWithCarry(a, imm, false, flags);
  set(rd(), r, !flags);
}

void Execution::addSubShifted(Op op) {
  bool wide = sf(), flags = op == Op::Adds || op == Op::Subs, sub = op == Op::Sub || op == Op::Subs;
  unsigned amount = (bits() >> 10) & 63;
  z3::expr b = shifted(R(rm(), wide), (bits() >> 22) & 3, amount);
  z3::expr a = R(rn(), wide);
  set(rd(), sub ? addWithCarry(a, ~b, true, flags) : addWithCarry(a, b, false, flags));
}

void Execution::addSubExtended(Op op) {
  bool wide = sf(), flags = op == Op::AddsExt || op == Op::SubsExt, sub = op == Op::SubExt || op == Op::SubsExt;
  unsigned w = wide ? 64 : 32;
  z3::expr b = extended(rm(), (bits() >> 13) & 7, (bits() >> 10) & 7, w);
  z3::expr a = R(rn(), wide, true);
  z3::expr r = sub ? addWithCarry(a, ~b, true, flags) : addWithCarry(a, b, false, flags);
  set(rd(), r, !flags);
}

// and/orr/eor #bitmask write sp when Rd is 31; ands writes the zero register.
void Execution::logicalImmediate(Op op) {
  bool wide = sf();
  unsigned w = wide ? 64 : 32;
  auto mask = decodeBitmask((bits() >> 10) & 0x1fff, w);
  if (!mask) {  // the row's rule admits only valid masks
    fault(FaultKind::ReservedInstruction, c_.bool_val(true), "reserved logical immediate");
    return;
  }
  z3::expr imm = bv(*mask, w), a = R(rn(), wide);
  switch (op) {
    case Op::AndImm: set(rd(), a & imm, true); break;
    case Op::OrrImm: set(rd(), a | imm, true); break;
    case Op::EorImm: set(rd(), a ^ imm, true); break;
    default: {
      z3::expr r = a & imm;
      logicalFlags(r);
      set(rd(), r);
      break;
    }
  }
}

void Execution::logicalShifted(Op op) {
  bool wide = sf();
  z3::expr b = shifted(R(rm(), wide), (bits() >> 22) & 3, (bits() >> 10) & 63);
  if (op == Op::Bic || op == Op::Orn || op == Op::Eon || op == Op::Bics) b = ~b;
  z3::expr a = R(rn(), wide);
  z3::expr r = op == Op::And || op == Op::Bic || op == Op::Ands || op == Op::Bics ? a & b
               : op == Op::Orr || op == Op::Orn                                    ? a | b
                                                                                   : a ^ b;
  if (op == Op::Ands || op == Op::Bics) logicalFlags(r);
  set(rd(), r);
}

// csel, csinc, csinv, csneg: Rd = cond ? Rn : Rm, Rm + 1, NOT Rm or -Rm
// (register 31 is the zero register). The aliases (cset, cinc, cneg, ...)
// are these encodings with Rn = Rm and the condition inverted, so the
// fields say everything; al and nv select Rn.
void Execution::conditionalSelect(Op op) {
  bool wide = sf();
  z3::expr a = R(rn(), wide), b = R(rm(), wide);
  switch (op) {
    case Op::Csinc: b = b + bv(1, wide ? 64 : 32); break;
    case Op::Csinv: b = ~b; break;
    case Op::Csneg: b = -b; break;
    default: break;  // csel
  }
  set(rd(), z3::ite(conditionHolds((bits() >> 12) & 15), a, b));
}

// Pointer authentication, modelled so that signing and authenticating
// with the same key and modifier is the identity and nothing else is
// known: PAC(x, m) = x ^ K(m), AUT(x, m) = x ^ K(m), with K an unknown
// function per key. An AUT of a value the matching PAC did not sign gives
// an unknown value (real hardware: a corrupted pointer or, with FEAT_FPAC,
// a fault), so no proof relies on it.
void Execution::pointerAuthentication(unsigned dest, const z3::expr& modifier, bool keyB) {
  z3::sort b64 = c_.bv_sort(64);
  z3::func_decl key = c_.function(keyB ? "pac.apib" : "pac.apia", b64, b64);
  set(dest, X(dest) ^ key(modifier));
}

void Execution::hint() {
  unsigned n = (bits() >> 5) & 0x7f;
  switch (n) {
    case 2: case 3:  // wfe, wfi
      effect(n == 2 ? "wfe" : "wfi", pc_, EffectKind::Wait);
      fault(FaultKind::Wait, c_.bool_val(true), "");
      return;
    case 7:  // xpaclri: strips a code from x30; which bits is unknown here
      set(reg::lr, s_.fresh("xpaclri.x30", 64));
      return;
    case 8: case 12: pointerAuthentication(17, X(16), false); return;   // pacia1716, autia1716
    case 10: case 14: pointerAuthentication(17, X(16), true); return;   // pacib1716, autib1716
    case 24: case 28: pointerAuthentication(reg::lr, bv(0, 64), false); return;  // paciaz, autiaz
    case 26: case 30: pointerAuthentication(reg::lr, bv(0, 64), true); return;   // pacibz, autibz
    case 25: case 29: pointerAuthentication(reg::lr, X(reg::sp, true), false); return;  // paciasp, autiasp
    case 27: case 31: pointerAuthentication(reg::lr, X(reg::sp, true), true); return;   // pacibsp, autibsp
    case 40:  // chkfeat x16 (FEAT_CHK): clears the bits of x16 whose feature is enabled
      set(16, X(16) & ~s_.fresh("chkfeat.enabled", 64));
      return;
    default: return;  // nop, bti, yield, sev, esb, csdb, ...: no architectural effect here
  }
}

// A load or store through sp checks sp's alignment first (SCTLR_EL1.SA,
// which Linux sets): a misaligned sp raises an SP alignment fault.
void Execution::requireSpAligned(unsigned base) {
  if (base != 31) return;
  fault(FaultKind::AddressError, (s_.reg(reg::sp) & bv(15, 64)) != bv(0, 64),
        "sp is not 16-byte aligned (SP alignment fault)");
}

// ldr/str/ldrb/strb/ldrh/strh/ldrsw in every addressing mode the row's
// operand kinds name; data in the target's byte order.
void Execution::loadStore(Op op) {
  const InstrDesc& d = *f_.desc;
  bool wide = d.operands[0] == Opnd::Xt;
  unsigned rt = rdOf(bits());
  unsigned size = op == Op::Ldrb || op == Op::Strb   ? 1
                  : op == Op::Ldrh || op == Op::Strh ? 2
                  : op == Op::Ldrsw                  ? 4
                  : wide                             ? 8
                                                     : 4;
  bool load = d.flags & kLoad;
  Opnd mem = Opnd::None;
  bool literal = false;
  for (Opnd k : d.operands) {
    if (isMemoryKind(k)) mem = k;
    if (k == Opnd::Label19) literal = true;
  }
  z3::expr address = bv(0, 64);
  std::optional<z3::expr> writeback;
  if (literal) {
    address = labelTarget(Opnd::Label19);
  } else {
    requireSpAligned(rn());
    z3::expr base = X(rn(), true);
    switch (mem) {
      case Opnd::MemU12B: case Opnd::MemU12H: case Opnd::MemU12W: case Opnd::MemU12X:
        address = base + z3::shl(unsignedField({10, 12}, 64), bv(accessScale(mem), 64));
        break;
      case Opnd::MemS9: address = base + signedField({12, 9}, 64); break;
      case Opnd::MemPre9:
        address = base + signedField({12, 9}, 64);
        writeback = address;
        break;
      case Opnd::MemBase:  // post-index
        address = base;
        writeback = base + signedField({12, 9}, 64);
        break;
      case Opnd::MemRegB: case Opnd::MemRegH: case Opnd::MemRegW: case Opnd::MemRegX: {
        unsigned shift = ((bits() >> 12) & 1) ? accessScale(mem) : 0;
        address = base + extended(rm(), (bits() >> 13) & 7, shift, 64);
        break;
      }
      default:
        fault(FaultKind::ReservedInstruction, c_.bool_val(true), "addressing mode not modelled");
        return;
    }
    // Writeback to the register the access transfers: CONSTRAINED
    // UNPREDICTABLE (Arm ARM, Unpredictable_WBOVERLAPLD/ST).
    if (writeback && rn() == rt && rn() != 31)
      fault(FaultKind::Unpredictable, c_.bool_val(true),
            "writeback to the transferred register (CONSTRAINED UNPREDICTABLE)");
  }
  address = address.simplify();
  if (load) {
    z3::expr v = s_.load(address, size);
    if (writeback) set(rn(), *writeback, true);
    if (op == Op::Ldrsw) set(rt, z3::sext(v, 32));
    else set(rt, 8 * size < 64 ? z3::zext(v, 64 - 8 * size) : v);
  } else {
    z3::expr v = X(rt);
    s_.store(address, (8 * size < 64 ? v.extract(8 * size - 1, 0) : v).simplify(), size);
    if (writeback) set(rn(), *writeback, true);
  }
}

void Execution::loadStorePair(Op op) {
  const InstrDesc& d = *f_.desc;
  bool wide = d.operands[0] == Opnd::Xt;
  unsigned size = wide ? 8 : 4, t1 = rdOf(bits()), t2 = rt2();
  Opnd mem = Opnd::None;
  for (Opnd k : d.operands)
    if (isMemoryKind(k)) mem = k;
  requireSpAligned(rn());
  z3::expr base = X(rn(), true);
  z3::expr offset = z3::shl(signedField({15, 7}, 64), bv(wide ? 3 : 2, 64));
  z3::expr address = mem == Opnd::MemBase ? base : base + offset;
  std::optional<z3::expr> writeback;
  if (mem == Opnd::MemP7PreW || mem == Opnd::MemP7PreX) writeback = address;
  if (mem == Opnd::MemBase) writeback = base + offset;
  address = address.simplify();
  if (writeback && rn() != 31 && (rn() == t1 || rn() == t2))
    fault(FaultKind::Unpredictable, c_.bool_val(true),
          "writeback to a transferred register (CONSTRAINED UNPREDICTABLE)");
  if (op == Op::Ldp) {
    if (t1 == t2)
      fault(FaultKind::Unpredictable, c_.bool_val(true), "ldp of one register twice (CONSTRAINED UNPREDICTABLE)");
    z3::expr a = s_.load(address, size);
    z3::expr b = s_.load((address + bv(size, 64)).simplify(), size);
    if (writeback) set(rn(), *writeback, true);
    set(t1, a);
    set(t2, b);
  } else {
    z3::expr a = R(t1, wide), b = R(t2, wide);
    s_.store(address, a, size);
    s_.store((address + bv(size, 64)).simplify(), b, size);
    if (writeback) set(rn(), *writeback, true);
  }
}

// mrs reads NZCV exactly and every other system register as a fresh
// value; msr to NZCV sets the flags, to anything else it is reported.
void Execution::systemRegisterAccess(Op op) {
  unsigned rt = rdOf(bits());
  unsigned encoding = (bits() >> 5) & 0x7fff;
  const SystemRegister* sr = arm64::systemRegister(encoding);
  std::string name = sr ? std::string(sr->name) : std::string("s").append(std::to_string(encoding));
  bool nzcv = name == "nzcv";
  if (op == Op::Mrs) {
    if (nzcv) {
      auto bit = [&](unsigned r) { return z3::ite(s_.reg(r), bv(1, 1), bv(0, 1)); };
      z3::expr v = z3::concat(z3::concat(bit(reg::n), bit(reg::z)), z3::concat(bit(reg::c), bit(reg::v)));
      set(rt, z3::concat(bv(0, 32), z3::concat(v, bv(0, 28))));
      return;
    }
    set(rt, s_.fresh("sysreg." + name, 64));
    effect(text(), pc_, EffectKind::SystemRead);
    return;
  }
  z3::expr v = X(rt);
  if (nzcv) {
    auto on = [&](unsigned b) { return v.extract(b, b) == bv(1, 1); };
    setFlags(on(31), on(30), on(29), on(28));
    return;
  }
  effect(text(), pc_, EffectKind::SystemWrite, v.simplify(),
         name == "elr_el1" ? Ordering::ExceptionReturnAddress : Ordering::None);
}

void Execution::cacheMaintenance(Op op) {
  z3::expr address = X(rdOf(bits()));
  switch (op) {
    case Op::DcZva: {  // zeroes the aligned block: a data effect
      z3::expr block = (address & bv(~uint64_t(kZvaBytes - 1), 64)).simplify();
      s_.store(block, bv(0, 8 * kZvaBytes), kZvaBytes);
      effect(text(), block, EffectKind::CacheOp);
      return;
    }
    case Op::IcIallu: case Op::IcIalluis: effect(text(), pc_, EffectKind::CacheOp); return;
    case Op::DcCvau: effect(text(), address, EffectKind::CacheOp, std::nullopt, Ordering::CleanToUnification); return;
    case Op::IcIvau:
      effect(text(), address, EffectKind::CacheOp, std::nullopt, Ordering::InvalidateInstruction);
      return;
    default: effect(text(), address, EffectKind::CacheOp); return;  // no effect on data
  }
}

StepEffect Execution::run() {
  if (!f_.desc) {
    fault(FaultKind::ReservedInstruction, c_.bool_val(true), "no A64 instruction patchcheck models (UNDEFINED)");
    s_.regs[reg::btype] = bv(kBtypeNone, 2);
    return effect_;
  }
  const Op op = f_.desc->op;
  switch (op) {
    case Op::Hint: hint(); break;

    // --- branches (no delay slots: they take effect at once)
    case Op::B: transfer(c_.bool_val(true), labelTarget(Opnd::Label26)); break;
    case Op::Bl:
      set(reg::lr, pcPlus(bv(4, 64)));
      transfer(c_.bool_val(true), labelTarget(Opnd::Label26));
      break;
    case Op::BCond: transfer(conditionHolds(bits() & 15), labelTarget(Opnd::Label19)); break;
    case Op::Cbz: case Op::Cbnz: {
      z3::expr zero = R(rdOf(bits()), sf()) == bv(0, sf() ? 64 : 32);
      transfer(op == Op::Cbz ? zero : !zero, labelTarget(Opnd::Label19));
      break;
    }
    case Op::Tbz: case Op::Tbnz: {
      unsigned bit = (((bits() >> 31) & 1) << 5) | ((bits() >> 19) & 31);
      z3::expr clear = X(rdOf(bits())).extract(bit, bit) == bv(0, 1);
      transfer(op == Op::Tbz ? clear : !clear, labelTarget(Opnd::Label14));
      break;
    }
    case Op::Br: case Op::Blr: case Op::Ret: {
      z3::expr target = X(rn());  // read before the link is written (blr x30)
      fault(FaultKind::AddressError, (target & bv(3, 64)) != bv(0, 64),
            "branch target is not 4-byte aligned (PC alignment fault)");
      if (op == Op::Blr) set(reg::lr, pcPlus(bv(4, 64)));
      if (op == Op::Br) btype_ = rn() == 16 || rn() == 17 ? kBtypeBrX16X17 : kBtypeBr;
      if (op == Op::Blr) btype_ = kBtypeBlr;
      transfer(c_.bool_val(true), target);
      break;
    }

    // --- exceptions and barriers
    case Op::Brk: fault(FaultKind::Break, c_.bool_val(true), ""); break;
    case Op::Svc: fault(FaultKind::Syscall, c_.bool_val(true), ""); break;
    case Op::Hvc: fault(FaultKind::Syscall, c_.bool_val(true), "hypervisor call"); break;
    case Op::Udf: fault(FaultKind::ReservedInstruction, c_.bool_val(true), "permanently undefined"); break;
    case Op::Isb: case Op::Dsb: case Op::Dmb:
      effect(text(), pc_, EffectKind::Barrier, std::nullopt, barrierOrdering(op));
      break;
    case Op::Eret:
      // To ELR_EL1 with PSTATE from SPSR_EL1: the pass leaves, as with MIPS
      // eret. It is also a context synchronization event, as isb is (with
      // FEAT_ExS only when SCTLR_EL1.EOS is 1: INIT_SCTLR_EL1_MMU_ON sets it).
      effect(text(), pc_, EffectKind::Barrier, std::nullopt, Ordering::ContextSync);
      effect(text(), pc_, EffectKind::ExceptionReturn);
      fault(FaultKind::Eret, c_.bool_val(true), "exception return");
      break;

    // --- data processing
    case Op::Movz: case Op::Movn: case Op::Movk: moveWide(op); break;
    case Op::AddImm: case Op::AddsImm: case Op::SubImm: case Op::SubsImm: addSubImmediate(op); break;
    case Op::Add: case Op::Adds: case Op::Sub: case Op::Subs: addSubShifted(op); break;
    case Op::AddExt: case Op::AddsExt: case Op::SubExt: case Op::SubsExt: addSubExtended(op); break;
    case Op::AndImm: case Op::OrrImm: case Op::EorImm: case Op::AndsImm: logicalImmediate(op); break;
    case Op::And: case Op::Bic: case Op::Orr: case Op::Orn: case Op::Eor: case Op::Eon: case Op::Ands:
    case Op::Bics:
      logicalShifted(op);
      break;
    case Op::Csel: case Op::Csinc: case Op::Csinv: case Op::Csneg: conditionalSelect(op); break;
    case Op::Adr: {
      z3::expr imm = z3::concat(f_.field({5, 19}), f_.field({29, 2}));
      set(rdOf(bits()), pcPlus(z3::sext(imm, 43)));
      break;
    }
    case Op::Adrp: {
      z3::expr imm = z3::concat(f_.field({5, 19}), f_.field({29, 2}));
      z3::expr page = pc_ & bv(~uint64_t(0xfff), 64);
      set(rdOf(bits()), (page + z3::shl(z3::sext(imm, 43), bv(12, 64))).simplify());
      break;
    }

    // --- loads and stores
    case Op::Ldr: case Op::Str: case Op::Ldrb: case Op::Strb: case Op::Ldrh: case Op::Strh: case Op::Ldrsw:
      loadStore(op);
      break;
    case Op::Ldp: case Op::Stp: loadStorePair(op); break;

    // --- system
    case Op::DcCvau: case Op::DcCivac: case Op::DcCvac: case Op::DcIvac: case Op::DcZva: case Op::IcIvau:
    case Op::IcIallu: case Op::IcIalluis:
      cacheMaintenance(op);
      break;
    case Op::Mrs: case Op::Msr: systemRegisterAccess(op); break;
    case Op::MsrDaifSet: case Op::MsrDaifClr:
      effect(text(), pc_, EffectKind::InterruptEnable);
      break;
  }
  s_.regs[reg::btype] = bv(btype_, 2);
  return effect_;
}

}  // namespace

StepEffect execute(MachineState& state, const Fetched& f, const z3::expr& pc) {
  return Execution(state, f, pc).run();
}

}  // namespace patchcheck::arm64
