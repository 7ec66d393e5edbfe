#include "encoder/riscv/Encoder.h"

#include <unordered_map>

#include "encoder/Hex.h"
#include "encoder/riscv/Csrs.h"
#include "encoder/riscv/Registers.h"

namespace patchcheck::riscv {
namespace {

using gnu::trim;

// The rows of each mnemonic, in table order.
const std::vector<const Row*>* rowsNamed(std::string_view mnemonic) {
  static const auto index = [] {
    std::unordered_map<std::string_view, std::vector<const Row*>> m;
    for (const Row& r : instructionTable()) m[r.mnemonic].push_back(&r);
    return m;
  }();
  auto it = index.find(mnemonic);
  return it == index.end() ? nullptr : &it->second;
}

bool isMemoryKind(Opnd k) {
  switch (k) {
    case Opnd::MemI: case Opnd::MemS: case Opnd::CMemLwsp: case Opnd::CMemLdsp: case Opnd::CMemSwsp:
    case Opnd::CMemSdsp: case Opnd::CMemW: case Opnd::CMemD: case Opnd::AmoAddr:
      return true;
    default: return false;
  }
}
bool isBranchKind(Opnd k) { return k == Opnd::BrB || k == Opnd::BrJ || k == Opnd::CBr || k == Opnd::CJmp; }

unsigned syntaxCount(const Row& r) {
  unsigned n = 0;
  for (Opnd k : r.operands)
    if (k != Opnd::None && k != Opnd::LinkRa) ++n;
  return n;
}

std::string kindSyntax(Opnd k) {
  switch (k) {
    case Opnd::Rd: case Opnd::CRdP: case Opnd::CRdP9: case Opnd::RdRs1: case Opnd::CRdRs1P9: case Opnd::SpRd: return "rd";
    case Opnd::Rs1: case Opnd::CRs1Hi: case Opnd::CRs1P9: case Opnd::Same: case Opnd::SpRs1: case Opnd::ZeroRs1: return "rs1";
    case Opnd::Rs2: case Opnd::CRs2: case Opnd::CRs2P: case Opnd::ZeroRs2: return "rs2";
    case Opnd::BrB: case Opnd::BrJ: case Opnd::CBr: case Opnd::CJmp: return "target";
    case Opnd::Csr: return "csr";
    case Opnd::Pred: return "pred";
    case Opnd::Succ: return "succ";
    case Opnd::AmoAddr: return "(rs1)";
    case Opnd::Shamt: case Opnd::ShamtW: case Opnd::CShamt: return "shamt";
    case Opnd::Fd: case Opnd::CFdP: return "fd";
    case Opnd::Fs1: case Opnd::FRs1Rs2: return "fs1";
    case Opnd::Fs2: case Opnd::CFs2P: case Opnd::CFs2: return "fs2";
    case Opnd::Fs3: return "fs3";
    case Opnd::Rm: return "rm";
    default: return isMemoryKind(k) ? "offset(rs1)" : "imm";
  }
}

std::string syntaxOf(const Row& r) {
  std::string s(r.mnemonic);
  bool any = false;
  for (Opnd k : r.operands) {
    if (k == Opnd::None || k == Opnd::LinkRa) continue;
    s += (any ? ", " : " ") + kindSyntax(k);
    any = true;
  }
  return s;
}

// fence's sets: only the spellings GNU as knows (riscv_pred_succ), i o r w in that order.
std::optional<unsigned> parseSet(std::string_view s) {
  static const char* const spellings[16] = {nullptr, "w",  "r",  "rw",  "o",  "ow",  "or",  "orw",
                                            "i",     "iw", "ir", "irw", "io", "iow", "ior", "iorw"};
  for (unsigned v = 1; v < 16; ++v)
    if (s == spellings[v]) return v;
  return std::nullopt;
}

bool fits(int64_t v, unsigned bits, bool isSigned) {
  if (isSigned) return v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1));
  return v >= 0 && v < (int64_t(1) << bits);
}

