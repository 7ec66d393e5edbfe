#include "encoder/riscv/Assembler.h"

#include <algorithm>
#include <optional>

#include "encoder/Hex.h"
#include "encoder/gnu/Directives.h"
#include "encoder/gnu/Labels.h"
#include "encoder/gnu/Source.h"
#include "encoder/riscv/Encoder.h"
#include "encoder/riscv/Registers.h"

namespace patchcheck::riscv {
namespace {

using gnu::Piece;
using gnu::trim;

struct Place {
  unsigned line = 0, column = 0;
};

// One statement after pass 1. Views point into the source, which outlives the run.
struct Statement {
  enum class Kind : uint8_t { Instruction, Data, Insn };
  Kind kind = Kind::Instruction;
  std::string mnemonic;  // lower case; a data directive's name
  std::vector<Piece> operands;
  Place where;
  std::string_view source;
  unsigned event = 0;  // numeric local labels defined before it
  bool rvc = true;     // .option rvc/norvc in force
  unsigned width = 0;  // Data: bytes per value
};

// .option push/pop save these.
struct Options {
  bool rvc = true;
};

class Assembler {
 public:
  Assembler(const std::string& file, const AssemblyOptions& o) : file_(file), opt_(o) {}

  std::variant<Assembly, Diagnostics> run(std::string_view source) {
    if (opt_.xlen != 32 && opt_.xlen != 64) return Diagnostics{{{file_, 0, 0}, "xlen is 32 or 64"}};
    passOne(source);
    if (!errors_.empty()) return errors_;
    layout();
    std::vector<AssembledUnit> units;
    for (size_t i = 0; i < statements_.size(); ++i) encodeStatement(i, units, &errors_);
    if (!errors_.empty()) return errors_;
    Assembly out;
    out.units = std::move(units);
    for (const auto& [name, index] : labels_.all()) out.labels[name] = addressOf(size_t(index));
    return out;
  }

 private:
  std::string file_;
  const AssemblyOptions& opt_;
  Diagnostics errors_;
  std::vector<Statement> statements_;
  gnu::Labels labels_;  // a label is the address of the statement at its index
  gnu::GivenSymbols given_{opt_.symbols, opt_.symbolic};
  std::vector<uint64_t> offsets_;             // of each statement, and the end
  std::vector<std::vector<unsigned>> grown_;  // relaxation: each unit's least length
  std::map<int64_t, Value> pcrelHi_;          // auipc offset from the base -> its %pcrel_hi target

  // Names as statement `index` sees them.
  class StatementNames final : public Names {
   public:
    StatementNames(const Assembler& a, unsigned event, size_t here) : a_(a), event_(event), here_(here) {}
    std::optional<gnu::Expr> symbol(std::string_view name) const override {
      if (auto p = a_.labels_.named(name)) {
        usedLabel = true;
        return gnu::Expr{a_.addressOf(size_t(*p))};
      }
      std::string n(name);
      if (auto it = a_.opt_.symbols.find(n); it != a_.opt_.symbols.end())
        return gnu::Expr{Value::constant(int64_t(it->second))};
      if (a_.opt_.symbolic.count(n)) return gnu::Expr{Value{std::move(n), 0}};
      return std::nullopt;
    }
    std::optional<gnu::Expr> local(unsigned label, bool forward) const override {
      auto p = a_.labels_.local(label, forward, event_);
      if (!p) return std::nullopt;
      usedLabel = true;
      return gnu::Expr{a_.addressOf(size_t(*p))};
    }
    gnu::Expr dot() const override {
      usedLabel = true;
      return gnu::Expr{a_.addressOf(here_)};
    }

   private:
    const Assembler& a_;
    unsigned event_;
    size_t here_;
  };

  void error(unsigned line, unsigned col, std::string msg) { errors_.push_back({{file_, line, col}, std::move(msg)}); }
  Value addressOf(size_t statement) const {
    return opt_.base.plus(int64_t(statement < offsets_.size() ? offsets_[statement] : 0));
  }

