#include "checker/explore/ObjectTrampoline.h"

#include <memory>

#include "checker/explore/Sha256.h"
#include "encoder/Hex.h"
#include "encoder/Isa.h"

namespace patchcheck {
namespace {

std::string_view asChars(const std::vector<uint8_t>& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

Diagnostic at(const ObjectTrampolineText& o, uint64_t offset, const std::string& message) {
  return {{o.code.object, 0, 0}, "offset " + hex(o.code.fileOffset + offset) + " (" + o.code.symbol + "+" + hex(offset) +
                                     "): " + message};
}

}  // namespace

std::variant<ObjectTrampolineText, Diagnostics> objectTrampolineText(const Spec::TrampolineObject& named,
                                                                    const std::string& label, const Target& t) {
  auto read = readObjectSymbol(named.object, named.symbol, named.where);
  if (auto* e = std::get_if<Diagnostic>(&read)) return Diagnostics{*e};
  ObjectTrampolineText out;
  out.code = std::get<ObjectSymbolCode>(std::move(read));
  out.label = label;
  out.file = named.object + ":" + named.symbol;
  out.sha256 = sha256Hex(asChars(out.code.bytes));
  const ObjectSymbolCode& c = out.code;
  if (c.code->family() != t.isa->family())
    return Diagnostics{{named.where, named.object + " holds " + std::string(c.code->family()) + " code (ELF machine " +
                                         std::to_string(c.machine) + "), not code for " + t.str()}};
  if (c.endian != t.endian)
    return Diagnostics{{named.where, named.object + " is " + (c.endian == Endian::Big ? "big" : "little") +
                                         "-endian, the target " + t.str() + " is not"}};
  // Cut the bytes into instructions as a CPU decodes them (x86: by
  // length; a fixed-length ISA: its unit).
  std::vector<ObjectCode::CodeLine> lines;
  size_t next = 0;  // the first relocation not yet placed
  for (uint64_t off = 0; off < c.bytes.size();) {
    std::span<const uint8_t> rest(c.bytes.data() + off, c.bytes.size() - off);
    std::vector<uint8_t> unknown(std::min<size_t>(rest.size(), 15), 0);
    std::unique_ptr<bool[]> flags(new bool[unknown.size()]());
    auto len = t.isa->instructionLength(rest.first(unknown.size()), std::span<const bool>(flags.get(), unknown.size()), t);
    if (len.kind != IsaPlugin::Length::Known || len.bytes == 0 || len.bytes > rest.size())
      return Diagnostics{at(out, off, "the bytes there are no whole instruction of " + t.str())};
    ObjectCode::CodeLine line{rest.first(len.bytes), off, std::nullopt};
    for (; next < c.relocations.size() && c.relocations[next].offset < off + len.bytes; ++next) {
      const auto& r = c.relocations[next];
      if (line.relocation) return Diagnostics{at(out, off, "two relocations in one instruction")};
      line.relocation = r.relocation;
      line.relocation->at = unsigned(r.offset - off);
      if (r.inside) line.relocation->symbol = label;
    }
    lines.push_back(line);
    off += len.bytes;
  }
  out.text = label + ":\n";
  for (size_t i = 0; i < lines.size(); ++i) {
    ObjectCode::SourceLine s = c.code->sourceLine(lines, i, t);
    if (!s.problem.empty()) return Diagnostics{at(out, lines[i].offset, s.problem)};
    out.text += s.text + "\n";
    out.lines.push_back({lines[i].offset, unsigned(lines[i].bytes.size()), lines[i].relocation, s.text});
  }
  return out;
}

Diagnostics compareWithObject(const ObjectTrampolineText& o, const Program& a, const Target& t, z3::context& ctx) {
  Diagnostics out;
  if (a.units.size() != o.lines.size())
    return {at(o, 0, std::to_string(o.lines.size()) + " instructions read back as " + std::to_string(a.units.size()) +
                         " units")};
  int64_t base = a.units.empty() ? 0 : a.units.front().address.addend;
  // Every symbol as a free constant: a byte that depends on none is fixed.
  SymbolTerm sym = [&ctx](const std::string& n) { return ctx.bv_const(("object." + n).c_str(), 64); };
  for (size_t i = 0; i < o.lines.size(); ++i) {
    const Unit& u = a.units[i];
    const auto& line = o.lines[i];
    std::string what = "`" + line.source + "`";
    if (u.bytes != line.bytes || uint64_t(u.address.addend - base) != line.offset) {
      out.push_back(at(o, line.offset, what + " reads back as " + std::to_string(u.bytes) + " bytes at +" +
                                           hex(uint64_t(u.address.addend - base)) + ", not " + std::to_string(line.bytes)));
      continue;
    }
    std::span<const uint8_t> bytes(o.code.bytes.data() + line.offset, line.bytes);
    SymbolicUnit su = t.isa->symbolic(u, t, ctx, sym);
    Endian order = t.isa->byteOrder(u, t);
    for (unsigned k = 0; k < line.bytes; ++k) {
      unsigned shift = order == Endian::Little ? 8 * k : 8 * (line.bytes - 1 - k);
      z3::expr b = su.term.extract(shift + 7, shift).simplify();
      uint64_t v = 0;
      bool fixed = b.is_numeral() && b.is_numeral_u64(v);
      if (fixed && v != bytes[k]) {
        out.push_back(at(o, line.offset + k, what + " reads back with byte " + hex(v) + ", the object has " + hex(bytes[k])));
        break;
      }
      if (!fixed && !line.relocation) {
        out.push_back(at(o, line.offset + k, what + " depends on a symbol where the object has no relocation"));
        break;
      }
    }
    if (!line.relocation) continue;
    auto field = t.isa->relocation(u);
    if (!field || u.isConcrete()) {
      out.push_back(at(o, line.offset, what + " reads back without the relocation's field"));
      continue;
    }
    if (field->value.symbol != line.relocation->symbol) {
      out.push_back(at(o, line.offset, what + " names " + field->value.symbol + ", the relocation " +
                                           line.relocation->symbol));
      continue;
    }
    if (auto p = o.code.code->fieldProblem(u, *field, *line.relocation, bytes, t))
      out.push_back(at(o, line.offset, what + ": " + *p));
  }
  return out;
}

Diagnostic objectDiagnostic(const ObjectTrampolineText& o, Diagnostic d) {
  if (d.where.file != o.file) return d;
  // Line 1 is the label; line k + 2 is instruction k.
  if (d.where.line >= 2 && d.where.line - 2 < o.lines.size()) {
    const auto& line = o.lines[d.where.line - 2];
    return at(o, line.offset, "`" + line.source + "`: " + d.message);
  }
  return {{o.code.object, 0, 0}, d.message};
}

std::string objectLineText(const ObjectTrampolineText& o, size_t i, const Target& t) {
  const auto& line = o.lines[i];
  std::span<const uint8_t> bytes(o.code.bytes.data() + line.offset, line.bytes);
  std::string text = t.isa->disassembleBytes(bytes, line.offset, t);
  if (line.relocation)
    text += "  " + o.code.code->relocationName(line.relocation->type) + " " +
            symbolPlus(line.relocation->symbol, line.relocation->addend);
  return text;
}

}  // namespace patchcheck
