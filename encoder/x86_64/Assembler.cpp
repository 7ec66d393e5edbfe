#include "encoder/x86_64/Assembler.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "encoder/Hex.h"
#include "encoder/gnu/Labels.h"
#include "encoder/x86_64/Directives.h"
#include "encoder/x86_64/Match.h"
#include "encoder/x86_64/NearReach.h"
#include "encoder/x86_64/Padding.h"

namespace patchcheck::x86_64 {
namespace {

using gnu::isSpace;
using gnu::lower;
using gnu::trim;

// The bytes a relocation-free value takes in `width` bytes, or why not.
bool fitsWidth(int64_t v, unsigned width) {
  if (width >= 8) return true;
  int64_t lo = -(int64_t(1) << (8 * width - 1)), hi = (int64_t(1) << (8 * width)) - 1;
  return v >= lo && v <= hi;
}

struct Place {
  unsigned line = 0, column = 0;
};

// One statement after pass 1; views point into the source, which outlives
// the run.
struct Statement {
  enum class Kind : uint8_t { Instruction, Data, Align };
  Kind kind = Kind::Instruction;
  Place where;
  std::string_view source;
  unsigned event = 0;  // numeric local labels defined before it
  // an instruction
  RowChoice choice;
  std::vector<OperandSyntax> operands;
  DispHint hint = DispHint::None;
  bool longBranch = false;  // relaxed to rel32
  DataDirective data;
  AlignDirective align;
};

class Assembler {
 public:
  Assembler(const std::string& file, const AssemblyOptions& o) : file_(file), opt_(o) {}

  std::variant<Assembly, Diagnostics> run(std::string_view source) {
    passOne(source);
    if (!errors_.empty()) return errors_;
    layout();
    if (!errors_.empty()) return errors_;
    for (size_t i = 0; i < statements_.size(); ++i) emit(i, out_.units, &errors_);
    if (!errors_.empty()) return errors_;
    for (const auto& [name, index] : labels_.all()) out_.labels[name] = addressOf(index);
    return std::move(out_);
  }

 private:
  std::string file_;
  const AssemblyOptions& opt_;
  Diagnostics errors_;
  std::vector<Statement> statements_;
  gnu::Labels labels_;  // a label is the address of the statement at its index
  gnu::GivenSymbols given_{opt_.symbols, opt_.symbolic};
  std::vector<uint64_t> offsets_;  // of each statement, and the end
  Assembly out_;
  bool sizing_ = false;            // the first layout: jumps keep their width
  int64_t stretch_ = 0;            // growth so far in this relaxation pass
  std::vector<unsigned> regions_;  // alignments before each statement (and the end)
  mutable bool holdGrowth_ = false;

  void error(unsigned line, unsigned col, std::string msg) { errors_.push_back({{file_, line, col}, std::move(msg)}); }
  Value addressOf(size_t statement) const { return opt_.base.plus(int64_t(offsets_[statement])); }
  // A label as statement `from` sees it. While relaxing, a label ahead has
  // its address from the last pass, moved by what grew before `from` in
  // this pass (GNU as's `stretch`) unless an alignment lies between them
  // and may absorb the growth; a label so left behind the jump holds it.
  Value labelAddress(size_t label, size_t from) const {
    if (label <= from || stretch_ == 0) return addressOf(label);
    if (stretch_ < 0 || regions_[label] == regions_[from]) return addressOf(label).plus(stretch_);
    if (offsets_[label] < offsets_[from]) holdGrowth_ = true;
    return addressOf(label);
  }

  // ---- pass 1: comments, labels, directives, statements and their rows
  void passOne(std::string_view source) {
    // `#` starts a comment, as in as --64.
    gnu::forEachStatement(source, gnu::Comments::Hash, [&](unsigned line, Piece p) { statement(line, p); });
  }