  // ---- pass 1: labels, directives, statement boundaries
  void passOne(std::string_view source) {
    Options now;
    now.rvc = opt_.rvc;
    std::vector<Options> saved;
    gnu::forEachStatement(source, gnu::Comments::Hash, [&](unsigned line, Piece p) {
      gnu::takeLabels(p, true, [&](gnu::Label l) {
        if (auto e = labels_.define(l.name, statements_.size(), given_)) error(line, l.column, *e);
      });
      if (p.text.empty()) return;
      auto [word, rest] = gnu::headOf(p);
      Statement s;
      s.mnemonic = word;
      s.where = {line, p.column};
      s.source = trim(p.text);
      s.event = labels_.event();
      s.rvc = now.rvc;
      if (word[0] != '.') {
        s.operands = gnu::splitOperands<std::vector<Piece>>(rest);
        statements_.push_back(std::move(s));
        return;
      }
      std::string_view arg = trim(rest.text);
      unsigned argColumn = gnu::trimmed(rest).column;
      if (word == ".option") {
        if (arg == "rvc") now.rvc = true;
        else if (arg == "norvc") now.rvc = false;
        else if (arg == "push") saved.push_back(now);
        else if (arg == "pop") {
          if (saved.empty()) error(line, argColumn, ".option pop with no .option push");
          else now = saved.back(), saved.pop_back();
        } else if (arg == "relax" || arg == "norelax" || arg == "nopic") {
          // Linker relaxation changes nothing GNU as emits for what this assembler accepts.
        } else {
          error(line, argColumn, "'.option " + std::string(arg) + "' is not supported (rvc, norvc, push, pop, "
                                 "relax, norelax, nopic are)");
        }
        return;
      }
      unsigned width = word == ".half" ? 2 : word == ".dword" ? 8 : gnu::dataWidth(word, 4);
      if (width || word == ".insn") {
        s.kind = width ? Statement::Kind::Data : Statement::Kind::Insn;
        s.width = width;
        for (const Piece& v : gnu::splitOperands<std::vector<Piece>>(rest)) {
          Statement one = s;
          one.operands = {v};
          statements_.push_back(std::move(one));
        }
        if (arg.empty()) error(line, p.column, word + " needs a value");
        return;
      }
      if (gnu::isIgnored(word, {".attribute", ".cfi_def_cfa_offset", ".cfi_offset", ".cfi_restore"})) return;
      if (word == ".align" || word == ".p2align" || word == ".balign")
        error(line, p.column, "'" + word + "' is not supported: GNU as pads with nops the linker may relax "
                              "(R_RISCV_ALIGN); place the code with the spec's address instead");
      else
        error(line, p.column, "unknown directive '" + word + "'");
    });
    offsets_.assign(statements_.size() + 1, 0);
    grown_.assign(statements_.size(), {});
  }

  // ---- layout: GNU as relaxes branches to labels (a compressed form when
  // it reaches); sizes are recomputed until they settle, and only grow
  // after a few passes so that the loop ends.
  void layout() {
    for (unsigned pass = 0; pass < 64; ++pass) {
      bool changed = false;
      pcrelHi_.clear();
      std::vector<uint64_t> next(offsets_.size(), 0);
      for (size_t i = 0; i < statements_.size(); ++i) {
        std::vector<AssembledUnit> units;
        encodeStatement(i, units, nullptr);
        std::vector<unsigned> sizes;
        uint64_t total = 0;
        for (const AssembledUnit& u : units) sizes.push_back(u.bytes), total += u.bytes;
        if (units.empty()) total = offsets_[i + 1] - offsets_[i];  // an error: keep the size
        if (pass >= 8 && sizes.size() == grown_[i].size())
          for (size_t k = 0; k < sizes.size(); ++k) sizes[k] = std::max(sizes[k], grown_[i][k]);
        if (pass >= 8) grown_[i] = sizes;
        next[i + 1] = next[i] + total;
      }
      changed = next != offsets_;
      offsets_ = std::move(next);
      if (!changed && pass > 0) return;
    }
  }

