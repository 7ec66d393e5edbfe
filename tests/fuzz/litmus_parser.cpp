// The herd7 litmus parser on arbitrary text. Properties: a rejection points
// at a line of the input; parsing the same text twice gives the same test
// or the same errors; an accepted test has a thread table, and every
// position it carries lies on a line of the input.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "checker/litmus/LitmusParser.h"
#include "encoder/Isa.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;
using namespace patchcheck::litmus;

namespace {

void put(std::ostream& o, const Position& p) { o << '@' << p.line << ':' << p.column << ' '; }
void put(std::ostream& o, const InitValue& v) { o << int(v.kind) << '/' << v.number << '/' << v.text, put(o, v.at); }
void put(std::ostream& o, const Prop& p) {
  o << '(' << int(p.kind) << ' ' << (p.thread ? std::to_string(*p.thread) : "-") << ':' << p.name << '=';
  put(o, p.value);
  put(o, p.at);
  for (const auto& a : p.args) put(o, *a);
  o << ')';
}

// Every field of the test, positions included, as text.
std::string dump(const Test& t) {
  std::ostringstream o;
  o << t.file << '\n' << t.arch << ' ' << t.name << '\n';
  for (const auto& [k, v] : t.meta) o << k << '=' << v << ';';
  for (const InitEntry& e : t.init) {
    o << '\n' << (e.thread ? std::to_string(*e.thread) : "-") << ':' << e.name << '<' << e.type << '>';
    put(o, e.at);
    put(o, e.value);
  }
  for (const Thread& th : t.threads) {
    o << '\n' << th.name << ' ' << th.number << th.faultHandler;
    put(o, th.at);
    for (const Instruction& i : th.code) {
      for (const std::string& l : i.labels) o << l << ':';
      o << i.text;
      put(o, i.at);
    }
  }
  for (const std::string& l : t.locations) o << '\n' << l;
  if (t.condition) {
    o << '\n' << int(t.condition->quantifier);
    put(o, t.condition->at);
    put(o, *t.condition->prop);
  }
  return o.str();
}

std::string dump(const Diagnostics& ds) {
  std::string s;
  for (const Diagnostic& d : ds) s += d.str() + "\n";
  return s;
}

void requireOnALine(const Position& p, unsigned lines, const char* what) {
  fuzz::require(p.line >= 1 && p.line <= lines && p.column >= 1, what,
                std::to_string(p.line) + ":" + std::to_string(p.column));
}

void requirePlaced(const Prop& p, unsigned lines) {
  requireOnALine(p.at, lines, "a proposition lies on a line of the input");
  for (const auto& a : p.args) {
    fuzz::require(a != nullptr, "a proposition's arguments are set");
    requirePlaced(*a, lines);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.litmus";
  auto first = parseLitmus(text, file);
  auto second = parseLitmus(text, file);
  fuzz::require(first.index() == second.index(), "the same text is accepted or rejected every time");
  if (auto* e = std::get_if<Diagnostics>(&first)) {
    fuzz::requireLocated(*e, file, text);
    fuzz::require(dump(*e) == dump(std::get<Diagnostics>(second)), "the same text gives the same errors");
    return 0;
  }
  const Test& t = std::get<Test>(first);
  fuzz::require(dump(t) == dump(std::get<Test>(second)), "the same text parses to the same test");
  fuzz::require(t.dialect && t.dialect->target().isa->litmusArchitecture() == t.arch && !t.threads.empty(),
                "an accepted test has its header, the dialect of the plug-in it names and a thread table");
  unsigned lines = fuzz::lineCount(text);
  for (const InitEntry& e : t.init) requireOnALine(e.at, lines, "an init entry lies on a line of the input");
  for (const Thread& th : t.threads)
    for (const Instruction& i : th.code) {
      requireOnALine(i.at, lines, "an instruction lies on a line of the input");
      fuzz::require(!i.text.empty() || !i.labels.empty(), "a row of code holds a label or an instruction");
    }
  if (t.condition) {
    fuzz::require(t.condition->prop != nullptr, "a condition has its proposition");
    requirePlaced(*t.condition->prop, lines);
  }
  return 0;
}