  void statement(unsigned line, Piece p) {
    gnu::takeLabels(p, true, [&](gnu::Label l) {
      if (auto e = labels_.define(l.name, statements_.size(), given_)) error(line, l.column, *e);
    });
    std::string_view t = p.text;
    unsigned col = p.column;
    auto skip = [&] {
      while (!t.empty() && isSpace(t.front())) t.remove_prefix(1), ++col;
    };
    if (t.empty()) return;
    std::string_view text = trim(t);
    DispHint hint = DispHint::None;
    if (t[0] == '{') {  // GNU as's pseudo prefix
      size_t close = t.find('}');
      std::string prefix = lower(t.substr(0, close == std::string_view::npos ? t.size() : close + 1));
      if (prefix == "{disp8}")
        hint = DispHint::Disp8;
      else if (prefix == "{disp32}")
        hint = DispHint::Disp32;
      else
        return error(line, col, "unknown pseudo prefix '" + prefix + "' (patchcheck takes {disp8} and {disp32})");
      t.remove_prefix(prefix.size()), col += unsigned(prefix.size());
      skip();
      if (t.empty()) return error(line, col, "a pseudo prefix needs an instruction");
    }
    auto [mnemonic, rest] = gnu::headOf({t, col});
    Statement s;
    s.where = {line, col};
    s.source = text;
    s.event = labels_.event();
    if (mnemonic[0] == '.') {
      if (hint != DispHint::None) return error(line, col, "a pseudo prefix needs an instruction");
      return directive(mnemonic, rest, std::move(s));
    }
    for (const Piece& o : splitOperands(rest)) {
      auto parsed = parseOperand(o);
      if (auto* e = std::get_if<SyntaxError>(&parsed)) return error(line, e->column, e->message);
      s.operands.push_back(std::get<OperandSyntax>(parsed));
    }
    auto choice = matchRow(mnemonic, col, s.operands);
    if (auto* e = std::get_if<MatchError>(&choice)) return error(line, e->column, e->message);
    s.choice = std::get<RowChoice>(choice);
    s.hint = hint;
    statements_.push_back(std::move(s));
  }

  void directive(const std::string& d, Piece rest, Statement s) {
    auto parsed = parseDirective(d, rest, s.where.column);
    if (auto* e = std::get_if<DirectiveError>(&parsed)) return error(s.where.line, e->column, e->message);
    if (auto* data = std::get_if<DataDirective>(&parsed)) {
      s.kind = Statement::Kind::Data;
      s.data = std::move(*data);
    } else if (auto* align = std::get_if<AlignDirective>(&parsed)) {
      s.kind = Statement::Kind::Align;
      s.align = *align;
    } else {
      return;  // emits nothing
    }
    statements_.push_back(std::move(s));
  }

  // ---- pass 2: names resolve against the current layout (labelAddress):
  // labels and `.` are addresses in the program, given symbols lie outside
  // it (gnu::StatementNames).

  // GNU as's relaxation (relax_segment in gas/write.c), step for step so
  // that every jump ends up as GNU as makes it: the statements are first
  // laid out with every jump to a label rel8; then each pass walks them in
  // order, moving each by what grew before it (`stretch`), growing a jump
  // to rel32 when its target (a label ahead moved by the stretch too) is
  // out of rel8's reach, and re-padding each alignment at its new address.
  // A jump never shrinks, so the passes end.
  void layout() {
    offsets_.assign(statements_.size() + 1, 0);
    regions_.assign(statements_.size() + 1, 0);
    for (size_t i = 0; i < statements_.size(); ++i)
      regions_[i + 1] = regions_[i] + (statements_[i].kind == Statement::Kind::Align);
    std::vector<uint64_t> sizes(statements_.size(), 0);
    sizing_ = true;
    uint64_t at = 0;
    for (size_t i = 0; i < statements_.size(); ++i) {
      offsets_[i] = at;
      sizes[i] = sizeOf(i).value_or(0);  // an error is named in the last pass
      at += sizes[i];
    }
    offsets_.back() = at;
    sizing_ = false;
    for (int pass = 0; pass < 1000; ++pass) {
      stretch_ = 0;
      bool stretched = false;
      for (size_t i = 0; i < statements_.size(); ++i) {
        offsets_[i] += uint64_t(stretch_);
        const Statement& s = statements_[i];
        bool relaxable = s.kind == Statement::Kind::Align ||
                         (s.kind == Statement::Kind::Instruction && (s.choice.row->flags & kRelax) && !s.longBranch);
        if (!relaxable) continue;
        auto size = sizeOf(i);
        if (!size || *size == sizes[i]) continue;
        stretch_ += int64_t(*size - sizes[i]);
        sizes[i] = *size;
        stretched = true;
      }
      offsets_.back() += uint64_t(stretch_);
      stretch_ = 0;
      if (!stretched) return;
    }
    error(1, 1, "the layout does not settle (alignments and jumps keep moving each other)");
  }