class RowFit {
 public:
  RowFit(const Row& r, const Request& q, const EncodeContext& c) : r_(r), q_(q), c_(c) {}

  std::optional<Mismatch> run(AssembledUnit& u) {
    u.row = &r_;
    u.address = c_.address;
    u.bytes = r_.length();
    u.bits = r_.match;
    u.symbolicMask = 0;
    u.pcrelBase.reset();
    unsigned a = 0;
    for (unsigned i = 0; i < r_.operands.size() && r_.operands[i] != Opnd::None; ++i) {
      Opnd k = r_.operands[i];
      Operand& op = u.operands[i];
      op = Operand{k, 0, {}};
      if (k == Opnd::LinkRa) {
        op.reg = reg::ra;
        continue;
      }
      if (auto m = operand(k, q_.args[a++], op, u)) return m;
    }
    for (unsigned i = r_.operandCount(); i < u.operands.size(); ++i) u.operands[i] = Operand{};
    // An alias fixes fields its operands also write (c.nop's rd, ret's rs1).
    if (((u.bits & ~u.symbolicMask) & r_.mask) != (r_.match & ~u.symbolicMask))
      return Mismatch{q_.column, "not this form"};
    // The row's own rules (Unprivileged ISA 16.3-16.5: the reserved and HINT encodings).
    unsigned rd = rdOf(uint32_t(u.bits));
    if ((r_.flags & kRdNonZero) && rd == 0) return Mismatch{q_.column, "rd must not be zero here"};
    if ((r_.flags & kRdNotSp) && rd == 2) return Mismatch{q_.column, "rd must not be sp here"};
    if ((r_.flags & kRs2NonZero) && ((u.bits >> 2) & 31) == 0) return Mismatch{q_.column, "rs2 must not be zero here"};
    return std::nullopt;
  }

 private:
  const Row& r_;
  const Request& q_;
  const EncodeContext& c_;

  std::optional<unsigned> registerOf(const Arg& a) const {
    if (a.kind == Arg::Kind::Register) return a.reg;
    if (a.kind != Arg::Kind::Text) return std::nullopt;
    return parseGpr(a.text.text);
  }

  std::optional<Mismatch> registerOperand(Opnd k, const Arg& a, Operand& op, AssembledUnit& u) {
    auto r = registerOf(a);
    if (!r) return Mismatch{a.text.column, "expected a register, got '" + std::string(a.text.text) + "'"};
    op.reg = *r;
    bool prime = *r >= 8 && *r <= 15;
    switch (k) {
      case Opnd::Rd: case Opnd::RdRs1: case Opnd::CRs1Hi: u.bits |= *r << 7; break;
      case Opnd::Rs1: u.bits |= *r << 15; break;
      case Opnd::Rs2: u.bits |= *r << 20; break;
      case Opnd::CRs2: u.bits |= *r << 2; break;
      case Opnd::CRdP: case Opnd::CRs2P:
        if (!prime) return Mismatch{a.text.column, "a compressed register is one of x8..x15"};
        u.bits |= (*r - 8) << 2;
        break;
      case Opnd::CRdP9: case Opnd::CRs1P9: case Opnd::CRdRs1P9:
        if (!prime) return Mismatch{a.text.column, "a compressed register is one of x8..x15"};
        u.bits |= (*r - 8) << 7;
        break;
      case Opnd::Same:
        if (*r != u.operands[0].reg) return Mismatch{a.text.column, "must be the same register as operand 1"};
        break;
      case Opnd::SpRd: case Opnd::SpRs1:
        if (*r != reg::sp) return Mismatch{a.text.column, "must be sp"};
        break;
      case Opnd::ZeroRs1: case Opnd::ZeroRs2:
        if (*r != 0) return Mismatch{a.text.column, "must be zero"};
        break;
      default: break;
    }
    return std::nullopt;
  }