  // ---- one statement into its units (errors to `errs` when given)
  void encodeStatement(size_t i, std::vector<AssembledUnit>& out, Diagnostics* errs) {
    const Statement& s = statements_[i];
    StatementNames names(*this, s.event, i);
    Value at = addressOf(i);
    auto fail = [&](unsigned column, std::string message) {
      if (errs) errs->push_back({{file_, s.where.line, column}, std::move(message)});
    };
    if (s.kind != Statement::Kind::Instruction) {
      if (auto u = dataUnit(s, at, names, fail)) out.push_back(std::move(*u));
      return;
    }
    std::vector<Request> requests;
    bool call = false;
    if (auto m = expand(s, names, requests, call)) {
      fail(m->column, m->message);
      return;
    }
    size_t first = out.size();
    for (size_t k = 0; k < requests.size(); ++k) {
      EncodeContext c;
      c.xlen = opt_.xlen;
      c.rvc = s.rvc;
      c.fd = opt_.fd;
      c.address = at;
      c.names = &names;
      c.requireKernelReach = opt_.requireKernelReach;
      c.minLength = k < grown_[i].size() ? grown_[i][k] : 2;
      c.pcrelHiAt = [this](const Value& v) -> std::optional<Value> {
        if (v.symbol != opt_.base.symbol) return std::nullopt;
        auto it = pcrelHi_.find(v.addend - opt_.base.addend);
        if (it == pcrelHi_.end()) return std::nullopt;
        return it->second;
      };
      auto r = encode(requests[k], c);
      if (auto* m = std::get_if<Mismatch>(&r)) {
        out.resize(first);
        fail(m->column, m->message);
        return;
      }
      AssembledUnit& u = std::get<AssembledUnit>(r);
      if (u.row->op == Op::Auipc && u.operands[1].expr.reloc == Reloc::PcrelHi && at.symbol == opt_.base.symbol)
        pcrelHi_[at.addend - opt_.base.addend] = u.operands[1].expr.value;
      u.where = SourceLocation{file_, s.where.line, s.where.column};
      u.source = std::string(s.source);
      u.call = call;
      at = at.plus(u.bytes);
      out.push_back(std::move(u));
    }
  }

