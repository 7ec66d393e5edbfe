#include "encoder/mips/Assembler.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <unordered_map>

#include "encoder/Hex.h"
#include "encoder/gnu/Directives.h"
#include "encoder/gnu/Labels.h"
#include "encoder/gnu/Source.h"
#include "encoder/mips/Fields.h"
#include "encoder/mips/Registers.h"

namespace patchcheck::mips {
namespace {

using gnu::Piece;
using gnu::trim;

// A statement's operands: the first four kept in place (no row takes more;
// the count is exact, for the error message), no allocation per line.
class Pieces {
 public:
  void push_back(Piece p) {
    if (n_ < kept_.size()) kept_[n_] = p;
    ++n_;
  }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const Piece& operator[](size_t i) const { return kept_[i]; }

 private:
  std::array<Piece, 4> kept_{};
  size_t n_ = 0;
};

// Where a statement starts, without the file name (added per word).
struct Place {
  unsigned line = 0, column = 0;
};

// One instruction or .word line after pass 1. Views point into the source,
// which outlives the assembly run.
struct Statement {
  std::string mnemonic;   // lower case
  Pieces operands;
  Place where;
  std::string_view source;
  size_t firstWord = 0;   // index of its first word
  unsigned event = 0;     // for numeric local labels
};

// The rows of each mnemonic, in table order, built once: the assembler's
// row lookup is one hash probe instead of a scan of the table.
const std::vector<const InstrDesc*>* rowsNamed(std::string_view mnemonic) {
  static const auto index = [] {
    std::unordered_map<std::string_view, std::vector<const InstrDesc*>> m;
    for (const InstrDesc& d : instructionTable()) m[d.mnemonic].push_back(&d);
    return m;
  }();
  auto it = index.find(mnemonic);
  return it == index.end() ? nullptr : &it->second;
}

std::string describeIsas(IsaSet s) {
  std::string out;
  for (Isa i : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6})
    if (s & bit(i)) out += (out.empty() ? "" : ", ") + std::string(name(i));
  return out;
}

std::string_view kindSyntax(Opnd k) {
  switch (k) {
    case Opnd::Rs: return "rs";
    case Opnd::Rt: return "rt";
    case Opnd::Rd: return "rd";
    case Opnd::RtRs: return "rt";
    case Opnd::RsAgain: return "rs";
    case Opnd::Zero: return "$zero";
    case Opnd::Mem16: case Opnd::Mem9: return "offset(base)";
    case Opnd::Br16: case Opnd::Br21: case Opnd::Br26: return "target";
    case Opnd::Jump26: return "target";
    case Opnd::Cp0Reg: return "$cp0reg";
    case Opnd::Sel: return "sel";
    case Opnd::Sa: case Opnd::SaHi: case Opnd::LsaSa: return "sa";
    case Opnd::RdRt: return "rd";
    case Opnd::Pos: case Opnd::PosHi: return "pos";
    case Opnd::SizeExt: case Opnd::SizeExtHi: case Opnd::SizeIns: case Opnd::SizeInsHi: return "size";
    case Opnd::Bp2: case Opnd::Bp3: return "bp";
    case Opnd::HwReg: return "$hwreg";
    case Opnd::HwSel: return "sel";
    case Opnd::Pc19: case Opnd::Pc18: return "address";
    case Opnd::PcOff19: return "offset";
    case Opnd::Stype: return "stype";
    case Opnd::Op5: return "op";
    default: return "imm";
  }
}

std::string syntaxOf(const InstrDesc& d) {
  std::string s(d.mnemonic);
  for (unsigned i = 0; i < d.operandCount(); ++i)
    s += (i ? ", " : " ") + std::string(kindSyntax(d.operands[i]));
  return s;
}

// A branch-and-link that tests $31, which its own link overwrites: bltzal
// and friends (rs, UNPREDICTABLE in the manuals) and R6 bgezalc/bltzalc
// (rs = rt); GNU as refuses both.
bool testsLinkRegister(const InstrDesc& d, uint32_t w) {
  if (!(d.flags & kLink) || d.op == Op::Jalr || d.op == Op::JalrHb) return false;
  if ((d.flags & kDelaySlot) && d.operands[0] == Opnd::Rs) return rsOf(w) == reg::ra;
  return d.operands[0] == Opnd::RtRs && rtOf(w) == reg::ra;
}

// Why one candidate row did not fit, and where.
struct Mismatch {
  unsigned column;
  std::string message;
  bool range = false;  // a value was out of range (for li's message)
};

class Assembler {
 public:
  Assembler(const std::string& file, const AssemblyOptions& o) : file_(file), opt_(o) {}