  // f registers: only as written (no pseudo-instruction makes one).
  std::optional<Mismatch> floatRegisterOperand(Opnd k, const Arg& a, Operand& op, AssembledUnit& u) {
    auto r = a.kind == Arg::Kind::Text ? parseFpr(trim(a.text.text)) : std::nullopt;
    if (!r) return Mismatch{a.text.column, "expected a floating-point register, got '" + std::string(a.text.text) + "'"};
    op.reg = *r;
    bool prime = *r >= 8 && *r <= 15;
    switch (k) {
      case Opnd::Fd: u.bits |= *r << 7; break;
      case Opnd::Fs1: u.bits |= *r << 15; break;
      case Opnd::Fs2: u.bits |= *r << 20; break;
      case Opnd::Fs3: u.bits |= *r << 27; break;
      case Opnd::FRs1Rs2: u.bits |= (*r << 15) | (*r << 20); break;
      case Opnd::CFs2: u.bits |= *r << 2; break;
      default:  // CFdP, CFs2P
        if (!prime) return Mismatch{a.text.column, "a compressed register is one of f8..f15"};
        u.bits |= (*r - 8) << 2;
        break;
    }
    return std::nullopt;
  }

  std::variant<Expr, Mismatch> expression(const Arg& a, std::string_view text, unsigned column) {
    if (a.kind == Arg::Kind::Expression) return a.expr;
    if (a.kind == Arg::Kind::Register)
      return Mismatch{a.text.column, "expected an expression, got register " + std::string(gprName(a.reg))};
    if (parseGpr(trim(text)))
      return Mismatch{column, "expected an expression, got register '" + std::string(trim(text)) + "'"};
    c_.names->usedLabel = false;
    auto e = parseExpression(text, *c_.names);
    if (auto* err = std::get_if<gnu::ExprError>(&e)) return Mismatch{column + unsigned(err->offset), err->message};
    Expr x = std::get<Expr>(e);
    x.usesLabel = c_.names->usedLabel;
    return x;
  }

  std::optional<Mismatch> operand(Opnd k, const Arg& a, Operand& op, AssembledUnit& u) {
    if (isRegisterKind(k)) return registerOperand(k, a, op, u);
    if (isFloatRegisterKind(k)) return floatRegisterOperand(k, a, op, u);
    if (k == Opnd::Rm) {
      std::string_view name = trim(a.text.text);
      for (unsigned m = 0; m < 8; ++m)
        if (kRoundingModes[m] && name == kRoundingModes[m]) {
          op.expr.value = Value::constant(m);
          u.bits |= m << 12;
          return std::nullopt;
        }
      return Mismatch{a.text.column, "expected a rounding mode (rne, rtz, rdn, rup, rmm, dyn), got '" +
                                         std::string(a.text.text) + "'"};
    }
    std::string_view text = a.text.text;
    unsigned column = a.text.column;
    if (k == Opnd::Csr && a.kind == Arg::Kind::Text)
      if (auto n = csrNumber(trim(text))) {
        op.expr.value = Value::constant(*n);
        u.bits |= placeImm(k, *n);
        return std::nullopt;
      }
    if ((k == Opnd::Pred || k == Opnd::Succ) && a.kind == Arg::Kind::Text) {
      auto set = parseSet(trim(text));
      if (!set) return Mismatch{column, "expected a fence set (i, o, r, w in that order), got '" + std::string(text) + "'"};
      op.expr.value = Value::constant(*set);
      u.bits |= placeImm(k, *set);
      return std::nullopt;
    }
    if (isMemoryKind(k)) {
      unsigned base = 0;
      if (a.kind == Arg::Kind::Text) {
        size_t open = text.rfind('(');
        if (text.empty() || text.back() != ')' || open == std::string_view::npos)
          return Mismatch{column, "expected offset(register), got '" + std::string(text) + "'"};
        auto r = parseGpr(trim(text.substr(open + 1, text.size() - open - 2)));
        if (!r) return Mismatch{column + unsigned(open) + 1, "expected a base register in '" + std::string(text) + "'"};
        base = *r;
        text = trim(text.substr(0, open));
        if (text.empty()) text = "0";
      } else {
        base = a.reg;
      }
      op.reg = base;
      bool sp = k == Opnd::CMemLwsp || k == Opnd::CMemLdsp || k == Opnd::CMemSwsp || k == Opnd::CMemSdsp;
      if (sp && base != reg::sp) return Mismatch{column, "the base must be sp"};
      if ((k == Opnd::CMemW || k == Opnd::CMemD) && (base < 8 || base > 15))
        return Mismatch{column, "a compressed base register is one of x8..x15"};
      if (k == Opnd::MemI || k == Opnd::MemS || k == Opnd::AmoAddr) u.bits |= base << 15;
      if (k == Opnd::CMemW || k == Opnd::CMemD) u.bits |= (base - 8) << 7;
    }
    auto parsed = expression(a, text, column);
    if (auto* m = std::get_if<Mismatch>(&parsed)) return *m;
    op.expr = std::get<Expr>(parsed);
    return immediate(k, op.expr, u, column);
  }