  // The bytes statement i takes at the current layout.
  std::optional<uint64_t> sizeOf(size_t i) {
    std::vector<AssembledUnit> units;
    if (!emit(i, units, nullptr)) return std::nullopt;
    uint64_t size = 0;
    for (const AssembledUnit& u : units) size += u.bytes.size();
    return size;
  }

  // The units of statement i at the current layout; false (and the error
  // in `errors`, when given) when it cannot be assembled.
  bool emit(size_t i, std::vector<AssembledUnit>& units, Diagnostics* errors) {
    Statement& s = statements_[i];
    AssembledUnit u;
    u.address = addressOf(i);
    u.where = SourceLocation{file_, s.where.line, s.where.column};
    u.source = std::string(s.source);
    auto fail = [&](unsigned column, std::string message) {
      if (errors) errors->push_back({{file_, s.where.line, column}, std::move(message)});
      return false;
    };
    switch (s.kind) {
      case Statement::Kind::Align: return align(i, u, units);
      case Statement::Kind::Data: return data(i, u, units, fail);
      case Statement::Kind::Instruction: break;
    }
    auto address = [this, i](uint64_t label) { return labelAddress(size_t(label), i); };
    gnu::StatementNames names(labels_, given_, statements_[i].event, i, address, gnu::Origin::Label,
                              gnu::Origin::Symbol);
    holdGrowth_ = false;
    Instruction insn;
    insn.row = s.choice.row;
    insn.size = s.choice.size;
    insn.address = u.address;
    insn.hint = s.hint;
    for (const OperandSyntax& o : s.operands) {
      Operand op{o, {}};
      Piece e = o.kind == OperandSyntax::Kind::Immediate || o.kind == OperandSyntax::Kind::Target ? o.expr : o.mem.disp;
      if (!e.text.empty()) {
        auto v = parseExpression(e.text, names);
        if (auto* err = std::get_if<ExprError>(&v)) return fail(e.column + unsigned(err->offset), err->message);
        op.value = std::get<Expr>(v);
      }
      insn.operands.push_back(op);
    }
    if (!shortToNear(s, u, insn, fail)) return false;
    for (;;) {
      insn.longBranch = s.longBranch;
      auto r = encode(insn);
      if (auto* err = std::get_if<EncodeError>(&r))
        return fail(err->column ? err->column : s.where.column, err->message);
      Encoded& enc = std::get<Encoded>(r);
      if (enc.tooFar && !s.longBranch && !sizing_ && !holdGrowth_) {
        s.longBranch = true;  // and it stays so: GNU as never shrinks a jump back
        continue;
      }
      if (enc.field && enc.field->offset + enc.field->size > 8)
        return fail(s.where.column, "the address-dependent field of '" + u.source +
                                        "' lies beyond its first 8 bytes, where patchcheck keeps symbolic fields");
      u.desc = insn.row;
      u.bytes = std::move(enc.bytes);
      u.field = std::move(enc.field);
      units.push_back(std::move(u));
      return true;
    }
  }

  // A jump to a symbol declared near the jump's own: rel8 when every
  // placement the fact allows is in reach, as GNU as relaxes a jump to a
  // label of its section; rel32 when none is. Across the edge GNU as's
  // choice depends on the placement, which one program cannot follow.
  template <class Fail>
  bool shortToNear(const Statement& s, const AssembledUnit& u, Instruction& insn, Fail fail) const {
    if (!(insn.row->flags & kRelax) || s.hint == DispHint::Disp32 || insn.operands.size() != 1 ||
        insn.operands[0].value.origin != gnu::Origin::Symbol)
      return true;
    auto d = nearDisplacement(u.address, insn.operands[0].value.value, opt_);
    if (!d) return true;
    insn.shortToSymbol = d->alwaysShort();
    if (d->alwaysShort() || d->neverShort()) return true;
    auto str = [](__int128 v) { return std::to_string(int64_t(std::clamp<__int128>(v, INT64_MIN, INT64_MAX))); };
    __int128 centre = d->lo + d->within;
    __int128 fits = std::min<__int128>(centre + 128, 127 - centre);
    return fail(s.operands[0].expr.column,
                "'" + u.source + "': " + d->symbol + " lies within " + std::to_string(d->within) + " bytes of " +
                    d->anchor + ", so a rel8 displacement from " + u.address.plus(2).str() + " would be " +
                    str(d->lo) + ".." + str(d->hi) + ", across rel8's -128..127: GNU as makes it rel8 or rel32 " +
                    "by where " + d->symbol + " lies, so the encoding depends on the placement (" +
                    (fits > 0 ? "`within = " + str(fits) + "` or less keeps it rel8; " : "") +
                    "`{disp32} " + std::string(insn.row->mnemonic) + " " + std::string(s.operands[0].expr.text) +
                    "` asks for rel32)");
  }