  std::variant<Assembly, Diagnostics> run(std::string_view source) {
    if (auto p = targetProblem(opt_.target)) {
      errors_.push_back({{file_, 0, 0}, *p});
      return errors_;
    }
    passOne(source);
    if (!errors_.empty()) return errors_;
    out_.words.reserve(statements_.size());
    for (const Statement& s : statements_) passTwo(s);
    if (errors_.empty()) checkSlots();
    if (!errors_.empty()) return errors_;
    for (const auto& [name, word] : labels_.all()) out_.labels[name] = addressOf(word);
    return std::move(out_);
  }

 private:
  std::string file_;
  const AssemblyOptions& opt_;
  Diagnostics errors_;
  std::vector<Statement> statements_;
  gnu::Labels labels_;  // at word indexes
  gnu::GivenSymbols given_{opt_.symbols, opt_.symbolic};
  Assembly out_;
  size_t words_ = 0;

  void error(unsigned line, unsigned col, std::string msg) {
    errors_.push_back({{file_, line, col}, std::move(msg)});
  }

  Value addressOf(size_t word) const { return opt_.base.plus(int64_t(4 * word)); }

  // ---- pass 1: labels, directives, statement boundaries
  void passOne(std::string_view source) {
    statements_.reserve(size_t(std::count(source.begin(), source.end(), '\n')) + 1);
    gnu::forEachStatement(source, gnu::Comments::Hash, [&](unsigned line, Piece p) { statement(line, p); });
  }

  void statement(unsigned line, Piece p) {
    // Labels: `name:` or `N:`, any number of them (`$` starts a register).
    gnu::takeLabels(p, false, [&](gnu::Label l) {
      if (auto e = labels_.define(l.name, words_, given_)) error(line, l.column, *e);
    });
    std::string_view t = p.text;
    unsigned col = p.column;
    if (t.empty()) return;
    auto [mnemonic, rest] = gnu::headOf(p);
    SourceLocation where{file_, line, col};
    if (mnemonic[0] == '.') {
      directive(mnemonic, rest, where);
      return;
    }
    Statement s{mnemonic, gnu::splitOperands<Pieces>(rest), {line, col}, trim(t), words_, labels_.event()};
    statements_.push_back(std::move(s));
    ++words_;
  }

  void directive(const std::string& d, Piece rest, const SourceLocation& where) {
    std::string_view arg = trim(rest.text);
    if (d == ".set") {
      static const char* ok[] = {"noreorder", "noat", "push", "pop", "nomacro", "mips32r2",
                                 "mips64r2", "mips32r6", "mips64r6", "nomips16", "nomicromips"};
      for (const char* o : ok)
        if (arg == o) return;
      if (arg == "reorder" || arg == "at" || arg == "macro")
        error(where.line, rest.column + 1,
              "'.set " + std::string(arg) + "' is not supported: patchcheck assembles under "
              ".set noreorder and .set noat, one line per word");
      else
        error(where.line, rest.column + 1, "unknown '.set " + std::string(arg) + "'");
      return;
    }
    if (gnu::dataWidth(d, 4) == 4) {  // .word, .long, .int, .4byte: a word each
      for (const Piece& p : gnu::splitOperands<std::vector<Piece>>(rest)) {
        Pieces one;
        one.push_back(p);
        Statement s{".word", one, {where.line, where.column}, trim(rest.text), words_, labels_.event()};
        statements_.push_back(std::move(s));
        ++words_;
      }
      return;
    }
    if (gnu::isIgnored(d, {".ent", ".end", ".frame", ".mask", ".fmask", ".insn"})) return;
    error(where.line, where.column, "unknown directive '" + d + "'");
  }

