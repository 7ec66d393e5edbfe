// The spec's foundation, read before anything that names its parts:
// [target] (ISA, ABI, matrix), [site] (the patched units and the body),
// [regions], [symbols] and [trampolines]. Part of the spec loader
// (SpecLoaderImpl.h); errors are collected at the key or value at fault.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include <toml++/toml.h>

#include "checker/spec/Spec.h"
#include "checker/spec/SpecLoaderImpl.h"
#include "checker/spec/Suggest.h"
#include "encoder/Hex.h"
#include "encoder/IsaRegistry.h"

namespace patchcheck::specloader {
namespace {

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '.')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
  });
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// ISAs and their ABIs come from the plug-ins (encoder/IsaRegistry.h).
NameTable<Target> isaTable() {
  NameTable<Target> out;
  for (const std::string& v : variantNames()) out.push_back({v, *targetNamed(v)});
  return out;
}
NameTable<uint8_t> abiTable(const Target& t) {
  NameTable<uint8_t> out;
  for (std::string_view a : t.isa->abis()) out.push_back({std::string(a), *abiNamed(t, a)});
  return out;
}
const NameTable<Endian> kEndians{{"big", Endian::Big}, {"little", Endian::Little}};
// The names the counterexamples' hints give (model/Effect.h), so a hint
// names only what the loader accepts.
const NameTable<EffectKind> kEffects = [] {
  NameTable<EffectKind> t;
  for (EffectKind k : kAllowableEffects) t.push_back({std::string(name(k)), k});
  return t;
}();
const NameTable<EntryBranch> kEntryBranches{
    {"direct", EntryBranch::Direct}, {"indirect", EntryBranch::Indirect}, {"both", EntryBranch::Both}};

}  // namespace

void SpecLoader::loadTarget(const toml::table* t) {
  if (!t) return;
  onlyKeys(*t, {"isa", "endian", "abi", "matrix"}, "in [target]");
  const toml::node* isaNode = t->get("isa");
  const toml::node* abiNode = t->get("abi");
  if (isaNode) {
    // The plug-in's byte order unless `endian` says otherwise (arm64: little).
    if (auto isa = choice(*isaNode, "ISA", isaTable())) spec_.target = *isa;
  }
  if (const toml::node* n = t->get("endian"))
    if (auto e = choice(*n, "endian", kEndians)) spec_.target.endian = *e;
  if (abiNode)
    if (auto a = choice(*abiNode, "ABI", abiTable(spec_.target))) spec_.target.abi = *a;
  if (auto problem = spec_.target.problem())
    error(at(abiNode ? *abiNode : *isaNode), *problem);
  if (const toml::node* n = t->get("matrix"))
    if (const toml::array* a = array(*n, "matrix"))
      for (const toml::node& e : *a) matrixEntry(e);
  codeAlign_ = spec_.target.isa->codeAlignment();
  for (const Target& m : spec_.matrix) codeAlign_ = std::max<uint64_t>(codeAlign_, m.isa->codeAlignment());
}

void SpecLoader::matrixEntry(const toml::node& n) {
  auto s = string(n, "a matrix entry");
  if (!s) return;
  size_t slash = s->find('/');
  auto isa = slash == std::string::npos ? std::nullopt : targetNamed(s->substr(0, slash));
  auto abi = isa ? abiNamed(*isa, s->substr(slash + 1)) : std::nullopt;
  if (!isa || !abi) {
    error(at(n), "matrix entry '" + *s + "' must be ISA/ABI with ISA one of " + joined(variantNames()) +
                 " and ABI one of " + joined(abiNames()) + " (e.g. \"mips64r2/n64\")");
    return;
  }
  Target t{isa->isa, isa->variant, *abi, spec_.target.endian};
  if (auto problem = t.problem()) {
    error(at(n), "matrix entry '" + *s + "': " + *problem);
    return;
  }
  for (const Target& m : spec_.matrix)
    if (m.isa == t.isa && m.variant == t.variant && m.abi == t.abi) {
      error(at(n), "matrix entry '" + *s + "' is listed twice");
      return;
    }
  spec_.matrix.push_back(t);
}