  // A pseudo-instruction GNU as expands (tc-riscv.c macro()), or the
  // statement as one request.
  std::optional<Mismatch> expand(const Statement& s, const StatementNames& names, std::vector<Request>& out,
                                 bool& call) {
    auto text = [&](const Piece& p) { return Arg{Arg::Kind::Text, p, 0, {}}; };
    auto args = [&](unsigned n, std::string_view form) -> std::optional<Mismatch> {
      if (s.operands.size() == n) return std::nullopt;
      return Mismatch{s.where.column, "'" + s.mnemonic + "' takes " + std::string(form) + " (got " +
                                          std::to_string(s.operands.size()) + " operands)"};
    };
    auto reg = [&](const Piece& p) -> std::variant<unsigned, Mismatch> {
      if (auto r = parseGpr(p.text)) return *r;
      return Mismatch{p.column, "expected a register, got '" + std::string(p.text) + "'"};
    };
    auto value = [&](const Piece& p) -> std::variant<Expr, Mismatch> {
      names.usedLabel = false;
      auto e = parseExpression(p.text, names);
      if (auto* err = std::get_if<gnu::ExprError>(&e)) return Mismatch{p.column + unsigned(err->offset), err->message};
      Expr x = std::get<Expr>(e);
      x.usesLabel = names.usedLabel;
      if (x.reloc != Reloc::None)
        return Mismatch{p.column, "'" + s.mnemonic + "' takes a symbol, not " + std::string(relocName(x.reloc)) + "(...)"};
      return x;
    };
    const std::string& m = s.mnemonic;
    if (m == "call" || m == "tail" || m == "jump" || m == "la" || m == "lla") {
      bool load = m == "la" || m == "lla";
      std::optional<Mismatch> bad;
      if (m == "tail") bad = args(1, "symbol");
      else if (m == "jump") bad = args(2, "symbol, temporary");
      else if (load) bad = args(2, "rd, symbol");
      else if (s.operands.size() != 2) bad = args(1, "[rd,] symbol");
      if (bad) return bad;
      // call sym: auipc ra + jalr ra; call rd, sym: auipc t1 + jalr rd; tail
      // sym: auipc t1 + jr; jump sym, tmp: auipc tmp + jr (binutils 2.40).
      unsigned rd = reg::ra, tmp = reg::ra;
      const Piece* symbol = &s.operands.back();
      if (load || (m == "call" && s.operands.size() == 2)) {
        auto r = reg(s.operands[0]);
        if (auto* e = std::get_if<Mismatch>(&r)) return *e;
        rd = tmp = std::get<unsigned>(r);
        if (m == "call") tmp = reg::t1;
        if (m == "la" && rd == 0) return Mismatch{s.operands[0].column, "'la' needs a destination other than zero"};
        symbol = &s.operands[1];
      } else if (m == "tail") {
        rd = 0, tmp = reg::t1;
      } else if (m == "jump") {
        auto r = reg(s.operands[1]);
        if (auto* e = std::get_if<Mismatch>(&r)) return *e;
        rd = 0, tmp = std::get<unsigned>(r);
        if (tmp == 0) return Mismatch{s.operands[1].column, "the temporary of 'jump' must not be zero"};
        symbol = &s.operands[0];
      }
      auto v = value(*symbol);
      if (auto* e = std::get_if<Mismatch>(&v)) return *e;
      Expr target = std::get<Expr>(v);
      Value auipcAt = addressOf(size_t(&s - statements_.data()));
      Expr hi{Reloc::PcrelHi, target.value, false}, lo{Reloc::PcrelLo, auipcAt, false};
      unsigned col = symbol->column;
      out.push_back({"auipc", {Arg::reg_(tmp, s.operands[0].column), Arg::expr_(hi, col)}, s.where.column});
      Arg base = Arg::expr_(lo, col);
      base.reg = tmp;
      if (load) out.push_back({"addi", {Arg::reg_(rd, s.operands[0].column), Arg::reg_(rd, col), Arg::expr_(lo, col)}, s.where.column});
      else out.push_back({"jalr", {Arg::reg_(rd, s.where.column), base}, s.where.column});
      call = !load;
      return std::nullopt;
    }
    Request direct{m, {}, s.where.column};
    for (const Piece& p : s.operands) direct.args.push_back(text(p));
    if (m != "li" || s.operands.size() != 2) {
      out.push_back(std::move(direct));
      return std::nullopt;
    }
    // li: a row when the value fits one (c.li, addi), else GNU as's load_const.
    EncodeContext probe;
    probe.xlen = opt_.xlen;
    probe.rvc = s.rvc;
    probe.fd = opt_.fd;
    probe.address = addressOf(size_t(&s - statements_.data()));
    probe.names = &names;
    auto one = encode(direct, probe);
    if (std::holds_alternative<AssembledUnit>(one)) {
      out.push_back(std::move(direct));
      return std::nullopt;
    }
    auto r = reg(s.operands[0]);
    if (auto* e = std::get_if<Mismatch>(&r)) return *e;
    auto v = value(s.operands[1]);
    if (auto* e = std::get_if<Mismatch>(&v)) return *e;
    const Expr& x = std::get<Expr>(v);
    if (!x.isConstant()) return Mismatch{s.operands[1].column, "li takes a constant; an address is la's or lla's"};
    int64_t n = x.value.addend;
    if (opt_.xlen == 32) {
      if (n < -0x80000000ll || n > 0xffffffffll)
        return Mismatch{s.operands[1].column, "li value " + hex(uint64_t(n)) + " does not fit 32 bits"};
      n = int64_t(int32_t(uint32_t(n)));
    }
    loadConstant(std::get<unsigned>(r), n, s.operands[1].column, out);
    return std::nullopt;
  }

