#pragma once
// What the files of the spec loader share (SpecLoader.cpp and the
// SpecLoad*.cpp files, one a group of sections): the loader itself and its
// small helpers. Internal to checker/spec/; the public face is Spec.h.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <toml++/toml.h>

#include "checker/spec/Spec.h"
#include "checker/spec/SpecTree.h"
#include "checker/spec/Suggest.h"

namespace patchcheck::specloader {

inline bool isPowerOfTwo(uint64_t v) { return v && !(v & (v - 1)); }

inline std::optional<uint64_t> parseNumber(std::string_view s) {
  bool hexa = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hexa) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  uint64_t v = 0, base = hexa ? 16 : 10;
  for (char c : s) {
    unsigned d;
    if (std::isdigit((unsigned char)c)) d = unsigned(c - '0');
    else if (hexa && std::isxdigit((unsigned char)c)) d = unsigned(std::tolower((unsigned char)c) - 'a' + 10);
    else return std::nullopt;
    if (v > (~0ull - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

// The words a spec may write for a choice, each with what it means: the
// table says it, not the word's position in a list, so reordering or
// adding a name cannot shift the meaning of another.
template <class T>
using NameTable = std::vector<std::pair<std::string, T>>;

template <class T>
std::vector<std::string> namesOf(const NameTable<T>& table) {
  std::vector<std::string> out;
  for (const auto& [name, value] : table) out.push_back(name);
  return out;
}

template <class T>
std::optional<T> lookup(const NameTable<T>& table, std::string_view name) {
  for (const auto& [n, value] : table)
    if (n == name) return value;
  return std::nullopt;
}

inline const NameTable<Expect> kExpects{{"safe", Expect::Safe}, {"unsafe", Expect::Unsafe}};

class SpecLoader {
 public:
  SpecLoader(std::string_view text, const std::string& path) {
    spec_.path = path;
    spec_.text = std::string(text);
    SpecTree tree = locateSpecTree(path);
    spec_.root = tree.root, spec_.trampolineDir = tree.trampolines;
  }

  std::variant<Spec, Diagnostics> run();

 private:
  Spec spec_;
  SourceLocation bodyWhere_;  // [site] body, for errors about it
  Diagnostics errors_;
  bool unitsUnknown_ = false;
  // The alignment every target's instructions have (IsaPlugin::codeAlignment):
  // the smallest `align` and the default.
  uint64_t codeAlign_ = 4;  // a [site] before entry was bad: states cannot be counted
  // The smallest `align`: codeAlign_, or on a byte site every target's
  // IsaPlugin::minimumCodeAlignment (RISC-V with C: 2).
  uint64_t minAlign_ = 4;
  std::vector<std::string> regionNames_{"kernel-text", "module-text"};

  // ---- positions and errors (SpecLoader.cpp)
  SourceLocation at(const toml::source_region& r) const;
  SourceLocation at(const toml::node& n) const { return at(n.source()); }
  SourceLocation at(const toml::key& k) const { return at(k.source()); }
  void error(SourceLocation where, std::string message);
  void syntaxError(const toml::parse_error& e);
  SourceLocation textStart(const toml::node& n) const;
  std::string_view lineAt(unsigned line) const;

  // ---- typed access; each reports a wrong type and gives nothing (SpecLoader.cpp)
  void onlyKeys(const toml::table& t, const std::vector<std::string>& known, const std::string& where);
  void wrongType(const toml::node& n, const std::string& what, std::string_view expected);
  const toml::table* table(const toml::table& parent, std::string_view key, const std::string& what);
  std::optional<std::string> string(const toml::node& n, const std::string& what);
  std::optional<int64_t> integer(const toml::node& n, const std::string& what);
  std::optional<bool> boolean(const toml::node& n, const std::string& what);
  const toml::array* array(const toml::node& n, const std::string& what);
  std::optional<uint64_t> address(const toml::node& n, const std::string& what);
  std::optional<UnitSpec> word(const toml::node& n, const std::string& what);
  std::vector<UnitSpec> words(const toml::node& n, const std::string& what);
  // What the name at `n` means in `table`, or an error naming the choices.
  template <class T>
  std::optional<T> choice(const toml::node& n, const std::string& what, const NameTable<T>& table) {
    auto s = string(n, what);
    if (!s) return std::nullopt;
    if (auto v = lookup(table, *s)) return v;
    error(at(n), "unknown " + what + " '" + *s + "'" + suggest(*s, namesOf(table)));
    return std::nullopt;
  }

  // ---- the driver: load() reads the sections in order (SpecLoader.cpp)
  void load(const toml::table& root);
  void measureBody();
  static std::string stem(const std::string& path);
  void checkTargets();

  // ---- [target], [site], [regions], [symbols], [trampolines] (SpecLoadSite.cpp)
  void loadTarget(const toml::table* t);
  void matrixEntry(const toml::node& n);
  void loadSite(const toml::table& t);
  void loadRegions(const toml::table& t);
  void loadSymbols(const toml::table& t);
  bool loadNear(const toml::table& fields, SymbolSpec& s);
  void addFunctionSymbol();
  std::vector<std::string> symbolNames() const;
  void loadTrampolines(const toml::table& t);

  // ---- [states], [behaviour], [expect], [scan] (SpecLoadStates.cpp)
  std::vector<std::string> stateNames() const;
  void loadStates(const toml::table& t);
  std::optional<BehaviourSpec> behaviour(const toml::node& n, const std::string& what);
  void loadBehaviour(const toml::table& t);
  void loadStateExpectations(const toml::table& t);
  void loadScan(const toml::table& t);

  // ---- [model] (SpecLoadModel.cpp)
  void loadModel(const toml::table& t);

  // ---- [[transition]] and its steps (SpecLoadTransitions.cpp)
  void loadTransitions(const toml::node& n);
  void stateRef(const toml::table& t, const char* key, std::string& out);
  void loadTransition(const toml::table& t);
  std::vector<StepSpec> step(const std::string& text, SourceLocation start);
  std::optional<StepSpec> stepOf(const std::string& text, SourceLocation start, std::optional<unsigned>& last);
  bool stateSource(const std::string& text, size_t i, const std::function<SourceLocation(size_t)>& where, StepSpec& s,
                   unsigned last);
};

}  // namespace patchcheck::specloader