  // Places a resolved value into its field, or says why it does not fit.
  std::optional<Mismatch> immediate(Opnd k, Expr& e, AssembledUnit& u, unsigned column) {
    const ImmLayout& l = layoutOf(k);
    std::string what = "'" + std::string(r_.mnemonic) + "'";
    if (isBranchKind(k)) return target(k, e, u, column);
    bool compressed = r_.flags & kCompressed;
    if (compressed && (e.reloc != Reloc::None || !e.isConstant() || e.usesLabel))
      return Mismatch{column, "a compressed field takes a constant"};
    int64_t v = e.value.addend;
    switch (e.reloc) {
      case Reloc::None: break;
      case Reloc::Hi: case Reloc::PcrelHi:
        if (k != Opnd::ImmU) return Mismatch{column, std::string(relocName(e.reloc)) + " fits the 20-bit field of lui or auipc only"};
        if ((e.reloc == Reloc::PcrelHi) != (r_.op == Op::Auipc))
          return Mismatch{column, std::string(relocName(e.reloc)) + (e.reloc == Reloc::Hi ? " is for lui" : " is for auipc")};
        return upper(k, e, u, column);
      case Reloc::Lo: case Reloc::PcrelLo:
        if (k != Opnd::ImmI && k != Opnd::MemI && k != Opnd::MemS)
          return Mismatch{column, std::string(relocName(e.reloc)) + " fits a 12-bit immediate or offset only"};
        return lower(k, e, u, column);
    }
    if (!e.isConstant())
      return Mismatch{column, "'" + e.value.str() + "' has no concrete address: " + what +
                                  " takes it through %hi/%lo or %pcrel_hi/%pcrel_lo"};
    switch (k) {
      case Opnd::ImmU:
        if (v < 0 || v > 0xfffff) return Mismatch{column, "lui/auipc expression not in range 0..1048575"};
        break;
      case Opnd::CLui:
        // c.lui takes what lui would: 1..0x1f or 0xfffe0..0xfffff (a sign-extended 6-bit field).
        if (v >= 0xfffe0 && v <= 0xfffff) v -= 0x100000;
        if (v == 0 || !fits(v, 6, true)) return Mismatch{column, "out of c.lui's range"};
        break;
      case Opnd::Shamt:
        if (v < 0 || v >= int64_t(c_.xlen)) return Mismatch{column, "shift amount must be 0.." + std::to_string(c_.xlen - 1)};
        break;
      case Opnd::CShamt:
        if (v <= 0 || v >= int64_t(c_.xlen)) return Mismatch{column, "out of c.slli/c.srli/c.srai's range"};
        break;
      case Opnd::ZeroImm:
        if (v != 0) return Mismatch{column, "must be 0"};
        return std::nullopt;
      default:
        if (l.scale && (v & ((1 << l.scale) - 1))) return Mismatch{column, "not a multiple of " + std::to_string(1 << l.scale)};
        if (!fits(v, l.bits, l.isSigned))
          return Mismatch{column, std::to_string(v) + " is out of range for " + what + " (" +
                                      (l.isSigned ? "signed " : "unsigned ") + std::to_string(l.bits) + "-bit)"};
        if ((r_.flags & kImmNonZero) && v == 0) return Mismatch{column, "must not be 0"};
        break;
    }
    u.bits |= placeImm(k, uint64_t(v));
    return std::nullopt;
  }