  // ---- pass 2: choose the row, resolve operands, encode
  void passTwo(const Statement& s) {
    auto at = [this](uint64_t word) { return addressOf(size_t(word)); };
    gnu::StatementNames names(labels_, given_, s.event, s.firstWord, at);
    AssembledWord w;
    w.address = addressOf(s.firstWord);
    w.where = SourceLocation{file_, s.where.line, s.where.column};
    w.source = std::string(s.source);
    if (s.mnemonic == ".word") {
      const Piece& p = s.operands[0];
      auto e = parseExpression(p.text, names);
      if (auto* err = std::get_if<ExprError>(&e)) {
        error(s.where.line, p.column + unsigned(err->offset), err->message);
        return;
      }
      Expr x = std::get<Expr>(e);
      if (x.isConstant()) {
        uint64_t v = applyReloc(x.reloc, uint64_t(x.value.addend));
        if (int64_t(v) < -0x80000000ll || (int64_t(v) > 0xffffffffll && x.reloc == Reloc::None)) {
          error(s.where.line, p.column, ".word value " + hex(v) + " does not fit 32 bits");
          return;
        }
        w.bits = uint32_t(v);
      } else {
        w.symbolicMask = 0xffffffff;
      }
      w.operands[0] = Operand{Opnd::None, 0, x};
      out_.words.push_back(std::move(w));
      return;
    }

    const std::vector<const InstrDesc*>* named = rowsNamed(s.mnemonic);
    if (!named) {
      error(s.where.line, s.where.column, "unknown instruction '" + s.mnemonic + "'");
      return;
    }
    IsaSet where = 0;
    for (auto* d : *named) where |= d->isas;
    if (!opt_.target.has(where)) {
      error(s.where.line, s.where.column,
            "'" + s.mnemonic + "' is not available in " + std::string(name(opt_.target.isa)) +
                " (only in " + describeIsas(where) + ")");
      return;
    }
    std::optional<Mismatch> first;
    bool anyCount = false, allRange = true;
    for (const InstrDesc* d : *named) {
      if (!opt_.target.has(d->isas) || d->operandCount() != s.operands.size()) continue;
      anyCount = true;
      auto m = tryRow(*d, s, names, w);
      if (!m) {
        out_.words.push_back(std::move(w));
        return;
      }
      allRange = allRange && m->range;
      if (!first) first = m;
    }
    if (!anyCount) {
      std::string forms;
      for (auto* d : *named)
        if (opt_.target.has(d->isas) && (!(d->flags & kAsmOnly) || d->mnemonic == "li"))
          forms += (forms.empty() ? "" : " | ") + syntaxOf(*d);
      error(s.where.line, s.where.column,
            "'" + s.mnemonic + "' takes " + forms + " (got " + std::to_string(s.operands.size()) +
                " operand" + (s.operands.size() == 1 ? "" : "s") + ")");
      return;
    }
    if (s.mnemonic == "li" && allRange) {
      error(s.where.line, s.operands[1].column,
            "li " + std::string(s.operands[1].text) +
                " needs more than one word (lui+ori); a line must be one instruction, "
                "so write the words explicitly");
      return;
    }
    error(s.where.line, first->column, first->message);
  }