void SpecLoader::loadSite(const toml::table& t) {
  // x86 counts bytes; RISC-V with C may count either (a byte site when
  // compressed code is in it).
  spec_.byteUnits = spec_.target.isa->patchUnitBytes(spec_.target) == 1 ||
                    (spec_.target.isa->byteSites(spec_.target) && t.get("bytes") && !t.get("words"));
  minAlign_ = codeAlign_;
  if (spec_.byteUnits) {
    minAlign_ = spec_.target.isa->minimumCodeAlignment(spec_.target);
    for (const Target& m : spec_.matrix) minAlign_ = std::max<uint64_t>(minAlign_, m.isa->minimumCodeAlignment(m));
  }
  onlyKeys(t, {"function", "words", "bytes", "before", "body", "allow_unpredictable", "allow_effects", "entered_by"}, "in [site]");
  spec_.functionWhere = at(t);
  if (const toml::node* n = t.get("function")) {
    spec_.functionWhere = at(*n);
    if (auto f = string(*n, "function")) {
      if (isIdentifier(*f)) spec_.function = *f;
      else error(at(*n), "function '" + *f + "' is not a symbol name");
    }
  }
  // A byte-patched ISA (x86) counts the site in bytes, others in words.
  const char* count = spec_.byteUnits ? "bytes" : "words";
  const char* other = spec_.byteUnits ? "words" : "bytes";
  std::string isa(spec_.target.isa->family());
  bool either = spec_.target.isa->byteSites(spec_.target) && spec_.target.isa->patchUnitBytes(spec_.target) != 1;
  if (const toml::node* n = t.get(other))
    error(at(*n), either ? "[site] has both words and bytes: a " + spec_.target.str() +
                               " site counts words (4-byte units) or bytes (compressed code in it), not both"
                  : spec_.byteUnits ? "an " + isa + " site is a byte range: [site] bytes = N, not words"
                                    : "[site] bytes is for byte-patched ISAs (x86, RISC-V with C); " +
                                          spec_.target.str() + " sites count words");
  if (const toml::node* n = t.get(count)) {
    spec_.unitsWhere = at(*n);
    if (auto w = integer(*n, count)) {
      if (*w < 1 || *w > 16384) error(at(*n), std::string(count) + " must be between 1 and 16384, not " + std::to_string(*w));
      else spec_.words = unsigned(*w);
    }
  } else if (!t.get(other)) {
    error(at(t), spec_.byteUnits ? "[site] needs `bytes = N`, the number of patchable bytes"
                                 : "[site] needs `words = N`, the number of patchable words");
  }
  if (spec_.byteUnits && spec_.target.isa->patchUnitBytes(spec_.target) == 1)
    if (const toml::node* n = t.get("before"))
      error(at(*n), "[site] before is not supported on byte-patched sites (" + isa +
                        ") yet: declare the bytes the transitions write in `bytes`");
  if (const toml::node* n = t.get("before")) {
    const toml::array* a = array(*n, "before");
    unitsUnknown_ = !a;
    for (size_t k = 0; a && k < a->size(); ++k) {
      const toml::node& e = *a->get(k);
      auto b = integer(e, "each length in before");
      // A unit is what one store writes: a power of two up to 8 bytes.
      if (b && (*b == 1 || *b == 2 || *b == 4 || *b == 8)) {
        spec_.before.push_back({unsigned(*b), at(e)});
        continue;
      }
      if (b) error(at(e), "a data unit before " + spec_.function + " is 1, 2, 4 or 8 bytes, not " + std::to_string(*b));
      unitsUnknown_ = true;
    }
  }
  if (const toml::node* n = t.get("body")) {
    spec_.body = words(*n, "body");
    bodyWhere_ = at(*n);
  }
  if (const toml::node* n = t.get("allow_unpredictable"))
    spec_.allowUnpredictable = boolean(*n, "allow_unpredictable").value_or(false);
  if (const toml::node* n = t.get("entered_by"))
    if (auto k = choice(*n, "entered_by", kEntryBranches)) spec_.enteredBy = *k;
  if (const toml::node* n = t.get("allow_effects"))
    if (const toml::array* a = array(*n, "allow_effects"))
      for (const toml::node& e : *a)
        if (auto k = choice(e, "effect", kEffects)) spec_.allowedEffects.insert(*k);
}

void SpecLoader::loadRegions(const toml::table& t) {
  for (auto&& [key, value] : t) {
    std::string name(key.str());
    const toml::array* a = array(value, "region '" + name + "'");
    if (!a) continue;
    if (a->size() != 2) {
      error(at(value), "region '" + name + "' must be [lo, hi], not " + std::to_string(a->size()) + " values");
      continue;
    }
    auto lo = address(*a->get(0), "the low end of region '" + name + "'");
    auto hi = address(*a->get(1), "the high end of region '" + name + "'");
    if (!lo || !hi) continue;
    if (*lo > *hi) {
      error(at(value), "region '" + name + "' is empty: " + hex(*lo) + " > " + hex(*hi));
      continue;
    }
    spec_.regions.push_back({name, *lo, *hi, at(key)});
    if (std::find(regionNames_.begin(), regionNames_.end(), name) == regionNames_.end())
      regionNames_.push_back(name);
  }
}

