#include "encoder/arm64/Assembler.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "encoder/Hex.h"
#include "encoder/arm64/OperandEncoder.h"
#include "encoder/arm64/Operands.h"
#include "encoder/gnu/Directives.h"
#include "encoder/gnu/Labels.h"

namespace patchcheck::arm64 {
namespace {

using gnu::trim;

// Operands split at the commas outside [...] and (...).
std::vector<Piece> splitOperands(Piece p) { return gnu::splitOperands<std::vector<Piece>>(p, true); }

// The rows of each mnemonic, in table order, built once.
const std::vector<const InstrDesc*>* rowsNamed(std::string_view mnemonic) {
  static const auto index = [] {
    std::unordered_map<std::string_view, std::vector<const InstrDesc*>> m;
    for (const InstrDesc& d : instructionTable()) m[d.mnemonic].push_back(&d);
    return m;
  }();
  auto it = index.find(mnemonic);
  return it == index.end() ? nullptr : &it->second;
}

std::string formsOf(const std::vector<const InstrDesc*>& rows) {
  std::string out;
  for (const InstrDesc* d : rows) {
    std::string s(d->mnemonic);
    for (unsigned i = 0; i < d->operandCount(); ++i)
      s += (i ? ", " : " ") + std::string(d->operands[i] == Opnd::Keyword ? d->keyword : syntaxOf(d->operands[i]));
    if (out.find(s) == std::string::npos) out += (out.empty() ? "" : " | ") + s;
  }
  return out;
}

struct Place {
  unsigned line = 0, column = 0;
};

// One instruction or data directive after pass 1; views point into the
// source, which outlives the run.
struct Statement {
  std::string mnemonic;  // lower case
  std::vector<Piece> operands;
  Place where;
  std::string_view source;
  uint64_t offset = 0;  // bytes from the base
  unsigned bytes = 4;
  unsigned event = 0;   // for numeric local labels
};

class Assembler {
 public:
  Assembler(const std::string& file, const AssemblyOptions& o) : file_(file), opt_(o) {}

  std::variant<Assembly, Diagnostics> run(std::string_view source) {
    passOne(source);
    if (!errors_.empty()) return errors_;
    out_.units.reserve(statements_.size());
    for (const Statement& s : statements_) passTwo(s);
    if (!errors_.empty()) return errors_;
    for (const auto& [name, offset] : labels_.all()) out_.labels[name] = addressAt(offset);
    return std::move(out_);
  }

 private:
  std::string file_;
  const AssemblyOptions& opt_;
  Diagnostics errors_;
  std::vector<Statement> statements_;
  gnu::Labels labels_;  // at byte offsets from the base
  gnu::GivenSymbols given_{opt_.symbols, opt_.symbolic};
  Assembly out_;
  uint64_t offset_ = 0;

  void error(unsigned line, unsigned col, std::string msg) { errors_.push_back({{file_, line, col}, std::move(msg)}); }
  Value addressAt(uint64_t offset) const { return opt_.base.plus(int64_t(offset)); }

  // ---- pass 1: comments, labels, directives, statement boundaries
  void passOne(std::string_view source) {
    gnu::forEachStatement(source, gnu::Comments::SlashHash, [&](unsigned line, Piece p) { statement(line, p); });
  }

  void statement(unsigned line, Piece p) {
    gnu::takeLabels(p, true, [&](gnu::Label l) {
      if (auto e = labels_.define(l.name, offset_, given_)) error(line, l.column, *e);
    });
    std::string_view t = p.text;
    unsigned col = p.column;
    if (t.empty()) return;
    auto [mnemonic, rest] = gnu::headOf(p);
    if (mnemonic[0] == '.') {
      directive(mnemonic, rest, {line, col}, trim(t));
      return;
    }
    statements_.push_back({mnemonic, splitOperands(rest), {line, col}, trim(t), offset_, 4, labels_.event()});
    offset_ += 4;
  }

  void directive(const std::string& d, Piece rest, Place where, std::string_view text) {
    // A unit holds 4 or 8 bytes; .inst is a word that is an instruction,
    // .xword and .dword arm64's names for 8 bytes.
    unsigned bytes = d == ".inst" ? 4 : d == ".xword" || d == ".dword" ? 8 : gnu::dataWidth(d, 4);
    if (bytes == 4 || bytes == 8) {
      for (const Piece& p : splitOperands(rest)) {
        statements_.push_back({d, {p}, where, text, offset_, bytes, labels_.event()});
        offset_ += bytes;
      }
      return;
    }
    if (gnu::isIgnored(d, {".arch", ".cpu"})) return;
    error(where.line, where.column, "unknown directive '" + d + "'");
  }

