#include "encoder/x86_64/Directives.h"

#include <algorithm>

#include "encoder/gnu/Directives.h"
#include "encoder/x86_64/Encoder.h"

namespace patchcheck::x86_64 {
namespace {

// Directive arguments are numbers: no name resolves.
struct Numbers final : NameResolver {
  std::optional<Expr> symbol(std::string_view) const override { return std::nullopt; }
  std::optional<Expr> local(unsigned, bool) const override { return std::nullopt; }
  Expr dot() const override { return {}; }
};

// The arguments as numbers; an empty one is nothing.
std::variant<std::vector<std::optional<int64_t>>, DirectiveError> numbers(const std::vector<Piece>& args) {
  std::vector<std::optional<int64_t>> out;
  for (const Piece& a : args) {
    if (a.text.empty()) {
      out.push_back(std::nullopt);
      continue;
    }
    auto x = parseExpression(a.text, Numbers{});
    if (auto* e = std::get_if<ExprError>(&x)) return DirectiveError{a.column + unsigned(e->offset), e->message};
    out.push_back(std::get<Expr>(x).value.addend);
  }
  return out;
}

// .p2align n[,fill[,max]] aligns to 2^n bytes; .balign and .align (on x86
// ELF) to n bytes.
std::variant<DataDirective, AlignDirective, NoDirective, DirectiveError> alignment(const std::string& d,
                                                                                   const std::vector<Piece>& args,
                                                                                   unsigned column) {
  if (args.empty() || args.size() > 3) return DirectiveError{column, d + " takes 1 to 3 arguments"};
  auto n = numbers(args);
  if (auto* e = std::get_if<DirectiveError>(&n)) return *e;
  auto& v = std::get<0>(n);
  if (!v[0]) return DirectiveError{args[0].column, d + " needs an alignment"};
  uint64_t a = uint64_t(*v[0]);
  if (d == ".p2align") {
    if (a > 16) return DirectiveError{args[0].column, "alignment 2^" + std::to_string(a) + " is too large"};
    a = uint64_t(1) << a;
  } else if (a == 0 || (a & (a - 1)) || a > 65536) {
    return DirectiveError{args[0].column, "alignment " + std::to_string(a) + " is not a power of 2 up to 65536"};
  }
  AlignDirective out{a, v.size() > 2 && v[2] ? uint64_t(*v[2]) : a, std::nullopt};
  if (v.size() > 1 && v[1]) {
    if (*v[1] < 0 || *v[1] > 0xff) return DirectiveError{args[1].column, "fill value does not fit a byte"};
    out.fill = uint8_t(*v[1]);
  }
  return out;
}

// .fill repeat[,size[,value]]: repeat copies of value in size bytes (GNU:
// a value of 4 bytes, zero above); .skip/.space n[,byte].
std::variant<DataDirective, AlignDirective, NoDirective, DirectiveError> fill(const std::string& d,
                                                                              const std::vector<Piece>& args,
                                                                              unsigned column) {
  size_t most = d == ".fill" ? 3 : 2;
  if (args.empty() || args.size() > most)
    return DirectiveError{column, d + " takes 1 to " + std::to_string(most) + " arguments"};
  auto n = numbers(args);
  if (auto* e = std::get_if<DirectiveError>(&n)) return *e;
  auto& v = std::get<0>(n);
  auto at = [&](size_t i, int64_t otherwise) { return i < v.size() && v[i] ? *v[i] : otherwise; };
  int64_t count = at(0, 0), size = d == ".fill" ? at(1, 1) : 1, value = d == ".fill" ? at(2, 0) : at(1, 0);
  if (size < 0 || size > 8) return DirectiveError{args[1].column, ".fill size is not 0..8"};
  if (count < 0 || count * std::max<int64_t>(size, 1) > (1 << 20))
    return DirectiveError{args[0].column, d + " count is not 0..1 MiB"};
  DataDirective out{d, 0, {}, {}};
  for (int64_t i = 0; i < count; ++i)
    for (int64_t b = 0; b < size; ++b) out.literal.push_back(b < 4 ? uint8_t(uint64_t(value) >> (8 * b)) : 0);
  if (out.literal.empty()) return NoDirective{};
  return out;
}

}  // namespace

std::variant<DataDirective, AlignDirective, NoDirective, DirectiveError> parseDirective(const std::string& d,
                                                                                        Piece arguments,
                                                                                        unsigned column) {
  unsigned width = gnu::dataWidth(d, 2);  // .word is 2 bytes on x86
  std::vector<Piece> args = splitOperands(arguments);
  if (width) {
    if (args.empty()) return DirectiveError{arguments.column, d + " needs a value"};
    return DataDirective{d, width, std::move(args), {}};
  }
  if (d == ".p2align" || d == ".balign" || d == ".align") return alignment(d, args, arguments.column);
  if (d == ".fill" || d == ".skip" || d == ".space") return fill(d, args, arguments.column);
  if (gnu::isIgnored(d, {".code64", ".att_syntax"})) return NoDirective{};
  return DirectiveError{column, "unknown directive '" + d + "'"};
}

}  // namespace patchcheck::x86_64