  // %hi(x) in lui, %pcrel_hi(x) in auipc: the 20-bit part that rounds.
  std::optional<Mismatch> upper(Opnd k, Expr& e, AssembledUnit& u, unsigned column) {
    Value x = e.value;
    if (e.reloc == Reloc::PcrelHi) {
      if (x.symbol == c_.address.symbol) x = Value::constant(x.addend - c_.address.addend);
      else if (!x.isConstant() || !c_.address.isConstant()) {
        u.symbolicMask |= operandBits(k);
        return std::nullopt;
      } else {
        x = Value::constant(int64_t(uint64_t(x.addend) - uint64_t(c_.address.addend)));
      }
    }
    if (!x.isConstant()) {
      u.symbolicMask |= operandBits(k);
      return std::nullopt;
    }
    if (c_.requireKernelReach && c_.xlen == 64) {
      int64_t rounded = int64_t(uint64_t(x.addend) + 0x800);
      if (rounded != int64_t(int32_t(rounded)))
        return Mismatch{column, relocName(e.reloc).data() + std::string("(") + e.value.str() +
                                    ") is beyond the +-2 GiB that a 20-bit upper part and a 12-bit lower part reach"};
    }
    u.bits |= placeImm(k, hi20(uint64_t(x.addend)));
    return std::nullopt;
  }

  // %lo(x) or %pcrel_lo(label of the auipc): the sign-extended low 12 bits.
  std::optional<Mismatch> lower(Opnd k, Expr& e, AssembledUnit& u, unsigned column) {
    Value x = e.value;
    if (e.reloc == Reloc::PcrelLo) {
      Value at = e.value;
      auto hi = c_.pcrelHiAt ? c_.pcrelHiAt(at) : std::nullopt;
      if (!hi)
        return Mismatch{column, "%pcrel_lo(" + at.str() + ") names no auipc with a %pcrel_hi (it takes the label of that auipc)"};
      u.pcrelBase = at;
      e.value = *hi;  // kept: the target the pair forms
      if (hi->symbol == at.symbol) x = Value::constant(hi->addend - at.addend);
      else if (hi->isConstant() && at.isConstant()) x = Value::constant(int64_t(uint64_t(hi->addend) - uint64_t(at.addend)));
      else x = Value{"?", 0};
    }
    if (!x.isConstant()) {
      u.symbolicMask |= operandBits(k) & ~(k == Opnd::ImmI ? 0u : 0xf8000u);
      return std::nullopt;
    }
    u.bits |= placeImm(k, uint64_t(lo12(uint64_t(x.addend))));
    return std::nullopt;
  }