  // Fills `w` from row `d`, or says why the row does not fit.
  std::optional<Mismatch> tryRow(const InstrDesc& d, const Statement& s, const NameResolver& names,
                                 AssembledWord& w) {
    w.desc = &d;
    w.bits = d.match;
    w.symbolicMask = 0;
    for (unsigned i = 0; i < d.operandCount(); ++i) {
      Opnd k = d.operands[i];
      const Piece& p = s.operands[i];
      Operand& op = w.operands[i];
      op = Operand{k, 0, {}};
      if (isRegisterKind(k)) {
        auto r = parseGpr(p.text, opt_.target.abi);
        if (!r) return Mismatch{p.column, "expected a register, got '" + std::string(p.text) + "'"};
        if (k == Opnd::RsAgain && (i == 0 || *r != w.operands[i - 1].reg))
          return Mismatch{p.column, "'" + s.mnemonic + "' names its register twice (" +
                                        s.mnemonic + " rs, rs, imm); operand " +
                                        std::to_string(i + 1) + " must repeat operand " +
                                        std::to_string(i)};
        if (k == Opnd::Zero && *r != 0)
          return Mismatch{p.column, "operand " + std::to_string(i + 1) + " of '" + s.mnemonic +
                                        "' must be $zero here"};
        op.reg = *r;
        w.bits |= placeRegister(k, *r);
        continue;
      }
      if (k == Opnd::Cp0Reg || k == Opnd::HwReg) {
        bool numeric = p.text.size() >= 2 && p.text[0] == '$' &&
                       std::isdigit((unsigned char)p.text[1]);
        auto r = numeric ? parseGpr(p.text, Abi::O32) : std::nullopt;
        if (!r)
          return Mismatch{p.column, std::string(k == Opnd::Cp0Reg ? "expected a coprocessor 0 register"
                                                                  : "expected a hardware register") +
                                        " $0..$31, got '" + std::string(p.text) + "'"};
        op.reg = *r;
        w.bits |= placeImmediate(k, *r);
        continue;
      }
      std::string_view exprText = p.text;
      unsigned exprColumn = p.column;
      if (isMemoryKind(k)) {
        size_t close = p.text.size();
        size_t open = p.text.rfind('(');
        if (close == 0 || p.text.back() != ')' || open == std::string_view::npos)
          return Mismatch{p.column, "expected offset(base), got '" + std::string(p.text) + "'"};
        auto base = parseGpr(trim(p.text.substr(open + 1, close - open - 2)), opt_.target.abi);
        if (!base)
          return Mismatch{p.column + unsigned(open) + 1, "expected a base register in '" +
                                                            std::string(p.text) + "'"};
        op.reg = *base;
        w.bits |= placeRegister(k, *base);
        exprText = trim(p.text.substr(0, open));
        if (exprText.empty()) exprText = "0";
      }
      auto parsed = parseExpression(exprText, names);
      if (auto* err = std::get_if<ExprError>(&parsed))
        return Mismatch{exprColumn + unsigned(err->offset), err->message};
      op.expr = std::get<Expr>(parsed);
      if (auto m = placeValue(d, i, op, w, exprColumn)) return m;
    }
    if (d.flags & kCommutativeHi) {
      // R6 bovc/bnvc: GNU as puts the higher register in rs.
      unsigned a = w.operands[0].reg, b = w.operands[1].reg;
      if (a < b) {
        std::swap(w.operands[0].reg, w.operands[1].reg);
        w.bits = (w.bits & ~0x03ff0000u) | placeRegister(Opnd::Rs, b) | placeRegister(Opnd::Rt, a);
      }
    }
    if (d.flags & kCommutative) {
      // R6 beqc/bnec: GNU as puts the lower register in rs.
      unsigned a = w.operands[0].reg, b = w.operands[1].reg;
      if (a == 0 || b == 0)
        return Mismatch{s.operands[0].column, "the source register must not be $0"};
      if (a == b)
        return Mismatch{s.operands[0].column, "'" + s.mnemonic + "' needs two different registers"};
      if (a > b) {
        std::swap(w.operands[0].reg, w.operands[1].reg);
        w.bits = (w.bits & ~0x03ff0000u) | placeRegister(Opnd::Rs, b) | placeRegister(Opnd::Rt, a);
      }
    }
    if (d.rule == FieldRule::RtNotRa && rtOf(w.bits) == reg::ra)
      return Mismatch{s.operands[0].column, "'" + s.mnemonic + " $31' links into the register it "
                      "jumps through; GNU as wants it written 'jialc $31, 0'"};
    if (!satisfiesRule(d.rule, w.bits)) {
      bool zero = (d.rule == FieldRule::RsNonZero && rsOf(w.bits) == 0) ||
                  (d.rule == FieldRule::RsZeroRtNonZero && rtOf(w.bits) == 0) ||
                  (d.rule == FieldRule::RsEqRtNonZero && rtOf(w.bits) == 0) ||
                  (d.rule == FieldRule::RsNeRtBothNonZero && (rsOf(w.bits) == 0 || rtOf(w.bits) == 0));
      return Mismatch{s.operands[0].column,
                      zero ? "the source register must not be $0"
                           : "invalid operands for '" + s.mnemonic + "': rs and rt must differ"};
    }
    if (testsLinkRegister(d, w.bits) && !opt_.allowUnpredictable)
      return Mismatch{s.operands[0].column,
                      "'" + s.mnemonic + "' testing $31 is UNPREDICTABLE (the link overwrites "
                      "the register it tests); the source register must not be $31"};
    // R6 jr/jr.hb are jalr with rd = $0: no link, so rs may be $0.
    if ((d.op == Op::Jalr || d.op == Op::JalrHb) && !(d.flags & kAlias) &&
        rdOf(w.bits) == rsOf(w.bits) &&
        !opt_.allowUnpredictable)
      return Mismatch{s.operands[0].column,
                      "jalr with rd == rs is UNPREDICTABLE (an exception in its delay slot "
                      "re-executes the jalr with the link already written); source and "
                      "destination must be different"};
    return std::nullopt;
  }