void SpecLoader::loadSymbols(const toml::table& t) {
  for (auto&& [key, value] : t) {
    std::string name(key.str());
    SymbolSpec s{name, std::nullopt, "", codeAlign_, at(key)};
    if (!isIdentifier(name)) error(at(key), "'" + name + "' is not a symbol name");
    const toml::table* fields = value.as_table();
    if (!fields) {
      wrongType(value, "symbol '" + name + "'",
                "a table such as { in = \"kernel-text\", align = 4 } or { value = 0x80001000 }");
      continue;
    }
    onlyKeys(*fields, {"in", "align", "value", "near", "within"}, "in symbol '" + name + "'");
    bool ok = loadNear(*fields, s);
    if (const toml::node* n = fields->get("in")) {
      auto r = string(*n, "'in'");
      if (r && std::find(regionNames_.begin(), regionNames_.end(), *r) == regionNames_.end()) {
        error(at(*n), "unknown region '" + *r + "'" + suggest(*r, regionNames_));
        ok = false;
      }
      s.region = r.value_or("");
    }
    if (const toml::node* n = fields->get("align")) {
      auto a = integer(*n, "align");
      if (a && (*a < int64_t(minAlign_) || !isPowerOfTwo(uint64_t(*a)))) {
        error(at(*n), "align must be a power of two >= " + std::to_string(minAlign_) + ", not " +
                          std::to_string(*a) + " (every " + spec_.target.str() + " instruction is aligned to " +
                          std::to_string(minAlign_) + (minAlign_ > spec_.target.isa->minimumCodeAlignment(spec_.target)
                                                           ? " on a site counted in words)" : ")"));
        ok = false;
      } else if (a) {
        s.align = uint64_t(*a);
      }
    }
    if (const toml::node* n = fields->get("value")) {
      s.value = address(*n, "value");
      if (s.value && *s.value % s.align) {
        error(at(*n), "symbol '" + name + "' = " + hex(*s.value) + " is not aligned to " +
                          std::to_string(s.align) + " bytes");
        ok = false;
      }
      if (!s.value) ok = false;
    }
    if (ok && !s.value && s.region.empty() && !fields->get("in")) {
      error(at(value), "symbol '" + name + "' needs `in = \"REGION\"` (symbolic) or `value = ADDRESS` (concrete)");
      ok = false;
    }
    if (ok) spec_.symbols.push_back(std::move(s));
    else spec_.symbols.push_back({name, std::nullopt, "kernel-text", codeAlign_, at(key)});  // no cascade
  }
}

// `near = "N", within = W`, both or neither; the names are resolved
// once every symbol is known (checkNearSymbols).
bool SpecLoader::loadNear(const toml::table& fields, SymbolSpec& s) {
  const toml::node* n = fields.get("near");
  const toml::node* w = fields.get("within");
  if (!n && !w) return true;
  if (!n || !w) {
    error(at(n ? *n : *w), std::string(n ? "`near` needs `within = BYTES`" : "`within` needs `near = \"SYMBOL\"`") +
                               " in symbol '" + s.name + "'");
    return false;
  }
  auto anchor = string(*n, "'near'");
  auto bytes = integer(*w, "within");
  if (bytes && *bytes <= 0) error(at(*w), "within must be a positive number of bytes, not " + std::to_string(*bytes));
  if (!anchor || !bytes || *bytes <= 0) return false;
  s.near = *anchor, s.within = uint64_t(*bytes), s.nearWhere = at(*n);
  return true;
}

// F is symbolic in kernel-text, aligned as the ISA's instructions are,
// unless [symbols] says otherwise.
void SpecLoader::addFunctionSymbol() {
  if (!spec_.symbol(spec_.function))
    spec_.symbols.push_back({spec_.function, std::nullopt, "kernel-text", codeAlign_, spec_.functionWhere});
}

std::vector<std::string> SpecLoader::symbolNames() const {
  std::vector<std::string> out;
  for (const SymbolSpec& s : spec_.symbols) out.push_back(s.name);
  return out;
}

void SpecLoader::loadTrampolines(const toml::table& t) {
  for (auto&& [key, value] : t) {
    std::string name(key.str());
    if (!spec_.symbol(name))
      error(at(key), "trampoline for unknown symbol '" + name + "' (declare it in [symbols])" +
                         suggest(name, symbolNames()));
    const toml::node* file = &value;
    // { source = "mips/mcount.S", object = "OBJ:SYMBOL" }: the contract
    // (and the source copy) of `source`, proven on the object's bytes.
    if (auto* both = value.as_table()) {
      onlyKeys(*both, {"source", "object"}, "in trampoline '" + name + "'");
      file = both->get("source");
      const toml::node* object = both->get("object");
      if (!file || !object) {
        error(at(value), "trampoline '" + name + "' as a table needs `source` (its file under trampolines/, "
                         "for the contract) and `object` (\"OBJ:SYMBOL\")");
        continue;
      }
      if (auto named = string(*object, "trampoline '" + name + "' object")) {
        auto colon = named->rfind(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == named->size()) {
          error(at(*object), "trampoline '" + name + "': object must be \"OBJ:SYMBOL\", not \"" + *named + "\"");
        } else {
          // A relative object path is from the spec's own directory.
          std::filesystem::path obj(named->substr(0, colon));
          if (obj.is_relative()) obj = std::filesystem::path(spec_.path).parent_path() / obj;
          spec_.trampolineObjects[name] = {obj.lexically_normal().string(), named->substr(colon + 1), *named,
                                           at(*object)};
        }
      }
    }
    auto path = string(*file, "trampoline '" + name + "'");
    if (path && path->empty()) error(at(*file), "trampoline '" + name + "' needs a file under trampolines/");
    else if (path) spec_.trampolines[name] = *path, spec_.trampolineWhere[name] = at(*file);
  }
}

}  // namespace patchcheck::specloader
