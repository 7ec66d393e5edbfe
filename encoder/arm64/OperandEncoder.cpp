#include "encoder/arm64/OperandEncoder.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "encoder/Hex.h"
#include "encoder/arm64/Bitmask.h"
#include "encoder/arm64/Operands.h"
#include "encoder/arm64/Registers.h"
#include "encoder/arm64/SystemNames.h"

namespace patchcheck::arm64 {
namespace {

using gnu::lower;
using gnu::trim;
using gnu::trimmed;

// The first word of a piece ("lsl" of "lsl #3") and the rest.
std::pair<std::string_view, Piece> firstWord(Piece p) {
  p = trimmed(p);
  size_t n = 0;
  while (n < p.text.size() && std::isalpha((unsigned char)p.text[n])) ++n;
  return {p.text.substr(0, n), trimmed({p.text.substr(n), p.column + unsigned(n)})};
}

bool isModifier(const Piece& p) {
  std::string w = lower(firstWord(p).first);
  return parseShift(w) || parseExtend(w) || w == "msl";
}

// The pieces inside `[...]`, and whether `!` follows.
struct Bracket {
  std::vector<Piece> inner;
  bool writeback = false;
};

std::optional<Bracket> bracket(Piece p) {
  p = trimmed(p);
  if (p.text.empty() || p.text[0] != '[') return std::nullopt;
  size_t close = p.text.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  Bracket b;
  std::string_view after = trim(p.text.substr(close + 1));
  if (after == "!") b.writeback = true;
  else if (!after.empty()) return std::nullopt;
  size_t start = 1;
  for (size_t i = 1; i <= close; ++i) {
    if (i == close || p.text[i] == ',') {
      b.inner.push_back(trimmed({p.text.substr(start, i - start), p.column + unsigned(start)}));
      start = i + 1;
    }
  }
  return b;
}

std::string knownSystemRegisters() {
  std::string out;
  for (const SystemRegister& r : systemRegisters()) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

std::string ordinal(unsigned index) { return "operand " + std::to_string(index + 1); }

// Parses and places the operand kinds of one row (one object per operand).
class Encoding {
 public:
  Encoding(const NameResolver& names, const InstrDesc& row, unsigned index, AssembledUnit& unit)
      : names_(names), row_(row), index_(index), unit_(unit), op_(unit.operands[index]) {}

  std::optional<Mismatch> run(std::span<const Piece> pieces, size_t& at) {
    Opnd k = row_.operands[index_];
    op_ = Operand{k, {}, Reloc::None};
    if (k == Opnd::Keyword) {
      if (at >= pieces.size()) return missing(pieces);
      Piece p = trimmed(pieces[at]);
      if (lower(p.text) != row_.keyword) return bad(p, "expected '" + std::string(row_.keyword) + "'");
      ++at;
      return std::nullopt;
    }
    if (at >= pieces.size()) return missing(pieces);
    Piece p = trimmed(pieces[at++]);
    std::optional<Piece> modifier;
    if (takesModifier(k) && at < pieces.size() && isModifier(pieces[at])) modifier = trimmed(pieces[at++]);
    return operand(k, p, modifier);
  }

 private:
  const NameResolver& names_;
  const InstrDesc& row_;
  unsigned index_;
  AssembledUnit& unit_;
  Operand& op_;

  static bool takesModifier(Opnd k) {
    switch (k) {
      case Opnd::AddImm: case Opnd::ShiftedX: case Opnd::ShiftedW: case Opnd::LogShiftedX:
      case Opnd::LogShiftedW: case Opnd::ExtendedX: case Opnd::ExtendedW: case Opnd::WideX: case Opnd::WideW:
        return true;
      default: return false;
    }
  }

  Mismatch bad(Piece p, std::string why, bool shape = false) const {
    return Mismatch{p.column, ordinal(index_) + " of '" + std::string(row_.mnemonic) + "': " + why, index_, shape};
  }
  std::optional<Mismatch> missing(std::span<const Piece> pieces) const {
    unsigned col = pieces.empty() ? 0 : pieces.back().column + unsigned(pieces.back().text.size());
    return Mismatch{col, "'" + std::string(row_.mnemonic) + "' needs " + ordinal(index_) + " (" +
                             std::string(syntaxOf(row_.operands[index_])) + ")", index_, false};
  }

  void place(Opnd k, unsigned field, uint64_t value) { unit_.bits |= layoutOf(k).fields[field].place(value); }

  // ---- registers
  std::optional<Mismatch> reg(Opnd k, Piece p, unsigned& number, const RegisterKind& rk) {
    auto r = parseGpr(p.text);
    if (!r) return bad(p, "expected a register (" + std::string(syntaxOf(k)) + "), got '" + std::string(p.text) + "'");
    if (r->wide != rk.wide)
      return bad(p, std::string("expected a ") + (rk.wide ? "64-bit (x)" : "32-bit (w)") + " register, got '" +
                        std::string(p.text) + "'");
    if (r->number == 31 && r->sp != rk.sp)
      return bad(p, rk.sp ? "'" + std::string(p.text) + "' is not allowed here (register 31 is sp in this operand)"
                          : "'" + std::string(p.text) + "' is not allowed here (register 31 is the zero register in "
                            "this operand)");
    number = r->number;
    unit_.bits |= rk.field.place(number);
    return std::nullopt;
  }

  // ---- immediates: `#expr`, `expr`, `#:lo12:expr`
  struct Immediate {
    Value value;
    Reloc reloc = Reloc::None;
  };
  std::variant<Immediate, Mismatch> immediate(Piece p, bool hashRequired = false) {
    std::string_view t = p.text;
    unsigned col = p.column;
    if (!t.empty() && t[0] == '#') t.remove_prefix(1), ++col;
    else if (hashRequired) return bad(p, "expected '#' and an immediate, got '" + std::string(p.text) + "'");
    if (t.empty()) return bad(p, "expected an immediate");
    if (parseGpr(trim(t))) return bad(p, "expected an immediate, got register '" + std::string(t) + "'");
    auto v = parseExpression(t, names_, true);
    if (auto* e = std::get_if<ExprError>(&v)) return Mismatch{col + unsigned(e->offset), e->message, index_, true};
    gnu::Expr& x = std::get<gnu::Expr>(v);
    return Immediate{std::move(x.value), Reloc(x.reloc)};
  }

  // A constant immediate (no relocation, no symbolic address).
  std::variant<int64_t, Mismatch> constant(Piece p) {
    auto r = immediate(p);
    if (auto* m = std::get_if<Mismatch>(&r)) return *m;
    auto& imm = std::get<Immediate>(r);
    if (imm.reloc != Reloc::None) return bad(p, ":lo12: is not allowed here", true);
    if (!imm.value.isConstant())
      return bad(p, "must be a constant, but '" + imm.value.symbol + "' has no concrete address", true);
    return imm.value.addend;
  }

  std::optional<Mismatch> ranged(Opnd k, Piece p, int64_t lo, int64_t hi, int64_t bias = 0) {
    auto r = constant(p);
    if (auto* m = std::get_if<Mismatch>(&r)) return *m;
    int64_t v = std::get<int64_t>(r);
    if (v < lo || v > hi)
      return bad(p, "immediate " + std::to_string(v) + " is out of range " + std::to_string(lo) + ".." +
                        std::to_string(hi), true);
    op_.value = Value::constant(v);
    place(k, 0, uint64_t(v - bias));
    return std::nullopt;
  }

  // `#n` after a shift or extend name; `required` when the name needs one.
  std::variant<int64_t, Mismatch> amount(Piece rest, bool required) {
    if (rest.text.empty()) {
      if (required) return bad(rest, "expected '#amount' after the shift", true);
      return int64_t(0);
    }
    if (rest.text[0] != '#') return bad(rest, "expected '#amount', got '" + std::string(rest.text) + "'", true);
    return constant(rest);
  }

  // A value that must fit a W register: -2^31..2^32-1, taken modulo 2^32.
  std::optional<uint64_t> fit(int64_t v, bool wide) {
    if (wide) return uint64_t(v);
    if (v < -0x80000000ll || v > 0xffffffffll) return std::nullopt;
    return uint64_t(v) & 0xffffffffull;
  }

  std::optional<Mismatch> operand(Opnd k, Piece p, const std::optional<Piece>& modifier) {
    if (const RegisterKind* rk = registerKind(k); rk && !isMemoryKind(k)) {
      unsigned n;
      auto m = reg(k, p, n, *rk);
      if (!m && (k == Opnd::XnRm || k == Opnd::WnRm)) place(k, 1, n);  // cinc Xd, Xn: Rm = Rn
      return m;
    }
    if (isLabelKind(k)) return label(k, p);
    if (isMemoryKind(k)) return memory(k, p);
    switch (k) {
      case Opnd::BitW: return ranged(k, p, 0, 31);
      case Opnd::BitX: return ranged(k, p, 32, 63, 32);
      case Opnd::Imm16: case Opnd::UdfImm16: return ranged(k, p, 0, 0xffff);
      case Opnd::Hint7: return ranged(k, p, 0, 127);
      case Opnd::Imm4: return ranged(k, p, 0, 15);
      case Opnd::Post9: case Opnd::Post7W: case Opnd::Post7X: {
        auto r = constant(p);
        if (auto* m = std::get_if<Mismatch>(&r)) return *m;
        op_.value = Value::constant(std::get<int64_t>(r));
        return offset(k, p, std::get<int64_t>(r));
      }
      case Opnd::Barrier: case Opnd::IsbOpt: {
        std::optional<unsigned> named = k == Opnd::Barrier ? parseBarrier(p.text)
                                        : lower(p.text) == "sy" ? std::optional<unsigned>(15) : std::nullopt;
        if (named) {
          place(k, 0, *named);
          return std::nullopt;
        }
        if (p.text.empty() || p.text[0] != '#')
          return bad(p, "expected a barrier option (" + std::string(syntaxOf(k)) + "), got '" + std::string(p.text) + "'");
        return ranged(k, p, 0, 15);
      }
      case Opnd::AddImm: return addImmediate(p, modifier);
      case Opnd::ShiftedX: case Opnd::ShiftedW: case Opnd::LogShiftedX: case Opnd::LogShiftedW:
        return shifted(k, p, modifier);
      case Opnd::ExtendedX: case Opnd::ExtendedW: return extended(k, p, modifier);
      case Opnd::BitmaskX: case Opnd::BitmaskW: case Opnd::MovBitmaskX: case Opnd::MovBitmaskW:
      case Opnd::InvBitmaskX: case Opnd::InvBitmaskW: {
        bool wide = k == Opnd::BitmaskX || k == Opnd::MovBitmaskX || k == Opnd::InvBitmaskX;
        bool inverse = k == Opnd::InvBitmaskX || k == Opnd::InvBitmaskW;
        auto r = constant(p);
        if (auto* m = std::get_if<Mismatch>(&r)) return *m;
        auto v = fit(std::get<int64_t>(r), wide);
        if (v && inverse) v = ~*v & (wide ? ~0ull : 0xffffffffull);
        auto field = v ? encodeBitmask(*v, wide ? 64 : 32) : std::nullopt;
        if (!field)
          return bad(p, hex(uint64_t(std::get<int64_t>(r))) + " is not a logical immediate (a rotated run of ones "
                        "repeated in elements of 2, 4, 8, 16, 32 or 64 bits; not 0 or all ones)", true);
        op_.value = Value::constant(int64_t(*v));
        place(k, 0, *field);
        return std::nullopt;
      }
      case Opnd::WideX: case Opnd::WideW: return wide(k, p, modifier);
      case Opnd::MovzX: case Opnd::MovzW: case Opnd::MovnX: case Opnd::MovnW: return moveWide(k, p);
      case Opnd::Cond: case Opnd::InvCond: {
        auto cond = parseCondition(lower(p.text));
        if (!cond) return bad(p, "expected a condition (" + std::string(syntaxOf(k)) + "), got '" + std::string(p.text) + "'");
        if (k == Opnd::Cond) {
          place(k, 0, *cond);
          return std::nullopt;
        }
        // The alias encodes the inverse; al and nv have none that differs.
        if (*cond >= 14) return bad(p, "'" + std::string(p.text) + "' is not allowed here (al and nv never change)", true);
        place(k, 0, *cond ^ 1);
        return std::nullopt;
      }
      case Opnd::SysReg: {
        const SystemRegister* s = systemRegisterNamed(p.text);
        if (!s) return bad(p, "unknown system register '" + std::string(p.text) + "' (patchcheck knows " + knownSystemRegisters() + ")", true);
        place(k, 0, s->encoding);
        return std::nullopt;
      }
      default: return bad(p, "unsupported operand");
    }
  }

  // ---- pc-relative targets
  std::optional<Mismatch> label(Opnd k, Piece p) {
    if (!p.text.empty() && p.text[0] == '=')
      return bad(p, "'ldr =value' needs a literal pool, which patchcheck does not build: put the value in a "
                    ".quad and load it by its label", true);
    if (parseGpr(p.text) || (!p.text.empty() && p.text[0] == '['))
      return bad(p, "expected a label or address, got '" + std::string(p.text) + "'");
    auto r = immediate(p);
    if (auto* m = std::get_if<Mismatch>(&r)) return *m;
    auto& imm = std::get<Immediate>(r);
    if (imm.reloc != Reloc::None) return bad(p, ":lo12: is not a branch target", true);
    op_.value = imm.value;
    const Value& pc = unit_.address;
    bool page = k == Opnd::AdrpLabel;
    if (page ? !(imm.value.isConstant() && pc.isConstant()) : imm.value.symbol != pc.symbol) {
      unit_.symbolicMask |= operandBits(k);
      return std::nullopt;
    }
    uint64_t target = uint64_t(imm.value.addend), from = uint64_t(pc.addend);
    int64_t diff = page ? int64_t((target & ~0xfffull) - (from & ~0xfffull)) >> 12 : int64_t(target - from);
    unsigned bits = k == Opnd::Label26 ? 26 : k == Opnd::Label19 ? 19 : k == Opnd::Label14 ? 14 : 21;
    bool words = k != Opnd::AdrLabel && k != Opnd::AdrpLabel;
    if (words && (diff & 3))
      return bad(p, "target " + hex(target) + " is not 4-byte aligned (offset " + std::to_string(diff) + " from " +
                        hex(from) + ")", true);
    int64_t units = words ? diff / 4 : diff, limit = int64_t(1) << (bits - 1);
    if (units < -limit || units >= limit) {
      int64_t scale = words ? 4 : page ? 4096 : 1;
      return bad(p, "target " + hex(target) + " is out of reach of '" + std::string(row_.mnemonic) + "' at " +
                        hex(from) + " (" + (page ? "page offset " : "offset ") + std::to_string(units * (page ? 1 : scale)) +
                        ", reach " + std::to_string(-limit * scale) + ".." + std::to_string((limit - 1) * scale) +
                        (page ? " bytes by page)" : ")"), true);
    }
    if (words) {
      place(k, 0, uint64_t(units));
    } else {
      place(k, 0, uint64_t(units) >> 2);
      place(k, 1, uint64_t(units) & 3);
    }
    return std::nullopt;
  }

  // ---- arithmetic operands
  std::optional<Mismatch> addImmediate(Piece p, const std::optional<Piece>& modifier) {
    auto r = immediate(p);
    if (auto* m = std::get_if<Mismatch>(&r)) return *m;
    auto& imm = std::get<Immediate>(r);
    op_.value = imm.value, op_.reloc = imm.reloc;
    int64_t shift = 0;
    if (modifier) {
      auto [name, rest] = firstWord(*modifier);
      if (lower(name) != "lsl") return bad(*modifier, "only 'lsl #0' or 'lsl #12' may follow the immediate", true);
      auto a = amount(rest, true);
      if (auto* m = std::get_if<Mismatch>(&a)) return *m;
      shift = std::get<int64_t>(a);
      if (shift != 0 && shift != 12) return bad(*modifier, "the shift must be 'lsl #0' or 'lsl #12'", true);
    }
    if (imm.reloc == Reloc::Lo12) {
      if (shift) return bad(p, ":lo12: cannot be shifted", true);
      if (!imm.value.isConstant()) {
        unit_.symbolicMask |= layoutOf(Opnd::AddImm).fields[0].mask();
        return std::nullopt;
      }
      place(Opnd::AddImm, 0, uint64_t(imm.value.addend) & 0xfff);
      return std::nullopt;
    }
    if (!imm.value.isConstant())
      return bad(p, "must be a constant, but '" + imm.value.symbol + "' has no concrete address (use :lo12:)", true);
    int64_t v = imm.value.addend;
    if (!modifier && v > 0xfff && (v & 0xfff) == 0) v >>= 12, shift = 12;  // GNU as: #4096 is #1, lsl #12
    if (v < 0 || v > 0xfff)
      return bad(p, "immediate " + std::to_string(imm.value.addend) + " is out of range (0..4095, optionally "
                    "shifted by lsl #12)", true);
    place(Opnd::AddImm, 0, uint64_t(v));
    place(Opnd::AddImm, 1, shift ? 1 : 0);
    return std::nullopt;
  }

  std::optional<Mismatch> shifted(Opnd k, Piece p, const std::optional<Piece>& modifier) {
    bool wide = k == Opnd::ShiftedX || k == Opnd::LogShiftedX;
    bool logical = k == Opnd::LogShiftedX || k == Opnd::LogShiftedW;
    unsigned n;
    if (auto m = reg(k, p, n, RegisterKind{layoutOf(k).fields[0], wide, false})) return m;
    unsigned type = 0;
    int64_t by = 0;
    if (modifier) {
      auto [name, rest] = firstWord(*modifier);
      auto t = parseShift(lower(name));
      if (!t) return bad(*modifier, "'" + std::string(name) + "' is an extend; this form takes lsl, lsr, asr" +
                                        (logical ? ", ror" : ""));
      if (*t == 3 && !logical) return bad(*modifier, "'ror' is not allowed in an add or subtract", true);
      auto a = amount(rest, true);
      if (auto* m = std::get_if<Mismatch>(&a)) return *m;
      by = std::get<int64_t>(a);
      type = *t;
      if (by < 0 || by > (wide ? 63 : 31))
        return bad(*modifier, "shift amount " + std::to_string(by) + " is out of range 0.." + (wide ? "63" : "31"), true);
    }
    place(k, 1, type);
    place(k, 2, uint64_t(by));
    return std::nullopt;
  }

  std::optional<Mismatch> extended(Opnd k, Piece p, const std::optional<Piece>& modifier) {
    auto r = parseGpr(p.text);
    if (!r || (r->number == 31 && r->sp))
      return bad(p, "expected a register (" + std::string(syntaxOf(k)) + "), got '" + std::string(p.text) + "'");
    bool rowWide = k == Opnd::ExtendedX;
    // Without an extend, or with lsl, the operand is uxtx (uxtw in a 32-bit
    // row): the form objdump spells with lsl, which needs sp (checked by
    // the assembler once every operand is known).
    unsigned option = rowWide ? 3 : 2;
    int64_t by = 0;
    if (modifier) {
      auto [name, rest] = firstWord(*modifier);
      std::string word = lower(name);
      auto e = parseExtend(word);
      if (!e && word != "lsl") return bad(*modifier, "expected an extend (uxtb .. sxtx) or lsl, got '" + word + "'");
      if (e) option = *e;
      auto a = amount(rest, word == "lsl");
      if (auto* m = std::get_if<Mismatch>(&a)) return *m;
      by = std::get<int64_t>(a);
      if (by < 0 || by > 4) return bad(*modifier, "extend amount " + std::to_string(by) + " is out of range 0..4", true);
    } else if (r->wide != rowWide) {
      return bad(p, rowWide ? "a 32-bit register here needs an extend (uxtw, sxtw, ...)"
                            : "expected a 32-bit (w) register, got '" + std::string(p.text) + "'", true);
    }
    bool wantWide = rowWide && (option & 3) == 3;
    if (r->wide != wantWide)
      return bad(p, std::string("'") + std::string(extendName(option)) + "' takes a " +
                        (wantWide ? "64-bit (x)" : "32-bit (w)") + " register, got '" + std::string(p.text) + "'", true);
    bool lslForm = !modifier || lower(firstWord(*modifier).first) == "lsl";
    if (lslForm && !usesSp())
      return bad(modifier ? *modifier : p, "an extended register without an extend (or with lsl) needs sp as the "
                                           "destination or first source; use the shifted-register form", true);
    place(k, 0, r->number);
    place(k, 1, option);
    place(k, 2, uint64_t(by));
    return std::nullopt;
  }

  // Is Rd or Rn (already placed: they come first) sp in this row?
  bool usesSp() const {
    for (unsigned i = 0; i < index_; ++i) {
      Opnd o = row_.operands[i];
      if ((o == Opnd::XdSp || o == Opnd::WdSp) && rdOf(uint32_t(unit_.bits)) == 31) return true;
      if ((o == Opnd::XnSp || o == Opnd::WnSp) && rnOf(uint32_t(unit_.bits)) == 31) return true;
    }
    return false;
  }

  std::optional<Mismatch> wide(Opnd k, Piece p, const std::optional<Piece>& modifier) {
    bool x = k == Opnd::WideX;
    auto r = constant(p);
    if (auto* m = std::get_if<Mismatch>(&r)) return *m;
    int64_t v = std::get<int64_t>(r), by = 0;
    if (v < 0 || v > 0xffff) return bad(p, "immediate " + std::to_string(v) + " is out of range 0..65535", true);
    if (modifier) {
      auto [name, rest] = firstWord(*modifier);
      if (lower(name) != "lsl") return bad(*modifier, "only lsl may follow the immediate", true);
      auto a = amount(rest, true);
      if (auto* m = std::get_if<Mismatch>(&a)) return *m;
      by = std::get<int64_t>(a);
      if (by < 0 || by > (x ? 48 : 16) || by % 16)
        return bad(*modifier, std::string("the shift must be lsl #0, #16") + (x ? ", #32 or #48" : ""), true);
    }
    op_.value = Value::constant(v);
    place(k, 0, uint64_t(v));
    place(k, 1, uint64_t(by / 16));
    return std::nullopt;
  }

  // mov #value as movz (the value is imm16 << 16*hw) or movn (its inverse).
  std::optional<Mismatch> moveWide(Opnd k, Piece p) {
    bool x = k == Opnd::MovzX || k == Opnd::MovnX, inverted = k == Opnd::MovnX || k == Opnd::MovnW;
    auto r = constant(p);
    if (auto* m = std::get_if<Mismatch>(&r)) return *m;
    auto v = fit(std::get<int64_t>(r), x);
    if (!v) return bad(p, hex(uint64_t(std::get<int64_t>(r))) + " does not fit a 32-bit register", true);
    uint64_t bits = inverted ? ~*v & (x ? ~0ull : 0xffffffffull) : *v;
    for (unsigned hw = 0; hw < (x ? 4u : 2u); ++hw) {
      if ((bits & ~(0xffffull << (16 * hw))) != 0) continue;
      op_.value = Value::constant(int64_t(*v));
      place(k, 0, bits >> (16 * hw));
      place(k, 1, hw);
      return std::nullopt;
    }
    return bad(p, hex(*v) + " cannot be moved by one instruction (not movz, movn or a logical immediate)", true);
  }

  // ---- memory operands
  std::optional<Mismatch> memory(Opnd k, Piece p) {
    auto b = bracket(p);
    if (!b) return bad(p, "expected a memory operand " + std::string(syntaxOf(k)) + ", got '" + std::string(p.text) + "'");
    bool pre = isPreIndex(k);
    if (b->writeback != pre)
      return bad(p, pre ? "a pre-index operand ends in ']!'" : "'!' (pre-index) is not allowed in this form");
    std::vector<Piece>& in = b->inner;
    unsigned base;
    if (in.empty()) return bad(p, "expected a base register");
    auto r = parseGpr(in[0].text);
    if (!r || !r->wide || (r->number == 31 && !r->sp))
      return bad(in[0], "the base must be a 64-bit register or sp, got '" + std::string(in[0].text) + "'");
    base = r->number;
    place(k, 0, base);
    op_.value = Value::constant(0);
    if (k == Opnd::MemBase) {
      if (in.size() != 1) return bad(p, "a post-index operand is '[Xn|SP], #imm'");
      return std::nullopt;
    }
    if (k == Opnd::MemRegB || k == Opnd::MemRegH || k == Opnd::MemRegW || k == Opnd::MemRegX)
      return registerOffset(k, p, in);
    if (in.size() > 2) return bad(p, "too many parts in '" + std::string(p.text) + "'");
    if (in.size() == 2 && parseGpr(in[1].text)) return bad(in[1], "a register offset is not allowed in this form");
    if (pre && in.size() != 2) return bad(p, "a pre-index operand is '[Xn|SP, #imm]!'");
    if (in.size() == 1) return std::nullopt;  // offset 0
    auto ri = immediate(in[1]);
    if (auto* m = std::get_if<Mismatch>(&ri)) return *m;
    auto& imm = std::get<Immediate>(ri);
    op_.value = imm.value, op_.reloc = imm.reloc;
    unsigned scale = accessScale(k);
    bool u12 = k == Opnd::MemU12B || k == Opnd::MemU12H || k == Opnd::MemU12W || k == Opnd::MemU12X;
    if (imm.reloc == Reloc::Lo12 && !u12) return bad(in[1], ":lo12: needs the unsigned-offset form", true);
    if (!imm.value.isConstant() && imm.reloc == Reloc::None)
      return bad(in[1], "an offset must be a constant, but '" + imm.value.symbol + "' has no concrete address", true);
    if (imm.reloc == Reloc::Lo12) {
      if (!imm.value.isConstant()) {
        unit_.symbolicMask |= layoutOf(k).fields[1].mask();
        return std::nullopt;
      }
      uint64_t lo = uint64_t(imm.value.addend) & 0xfff;
      if (lo & ((1u << scale) - 1))
        return bad(in[1], ":lo12: of " + hex(uint64_t(imm.value.addend)) + " is not a multiple of the access size " +
                              std::to_string(1u << scale), true);
      place(k, 1, lo >> scale);
      return std::nullopt;
    }
    return offset(k, in[1], imm.value.addend);
  }

  std::optional<Mismatch> offset(Opnd k, Piece at, int64_t v) {
    unsigned scale = accessScale(k);
    int64_t size = int64_t(1) << scale;
    switch (k) {
      case Opnd::MemU12B: case Opnd::MemU12H: case Opnd::MemU12W: case Opnd::MemU12X:
        if (v % size || v < 0 || v > 4095 * size)
          return bad(at, "offset " + std::to_string(v) + " is not a multiple of " + std::to_string(size) + " in 0.." +
                             std::to_string(4095 * size) + ", nor in -256..255 for the unscaled form", true);
        place(k, 1, uint64_t(v / size));
        return std::nullopt;
      case Opnd::MemS9: case Opnd::MemPre9: case Opnd::Post9:
        if (v < -256 || v > 255) return bad(at, "offset " + std::to_string(v) + " is out of range -256..255", true);
        place(k, k == Opnd::Post9 ? 0 : 1, uint64_t(v));
        return std::nullopt;
      default: {  // pairs: a signed 7-bit multiple of the size
        if (v % size) return bad(at, "offset " + std::to_string(v) + " is not a multiple of " + std::to_string(size), true);
        if (v < -64 * size || v > 63 * size)
          return bad(at, "offset " + std::to_string(v) + " is out of range " + std::to_string(-64 * size) + ".." +
                             std::to_string(63 * size), true);
        place(k, isPostIndex(k) ? 0 : 1, uint64_t(v / size));
        return std::nullopt;
      }
    }
  }

  // [Xn|SP, Xm{, lsl #s}] or [Xn|SP, Wm, uxtw|sxtw {#s}] or [.., Xm, sxtx {#s}]:
  // s is 0 or the access size's log2; writing it sets S (always, for bytes).
  std::optional<Mismatch> registerOffset(Opnd k, Piece p, const std::vector<Piece>& in) {
    if (in.size() < 2 || in.size() > 3) return bad(p, "expected [Xn|SP, Xm{, lsl #amount}]");
    auto rm = parseGpr(in[1].text);
    if (!rm || (rm->number == 31 && rm->sp)) return bad(in[1], "expected an offset register, got '" + std::string(in[1].text) + "'");
    unsigned option = 3, scale = accessScale(k);
    bool s = false;
    if (in.size() == 3) {
      auto [name, rest] = firstWord(in[2]);
      std::string word = lower(name);
      auto e = parseExtend(word);
      if (word == "lsl") option = 3;
      else if (e && (*e == 2 || *e == 6 || *e == 7)) option = *e;
      else return bad(in[2], "'" + word + "' is not allowed in a register offset (lsl, uxtw, sxtw, sxtx)", true);
      auto a = amount(rest, word == "lsl");
      if (auto* m = std::get_if<Mismatch>(&a)) return *m;
      int64_t by = std::get<int64_t>(a);
      if (by != 0 && by != int64_t(scale))
        return bad(in[2], "the shift amount must be 0" + (scale ? " or " + std::to_string(scale) : std::string()), true);
      s = scale == 0 ? !rest.text.empty() : by != 0;
    }
    bool wantWide = option & 1;  // lsl and sxtx take x, uxtw and sxtw take w
    if (rm->wide != wantWide)
      return bad(in[1], std::string("'") + (option == 3 ? "lsl" : std::string(extendName(option))) + "' takes a " +
                            (wantWide ? "64-bit (x)" : "32-bit (w)") + " offset register, got '" +
                            std::string(in[1].text) + "'", true);
    place(k, 1, rm->number);
    place(k, 2, option);
    place(k, 3, s ? 1 : 0);
    return std::nullopt;
  }
};

}  // namespace

std::optional<Mismatch> OperandEncoder::encode(const InstrDesc& row, unsigned index, std::span<const Piece> pieces,
                                               size_t& at, AssembledUnit& unit) const {
  return Encoding(names_, row, index, unit).run(pieces, at);
}

std::string_view syntaxOf(Opnd k) {
  switch (k) {
    case Opnd::None: return "";
    case Opnd::Keyword: return "keyword";
    case Opnd::Xd: case Opnd::Xn: case Opnd::Xm: case Opnd::Xt: case Opnd::Xt2: return "Xn|XZR";
    case Opnd::Wd: case Opnd::Wn: case Opnd::Wm: case Opnd::Wt: case Opnd::Wt2: return "Wn|WZR";
    case Opnd::XdSp: case Opnd::XnSp: return "Xn|SP";
    case Opnd::WdSp: case Opnd::WnSp: return "Wn|WSP";
    case Opnd::Label26: case Opnd::Label19: case Opnd::Label14: case Opnd::AdrLabel: case Opnd::AdrpLabel:
      return "label";
    case Opnd::BitW: return "#0..31";
    case Opnd::BitX: return "#0..63";
    case Opnd::Imm16: case Opnd::UdfImm16: return "#imm16";
    case Opnd::Hint7: return "#0..127";
    case Opnd::Barrier: return "sy|st|ld|ish|ishst|ishld|nsh|...|#0..15";
    case Opnd::IsbOpt: return "sy|#0..15";
    case Opnd::Imm4: return "#0..15";
    case Opnd::AddImm: return "#imm12{, lsl #12}";
    case Opnd::ShiftedX: return "Xm{, lsl|lsr|asr #0..63}";
    case Opnd::ShiftedW: return "Wm{, lsl|lsr|asr #0..31}";
    case Opnd::LogShiftedX: return "Xm{, lsl|lsr|asr|ror #0..63}";
    case Opnd::LogShiftedW: return "Wm{, lsl|lsr|asr|ror #0..31}";
    case Opnd::ExtendedX: return "Wm|Xm{, extend {#0..4}}";
    case Opnd::ExtendedW: return "Wm{, extend {#0..4}}";
    case Opnd::BitmaskX: case Opnd::BitmaskW: return "#bitmask";
    case Opnd::InvBitmaskX: case Opnd::InvBitmaskW: return "#imm (~imm a bitmask)";
    case Opnd::WideX: return "#imm16{, lsl #0|16|32|48}";
    case Opnd::WideW: return "#imm16{, lsl #0|16}";
    case Opnd::MovzX: case Opnd::MovzW: case Opnd::MovnX: case Opnd::MovnW: case Opnd::MovBitmaskX:
    case Opnd::MovBitmaskW: return "#imm";
    case Opnd::MemU12B: case Opnd::MemU12H: case Opnd::MemU12W: case Opnd::MemU12X: case Opnd::MemS9:
    case Opnd::MemP7W: case Opnd::MemP7X: return "[Xn|SP{, #imm}]";
    case Opnd::MemPre9: case Opnd::MemP7PreW: case Opnd::MemP7PreX: return "[Xn|SP, #imm]!";
    case Opnd::MemBase: return "[Xn|SP]";
    case Opnd::Post9: case Opnd::Post7W: case Opnd::Post7X: return "#imm";
    case Opnd::MemRegB: case Opnd::MemRegH: case Opnd::MemRegW: case Opnd::MemRegX:
      return "[Xn|SP, Xm|Wm{, extend {#amount}}]";
    case Opnd::SysReg: return "system register";
    case Opnd::Cond: return "eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al|nv";
    case Opnd::InvCond: return "eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le";
    case Opnd::XnRm: return "Xn|XZR";
    case Opnd::WnRm: return "Wn|WZR";
  }
  return "";
}

}  // namespace patchcheck::arm64