  // Resolves one immediate, offset or target into its field.
  std::optional<Mismatch> placeValue(const InstrDesc& d, unsigned i, Operand& op, AssembledWord& w,
                                     unsigned col) {
    Opnd k = op.kind;
    const Expr& e = op.expr;
    bool is64 = opt_.target.is64();
    if (k == Opnd::Br16 || k == Opnd::Br21 || k == Opnd::Br26 || k == Opnd::Jump26) {
      if (e.reloc != Reloc::None)
        return Mismatch{col, std::string(relocName(e.reloc)) + " cannot be a branch target"};
      Value slot = w.address.plus(4);
      if (k == Opnd::Jump26) {
        if (!e.isConstant() || !slot.isConstant()) {
          w.symbolicMask |= operandBits(k);
          return std::nullopt;
        }
        uint64_t target = uint64_t(e.value.addend), pc = uint64_t(slot.addend);
        if (!is64) target &= 0xffffffff, pc &= 0xffffffff;
        if (target & 3) return Mismatch{col, "jump target " + hex(target) + " is not word-aligned"};
        if ((target & ~0x0fffffffull) != (pc & ~0x0fffffffull))
          return Mismatch{col, "jump target " + hex(target) +
                                   " is outside the 256 MB region of the delay slot at " + hex(pc) +
                                   " (j/jal reach only " + hex(pc & ~0x0fffffffull) + ".." +
                                   hex((pc & ~0x0fffffffull) | 0x0ffffffc) + ")"};
        w.bits |= placeImmediate(k, target >> 2);
        return std::nullopt;
      }
      if (e.value.symbol != slot.symbol) {
        w.symbolicMask |= operandBits(k);
        return std::nullopt;
      }
      int64_t diff = int64_t(uint64_t(e.value.addend) - uint64_t(slot.addend));
      if (!is64) diff = int64_t(int32_t(uint32_t(diff)));
      if (diff & 3) return Mismatch{col, "branch target is not word-aligned (offset " + std::to_string(diff) + ")"};
      unsigned width = immediateWidth(k);
      int64_t words = diff >> 2, limit = int64_t(1) << (width - 1);
      if (words < -limit || words >= limit)
        return Mismatch{col, "branch offset " + std::to_string(diff) + " bytes is out of range for '" +
                                 std::string(d.mnemonic) + "' (" + std::to_string(width) +
                                 "-bit word offset: -" + std::to_string(limit * 4) + ".." +
                                 std::to_string((limit - 1) * 4) + ")"};
      w.bits |= placeImmediate(k, uint64_t(words));
      return std::nullopt;
    }
    if (isPcRelativeKind(k)) return placePcRelative(d, op, w, col);
    if (!e.isConstant()) {
      bool symbolicOk = k == Opnd::Simm16 || k == Opnd::Uimm16 || k == Opnd::Mem16;
      if (!symbolicOk)
        return Mismatch{col, "operand " + std::to_string(i + 1) + " of '" + std::string(d.mnemonic) +
                                 "' must be a constant, but '" + e.value.symbol +
                                 "' has no concrete address"};
      w.symbolicMask |= placeImmediate(k, ~0ull);
      return std::nullopt;
    }
    uint64_t raw = applyReloc(e.reloc, uint64_t(e.value.addend));
    if (e.reloc == Reloc::Hi && opt_.requireLuiReach && opt_.target.is64() && d.mnemonic == "lui") {
      // lui + daddiu %lo form x iff x + 0x8000 is a sign-extended 32-bit
      // value (SymbolicWord.cpp says the same for symbolic addresses).
      uint64_t rounded = uint64_t(e.value.addend) + 0x8000;
      if (rounded != uint64_t(int64_t(int32_t(uint32_t(rounded)))))
        return Mismatch{col, "address " + hex(uint64_t(e.value.addend)) + " cannot be formed by lui %hi + "
                                 "daddiu %lo (it lies outside the 32-bit compatibility segments)"};
    }
    if (e.reloc != Reloc::None) {
      if (immediateWidth(k) != 16 || k == Opnd::LiSimm || k == Opnd::LiUimm || k == Opnd::LiHi)
        return Mismatch{col, std::string(relocName(e.reloc)) + " is not allowed here"};
      w.bits |= placeImmediate(k, raw);
      return std::nullopt;
    }
    int64_t v = int64_t(raw);
    if (k == Opnd::LiSimm || k == Opnd::LiUimm || k == Opnd::LiHi) {
      // GNU as folds 32-bit constants to their sign-extended value (also on MIPS64).
      if (v >= 0x80000000ll && v <= 0xffffffffll) v = int64_t(int32_t(uint32_t(v)));
      if (k == Opnd::LiHi) {
        if ((v & 0xffff) != 0 || v < -0x80000000ll || v > 0x7fffffffll)
          return Mismatch{col, "li value " + hex(uint64_t(v)) + " out of range", true};
        w.bits |= placeImmediate(k, uint64_t(v) >> 16);
        return std::nullopt;
      }
    }
    auto range = immediateRange(k);
    if (range && !range->contains(v))
      return Mismatch{col, "operand " + std::to_string(i + 1) + " of '" + std::string(d.mnemonic) +
                               "' is out of range: " + std::to_string(v) + " not in " +
                               std::to_string(range->lo) + ".." + std::to_string(range->hi),
                      true};
    if (k == Opnd::PcOff19) {
      if (v & 3)
        return Mismatch{col, "operand " + std::to_string(i + 1) + " of '" + std::string(d.mnemonic) +
                                 "' must be a multiple of 4 (a word offset), got " + std::to_string(v),
                        true};
      v >>= 2;
    } else if (isBitFieldSize(k)) {
      // ins/ext and their doubleword forms: the size is checked against the
      // position (the operand before it) and ins keeps pos + size - 1.
      int64_t pos = w.operands[i - 1].expr.value.addend, end = pos + v;
      int64_t limit = d.op == Op::Ext || d.op == Op::Ins || d.op == Op::Dins ? 32 : 64;
      // pos + size past the register is UNPREDICTABLE: GNU as refuses it,
      // and so do we unless UNPREDICTABLE encodings are allowed (the
      // decoder prints such words; they must reassemble). dins past 32 is
      // not that case: dinsm/dinsu encode it.
      bool unpredictable = end > limit && d.op != Op::Dins && opt_.allowUnpredictable;
      if ((end > limit && !unpredictable) || (k == Opnd::SizeInsHi && end <= 32))
        return Mismatch{col, "operand " + std::to_string(i + 1) + " of '" + std::string(d.mnemonic) +
                                 "' is out of range: pos + size = " + std::to_string(end) +
                                 (end > limit ? " exceeds " + std::to_string(limit)
                                              : " does not exceed 32"),
                        true};
      if (isInsertSizeKind(k)) v += pos;
    }
    v -= valueBias(k);
    w.bits |= placeImmediate(k, uint64_t(v));
    return std::nullopt;
  }