  // ---- pass 2: choose the row, resolve operands, encode
  void passTwo(const Statement& s) {
    auto at = [this](uint64_t offset) { return addressAt(offset); };
    gnu::StatementNames names(labels_, given_, s.event, s.offset, at);
    AssembledUnit u;
    u.address = addressAt(s.offset);
    u.bytes = s.bytes;
    u.where = SourceLocation{file_, s.where.line, s.where.column};
    u.source = std::string(s.source);
    if (s.mnemonic[0] == '.') {
      data(s, names, u);
      return;
    }
    const std::vector<const InstrDesc*>* rows = rowsNamed(s.mnemonic);
    if (!rows) {
      error(s.where.line, s.where.column, "unknown instruction '" + s.mnemonic + "'");
      return;
    }
    OperandEncoder encoder(names);
    std::optional<Mismatch> best;
    for (const InstrDesc* d : *rows) {
      auto m = tryRow(*d, s, encoder, u);
      if (!m) {
        out_.units.push_back(std::move(u));
        return;
      }
      auto rank = [](const Mismatch& x) { return 2 * x.operand + (x.shapeMatched ? 1 : 0); };
      if (!best || rank(*m) > rank(*best)) best = m;
    }
    if (best->operand == 0 && !best->shapeMatched && best->column == 0)
      best->message += " (forms: " + formsOf(*rows) + ")";
    error(s.where.line, best->column ? best->column : s.where.column, best->message);
  }

  void data(const Statement& s, const NameResolver& names, AssembledUnit& u) {
    const Piece& p = s.operands[0];
    auto v = parseExpression(p.text, names, false);
    if (auto* e = std::get_if<ExprError>(&v)) {
      error(s.where.line, p.column + unsigned(e->offset), e->message);
      return;
    }
    u.operands[0].value = std::move(std::get<gnu::Expr>(v).value);
    u.inst = s.mnemonic == ".inst";
    const Value& x = u.operands[0].value;
    if (!x.isConstant()) {
      u.symbolicMask = u.bytes == 8 ? ~0ull : 0xffffffffull;
    } else if (u.bytes == 4 && (x.addend < -0x80000000ll || x.addend > 0xffffffffll)) {
      error(s.where.line, p.column, s.mnemonic + " value " + hex(uint64_t(x.addend)) + " does not fit 32 bits");
      return;
    } else {
      u.bits = u.bytes == 8 ? uint64_t(x.addend) : uint64_t(x.addend) & 0xffffffffull;
    }
    out_.units.push_back(std::move(u));
  }

  std::optional<Mismatch> tryRow(const InstrDesc& d, const Statement& s, const OperandEncoder& encoder,
                                 AssembledUnit& u) {
    u.desc = &d;
    u.bits = d.match;
    u.symbolicMask = 0;
    std::span<const Piece> pieces = s.operands;
    size_t at = 0;
    for (unsigned i = 0; i < d.operandCount(); ++i)
      if (auto m = encoder.encode(d, i, pieces, at, u)) return m;
    if (at < pieces.size())
      return Mismatch{pieces[at].column, "'" + s.mnemonic + "' takes " + formsOf({&d}) + "; unexpected '" +
                                              std::string(pieces[at].text) + "'", d.operandCount(), false};
    unsigned first = pieces.empty() ? s.where.column : pieces[0].column;
    uint32_t w = uint32_t(u.bits);
    if (!satisfiesRule(d.rule, w)) {
      std::string why = d.rule == FieldRule::SysRegRead    ? "this system register cannot be read"
                        : d.rule == FieldRule::SysRegWrite ? "this system register cannot be written"
                                                           : "the operands do not fit this form";
      return Mismatch{first, "'" + s.mnemonic + "': " + why, d.operandCount() - 1, true};
    }
    if (auto m = unpredictable(d, w, first)) return m;
    return std::nullopt;
  }

  // What GNU as warns about and the Arm ARM calls CONSTRAINED
  // UNPREDICTABLE: writeback to a base register the access also transfers,
  // and ldp of one register twice.
  std::optional<Mismatch> unpredictable(const InstrDesc& d, uint32_t w, unsigned column) const {
    if (opt_.allowUnpredictable) return std::nullopt;
    bool writeback = false, pair = false;
    for (Opnd k : d.operands) {
      writeback = writeback || isPreIndex(k) || isPostIndex(k);
      pair = pair || k == Opnd::Xt2 || k == Opnd::Wt2;
    }
    unsigned rt = rdOf(w), rt2 = rt2Of(w), rn = rnOf(w);
    if (writeback && rn != 31 && (rn == rt || (pair && rn == rt2)))
      return Mismatch{column, "'" + std::string(d.mnemonic) + "' with writeback to x" + std::to_string(rn) +
                                  ", which it also transfers, is UNPREDICTABLE", d.operandCount(), true};
    if (pair && (d.flags & kLoad) && rt == rt2)
      return Mismatch{column, "'" + std::string(d.mnemonic) + "' loading one register twice is UNPREDICTABLE",
                      d.operandCount(), true};
    return std::nullopt;
  }
};

}  // namespace

std::variant<Assembly, Diagnostics> assemble(std::string_view source, const std::string& file,
                                             const AssemblyOptions& opt) {
  return Assembler(file, opt).run(source);
}

}  // namespace patchcheck::arm64