  // A branch or jump target. GNU as relaxes one to a label of this code
  // (a compressed form when it reaches); a conditional branch elsewhere
  // it expands to an inverted branch over a jal, which is two instructions.
  std::optional<Mismatch> target(Opnd k, Expr& e, AssembledUnit& u, unsigned column) {
    if (e.reloc != Reloc::None) return Mismatch{column, std::string(relocName(e.reloc)) + " cannot be a branch target"};
    bool label = e.usesLabel && e.value.symbol == c_.address.symbol;
    const ImmLayout& l = layoutOf(k);
    if ((k == Opnd::CBr || k == Opnd::CJmp) && !label)
      return Mismatch{column, "a compressed branch reaches labels of this code only"};
    if (k == Opnd::BrB && !label)
      return Mismatch{column, "a conditional branch to '" + e.value.str() +
                                  "', which is no label of this code: GNU as expands it to an inverted branch "
                                  "over a jal (8 bytes); write those two instructions"};
    if (e.value.symbol != c_.address.symbol && !(e.value.isConstant() && c_.address.isConstant())) {
      u.symbolicMask |= operandBits(k);
      return std::nullopt;
    }
    int64_t offset = int64_t(uint64_t(e.value.addend) - uint64_t(c_.address.addend));
    if (c_.xlen == 32) offset = int64_t(int32_t(uint32_t(offset)));
    if (offset & 1) return Mismatch{column, "branch target " + e.value.str() + " is not 2-byte aligned"};
    if (!fits(offset, l.bits, true)) {
      std::string reach = std::to_string(int64_t(1) << (l.bits - 1));
      return Mismatch{column, "target " + e.value.str() + " is " + std::to_string(offset) + " bytes away, beyond '" +
                                  std::string(r_.mnemonic) + "''s reach of -" + reach + ".." + reach + " bytes" +
                                  (k == Opnd::BrB ? " (GNU as would expand it to a branch over a jal: write those)" : "")};
    }
    u.bits |= placeImm(k, uint64_t(offset));
    return std::nullopt;
  }
};

}  // namespace

bool knownMnemonic(std::string_view m) { return rowsNamed(m) != nullptr; }

std::variant<AssembledUnit, Mismatch> encode(const Request& q, const EncodeContext& c) {
  const std::vector<const Row*>* rows = rowsNamed(q.mnemonic);
  if (!rows) return Mismatch{q.column, "unknown instruction '" + q.mnemonic + "'"};
  std::optional<Mismatch> best;
  bool anyCount = false, anyHere = false;
  for (const Row* r : *rows) {
    if (!r->availableOn(c.xlen, c.rvc, c.fd) || (r->flags & kPrintOnly)) continue;
    anyHere = true;
    if (r->length() < c.minLength || syntaxCount(*r) != q.args.size()) continue;
    anyCount = true;
    AssembledUnit u;
    auto m = RowFit(*r, q, c).run(u);
    if (!m) return u;
    // The message of the widest form tells the most (a compressed form's
    // register class is no error of the source).
    if (!best || !(r->flags & kCompressed)) best = m;
  }
  if (!anyHere) {
    bool c16 = false, float_ = false;
    for (const Row* r : *rows) c16 = c16 || (r->flags & kCompressed), float_ = float_ || (r->exts & (kF | kD));
    std::string rv = "rv" + std::to_string(c.xlen);
    if (float_ && !c.fd)
      return Mismatch{q.column, "'" + q.mnemonic + "' needs the F and D extensions, which the target has not (" + rv +
                                    "imafdc or " + rv + "gc has them)"};
    return Mismatch{q.column, "'" + q.mnemonic + "' is not available on " + rv +
                                  (c16 && !c.rvc ? " without the C extension (.option rvc)" : "")};
  }
  if (!anyCount) {
    std::string forms;
    for (const Row* r : *rows)
      if (r->availableOn(c.xlen, c.rvc, c.fd) && !(r->flags & kCompressed))
        forms += (forms.empty() ? "" : " | ") + syntaxOf(*r);
    if (forms.empty()) forms = syntaxOf(*rows->front());
    return Mismatch{q.column, "'" + q.mnemonic + "' takes " + forms + " (got " + std::to_string(q.args.size()) +
                                  " operand" + (q.args.size() == 1 ? "" : "s") + ")"};
  }
  return *best;
}

}  // namespace patchcheck::riscv