  static bool isBitFieldSize(Opnd k) {
    return k == Opnd::SizeExt || k == Opnd::SizeExtHi || isInsertSizeKind(k);
  }

  // R6 lapc/lwpc/lwupc/ldpc: an address in this file, relative to the
  // instruction itself (ldpc: to its doubleword, pc & ~7).
  std::optional<Mismatch> placePcRelative(const InstrDesc& d, const Operand& op, AssembledWord& w,
                                          unsigned col) {
    Opnd k = op.kind;
    const Expr& e = op.expr;
    if (e.reloc != Reloc::None)
      return Mismatch{col, std::string(relocName(e.reloc)) + " cannot be a PC-relative address"};
    Value here = w.address;
    if (e.value.symbol != here.symbol || (k == Opnd::Pc18 && !here.isConstant()))
      return Mismatch{col, "'" + std::string(d.mnemonic) + "' needs an address at a known distance "
                           "from the instruction (a label of this file)"};
    unsigned scale = k == Opnd::Pc18 ? 8 : 4;
    uint64_t from = uint64_t(here.addend) & ~uint64_t(scale - 1);
    int64_t diff = int64_t(uint64_t(e.value.addend) - from);
    if (!opt_.target.is64()) diff = int64_t(int32_t(uint32_t(diff)));
    if (diff & int64_t(scale - 1))
      return Mismatch{col, "PC-relative access to a misaligned address (" + std::to_string(scale) +
                               "-byte units from " + hex(from) + ")"};
    unsigned width = immediateWidth(k);
    int64_t units = diff / int64_t(scale), limit = int64_t(1) << (width - 1);
    if (units < -limit || units >= limit)
      return Mismatch{col, "PC-relative offset " + std::to_string(diff) + " bytes is out of range for '" +
                               std::string(d.mnemonic) + "' (" + std::to_string(width) + "-bit offset in " +
                               std::to_string(scale) + "-byte units)"};
    w.bits |= placeImmediate(k, uint64_t(units));
    return std::nullopt;
  }

