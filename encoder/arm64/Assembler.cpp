#include "encoder/arm64/Assembler.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "encoder/Hex.h"
#include "encoder/arm64/OperandEncoder.h"
#include "encoder/arm64/Operands.h"

namespace patchcheck::arm64 {
namespace {

constexpr bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool isIdentStart(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$'; }
bool isIdentChar(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }

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

// Operands split at the commas outside [...] and (...).
std::vector<Piece> splitOperands(Piece p) {
  std::vector<Piece> out;
  int depth = 0;
  size_t start = 0;
  auto push = [&](size_t end) {
    std::string_view raw = p.text.substr(start, end - start);
    size_t lead = 0;
    while (lead < raw.size() && isSpace(raw[lead])) ++lead;
    out.push_back({trim(raw), p.column + unsigned(start + lead)});
  };
  for (size_t i = 0; i < p.text.size(); ++i) {
    char c = p.text[i];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (c == ',' && depth == 0) push(i), start = i + 1;
  }
  if (!trim(p.text).empty() || !out.empty()) push(p.text.size());
  return out;
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

struct LocalDef {
  unsigned event;
  uint64_t offset;
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
    return std::move(out_);
  }

 private:
  std::string file_;
  const AssemblyOptions& opt_;
  Diagnostics errors_;
  std::vector<Statement> statements_;
  std::unordered_map<unsigned, std::vector<LocalDef>> locals_;
  Assembly out_;
  uint64_t offset_ = 0;
  unsigned event_ = 0;

  void error(unsigned line, unsigned col, std::string msg) { errors_.push_back({{file_, line, col}, std::move(msg)}); }
  Value addressAt(uint64_t offset) const { return opt_.base.plus(int64_t(offset)); }

  // ---- pass 1: comments, labels, directives, statement boundaries
  void passOne(std::string_view source) {
    unsigned lineNo = 0;
    size_t pos = 0;
    while (pos <= source.size()) {
      size_t nl = source.find('\n', pos);
      if (nl == std::string_view::npos) nl = source.size();
      std::string_view line = source.substr(pos, nl - pos);
      ++lineNo;
      // `//` starts a comment; so does `#` as a line's first character (a
      // `#` elsewhere is an immediate).
      if (size_t c = line.find("//"); c != std::string_view::npos) line = line.substr(0, c);
      if (trim(line).starts_with("#")) line = {};
      size_t start = 0;
      for (size_t i = 0; i <= line.size(); ++i)
        if (i == line.size() || line[i] == ';') {
          statement(lineNo, {line.substr(start, i - start), unsigned(start + 1)});
          start = i + 1;
        }
      if (nl == source.size()) break;
      pos = nl + 1;
    }
  }

  void statement(unsigned line, Piece p) {
    std::string_view t = p.text;
    unsigned col = p.column;
    auto skip = [&] {
      while (!t.empty() && isSpace(t.front())) t.remove_prefix(1), ++col;
    };
    skip();
    while (!t.empty()) {  // labels: `name:` or `N:`
      size_t n = 0;
      if (std::isdigit((unsigned char)t[0])) {
        while (n < t.size() && std::isdigit((unsigned char)t[n])) ++n;
      } else if (isIdentStart(t[0])) {
        while (n < t.size() && isIdentChar(t[n])) ++n;
      }
      if (n == 0 || n >= t.size() || t[n] != ':') break;
      std::string name(t.substr(0, n));
      if (std::isdigit((unsigned char)name[0])) {
        uint64_t number = 0;
        for (char d : name) number = std::min<uint64_t>(number * 10 + unsigned(d - '0'), uint64_t(1) << 32);
        if (number >> 32) error(line, col, "local label number '" + name + "' is too large");
        else locals_[unsigned(number)].push_back({event_++, offset_});
      } else if (out_.labels.count(name) || opt_.symbols.count(name) || opt_.symbolic.count(name)) {
        error(line, col, "label '" + name + "' is already defined");
      } else {
        out_.labels[name] = addressAt(offset_);
      }
      t.remove_prefix(n + 1), col += unsigned(n + 1);
      skip();
    }
    if (t.empty()) return;
    size_t n = 0;
    while (n < t.size() && !isSpace(t[n])) ++n;
    std::string mnemonic(t.substr(0, n));
    std::transform(mnemonic.begin(), mnemonic.end(), mnemonic.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    Piece rest{t.substr(n), col + unsigned(n)};
    if (mnemonic[0] == '.') {
      directive(mnemonic, rest, {line, col}, trim(t));
      return;
    }
    statements_.push_back({mnemonic, splitOperands(rest), {line, col}, trim(t), offset_, 4, event_});
    offset_ += 4;
  }

  void directive(const std::string& d, Piece rest, Place where, std::string_view text) {
    unsigned bytes = d == ".word" || d == ".inst" || d == ".4byte" ? 4
                     : d == ".quad" || d == ".xword" || d == ".dword" || d == ".8byte" ? 8 : 0;
    if (bytes) {
      for (const Piece& p : splitOperands(rest)) {
        statements_.push_back({d, {p}, where, text, offset_, bytes, event_});
        offset_ += bytes;
      }
      return;
    }
    static const char* ignored[] = {".text", ".globl", ".global", ".type", ".size", ".local", ".hidden",
                                    ".cfi_startproc", ".cfi_endproc", ".arch", ".cpu"};
    for (const char* i : ignored)
      if (d == i) return;
    error(where.line, where.column, "unknown directive '" + d + "'");
  }

  // ---- pass 2: choose the row, resolve operands, encode
  class Resolver final : public NameResolver {
   public:
    Resolver(const Assembler& a, const Statement& s) : a_(a), s_(s) {}
    Value dot() const override { return a_.addressAt(s_.offset); }
    std::optional<Value> symbol(std::string_view name) const override {
      std::string n(name);
      if (auto it = a_.out_.labels.find(n); it != a_.out_.labels.end()) return it->second;
      if (auto it = a_.opt_.symbols.find(n); it != a_.opt_.symbols.end()) return Value::constant(int64_t(it->second));
      if (a_.opt_.symbolic.count(n)) return Value{n, 0};
      return std::nullopt;
    }
    std::optional<Value> local(unsigned label, bool forward) const override {
      auto it = a_.locals_.find(label);
      if (it == a_.locals_.end()) return std::nullopt;
      const auto& defs = it->second;
      auto next = std::lower_bound(defs.begin(), defs.end(), s_.event,
                                   [](const LocalDef& d, unsigned ev) { return d.event < ev; });
      if (forward) {
        if (next == defs.end()) return std::nullopt;
        return a_.addressAt(next->offset);
      }
      if (next == defs.begin()) return std::nullopt;
      return a_.addressAt(std::prev(next)->offset);
    }

   private:
    const Assembler& a_;
    const Statement& s_;
  };

  void passTwo(const Statement& s) {
    Resolver names(*this, s);
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
    auto v = parseExpr(p.text, names);
    if (auto* e = std::get_if<ExprError>(&v)) {
      error(s.where.line, p.column + unsigned(e->offset), e->message);
      return;
    }
    u.operands[0].value = std::get<Value>(v);
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