  template <class Fail>
  bool data(size_t i, AssembledUnit& proto, std::vector<AssembledUnit>& units, Fail fail) {
    const DataDirective& s = statements_[i].data;
    if (!s.literal.empty()) {
      AssembledUnit u = proto;
      u.bytes = s.literal;
      units.push_back(std::move(u));
      return true;
    }
    auto address = [this, i](uint64_t label) { return labelAddress(size_t(label), i); };
    gnu::StatementNames names(labels_, given_, statements_[i].event, i, address, gnu::Origin::Label,
                              gnu::Origin::Symbol);
    AssembledUnit u = proto;
    uint64_t offset = 0;
    for (const Piece& p : s.values) {
      auto v = parseExpression(p.text, names);
      if (auto* e = std::get_if<ExprError>(&v)) return fail(p.column + unsigned(e->offset), e->message);
      const Expr& x = std::get<Expr>(v);
      if (s.width > 1) {  // one unit per value
        u = proto;
        u.address = proto.address.plus(int64_t(offset));
      }
      size_t at = u.bytes.size();
      u.bytes.resize(at + s.width, 0);
      offset += s.width;
      if (x.relocatable() && s.width < 4)
        return fail(p.column, s.name + " cannot hold an address ('" + std::string(p.text) + "')");
      if (!x.value.isConstant()) {
        Field f;
        f.offset = unsigned(at), f.size = s.width, f.signExtended = false;  // R_X86_64_32 / _64
        f.value = x.value;
        f.text = std::string(p.text);
        u.field = f;
      } else {
        int64_t k = x.value.addend;
        bool fits = x.relocatable() ? s.width == 8 || (k >= 0 && k <= 0xffffffffll) : fitsWidth(k, s.width);
        if (!fits)
          return fail(p.column,
                      s.name + " value " + hex(uint64_t(k)) + " does not fit " + std::to_string(8 * s.width) + " bits");
        for (unsigned b = 0; b < s.width; ++b) u.bytes[at + b] = uint8_t(uint64_t(k) >> (8 * b));
      }
      if (s.width > 1) units.push_back(std::move(u));
    }
    if (s.width == 1) units.push_back(std::move(u));
    return true;
  }

  bool align(size_t i, AssembledUnit& proto, std::vector<AssembledUnit>& units) {
    const AlignDirective& s = statements_[i].align;
    // A symbolic base is taken to be aligned as the program asks.
    uint64_t at = proto.address.isConstant() ? uint64_t(proto.address.addend) : offsets_[i];
    uint64_t pad = (s.alignment - at % s.alignment) % s.alignment;
    if (pad == 0 || pad > s.maxSkip) return true;
    if (s.fill) {
      AssembledUnit u = proto;
      u.bytes.assign(pad, *s.fill);
      units.push_back(std::move(u));
      return true;
    }
    uint64_t offset = 0;
    for (auto& nop : paddingNops(pad)) {
      AssembledUnit u = proto;
      u.desc = rowFor(ZYDIS_MNEMONIC_NOP, 1);
      u.address = proto.address.plus(int64_t(offset));
      offset += nop.size();
      u.bytes = std::move(nop);
      units.push_back(std::move(u));
    }
    return true;
  }
};

}  // namespace

std::variant<Assembly, Diagnostics> assemble(std::string_view source, const std::string& file,
                                             const AssemblyOptions& opt) {
  return Assembler(file, opt).run(source);
}

}  // namespace patchcheck::x86_64