  // A control transfer in a delay slot or R6 forbidden slot.
  void checkSlots() {
    if (opt_.allowUnpredictable) return;
    for (size_t i = 0; i + 1 < out_.words.size(); ++i) {
      const InstrDesc* a = out_.words[i].desc;
      const InstrDesc* b = out_.words[i + 1].desc;
      if (!a || !b || !b->isControlTransfer()) continue;
      bool delay = a->flags & kDelaySlot, forbidden = a->flags & kForbiddenSlot;
      if (!delay && !forbidden) continue;
      const auto& at = out_.words[i + 1].where;
      std::string what = delay ? "the delay slot" : "the forbidden slot";
      std::string effect = opt_.target.isR6() ? "a Reserved Instruction exception in R6"
                                              : "UNPREDICTABLE";
      if (forbidden) effect = "a Reserved Instruction exception";
      error(at.line, at.column,
            "'" + std::string(b->mnemonic) + "' in " + what + " of '" + std::string(a->mnemonic) +
                "' (line " + std::to_string(out_.words[i].where.line) + ") is " + effect);
    }
  }
};

}  // namespace

std::variant<Assembly, Diagnostics> assemble(std::string_view source, const std::string& file,
                                             const AssemblyOptions& opt) {
  return Assembler(file, opt).run(source);
}

std::variant<std::vector<uint32_t>, Diagnostics> concreteWords(const Assembly& a) {
  std::vector<uint32_t> out;
  Diagnostics errs;
  for (const AssembledWord& w : a.words) {
    if (!w.isConcrete()) {
      std::string sym;
      for (const Operand& o : w.operands)
        if (!o.expr.value.symbol.empty()) sym = o.expr.value.symbol;
      errs.push_back({w.where, "'" + w.source + "' depends on '" + sym +
                                   "', which has no concrete address (give it with --sym)"});
      continue;
    }
    out.push_back(w.bits);
  }
  if (!errs.empty()) return errs;
  return out;
}

}  // namespace patchcheck::mips