  // GNU as's load_const: lui and/or addi(w) for a sign-extended 32-bit value;
  // otherwise the value without its low 12 bits shifted right to its lowest
  // set bit, loaded the same way, then slli and an addi of the low 12 bits.
  void loadConstant(unsigned rd, int64_t v, unsigned column, std::vector<Request>& out) {
    int64_t lower = int64_t(uint64_t(v) << 52) >> 52;
    int64_t upper = int64_t(uint64_t(v) - uint64_t(lower));
    auto add = [&](std::string m, std::vector<Arg> a) { out.push_back({std::move(m), std::move(a), column}); };
    auto number = [&](int64_t k) { return Arg::expr_(Expr{Reloc::None, Value::constant(k), false}, column); };
    if (opt_.xlen == 64 && v != int64_t(int32_t(v))) {
      unsigned shift = 12;
      while (((uint64_t(upper) >> shift) & 1) == 0) ++shift;
      loadConstant(rd, upper >> shift, column, out);
      add("slli", {Arg::reg_(rd, column), Arg::reg_(rd, column), number(shift)});
      if (lower != 0) add("addi", {Arg::reg_(rd, column), Arg::reg_(rd, column), number(lower)});
      return;
    }
    unsigned hiReg = 0;
    if (upper != 0) {
      add("lui", {Arg::reg_(rd, column), number(int64_t(uint32_t(upper) >> 12))});
      hiReg = rd;
    }
    if (lower != 0 || hiReg == 0)
      add(opt_.xlen == 64 ? "addiw" : "addi", {Arg::reg_(rd, column), Arg::reg_(hiReg, column), number(lower)});
  }

  template <class Fail>
  std::optional<AssembledUnit> dataUnit(const Statement& s, const Value& at, const StatementNames& names, Fail& fail) {
    const Piece& p = s.operands[0];
    names.usedLabel = false;
    auto e = parseExpression(p.text, names);
    if (auto* err = std::get_if<gnu::ExprError>(&e)) {
      fail(p.column + unsigned(err->offset), err->message);
      return std::nullopt;
    }
    Expr x = std::get<Expr>(e);
    AssembledUnit u;
    u.address = at;
    u.where = SourceLocation{file_, s.where.line, s.where.column};
    u.source = std::string(s.source);
    if (x.reloc != Reloc::None) {
      fail(p.column, std::string(relocName(x.reloc)) + " has no meaning in " + s.mnemonic);
      return std::nullopt;
    }
    if (s.kind == Statement::Kind::Insn) {
      if (!x.isConstant()) {
        fail(p.column, ".insn takes a constant encoding");
        return std::nullopt;
      }
      uint64_t v = uint64_t(x.value.addend);
      unsigned n = (v & 3) != 3 ? 2 : (v & 0x1c) != 0x1c ? 4 : 0;
      if (n == 0 || (n == 2 && v > 0xffff) || v > 0xffffffffull) {
        fail(p.column, ".insn " + hex(v) + " is not a 16- or 32-bit encoding (its low bits give its length)");
        return std::nullopt;
      }
      u.bytes = n;
      u.bits = v;
      return u;
    }
    u.bytes = s.width;
    u.operands[0].expr = x;
    uint64_t mask = s.width == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * s.width)) - 1;
    if (!x.isConstant()) {
      u.symbolicMask = mask;
      return u;
    }
    int64_t v = x.value.addend;
    if (s.width < 8 && (v < -(int64_t(1) << (8 * s.width - 1)) || v > int64_t(mask))) {
      fail(p.column, s.mnemonic + " value " + hex(uint64_t(v)) + " does not fit " + std::to_string(8 * s.width) + " bits");
      return std::nullopt;
    }
    u.bits = uint64_t(v) & mask;
    return u;
  }
};

}  // namespace

std::variant<Assembly, Diagnostics> assemble(std::string_view source, const std::string& file, const AssemblyOptions& o) {
  return Assembler(file, o).run(source);
}

}  // namespace patchcheck::riscv
