#include "tests/bruteforce/Scenario.h"

#include <optional>

#include "encoder/mips/Assembler.h"

namespace bruteforce {
namespace {

using patchcheck::Spec;

// 32-bit ISAs hold addresses as sign-extended 32-bit values (FACTS.md:
// KSEG0 0x80000000 is 0xffffffff80000000 in a 64-bit register).
uint64_t asHeld(uint64_t v, const mips::Target& t) {
  if (t.is64()) return v;
  return uint64_t(int64_t(int32_t(uint32_t(v))));
}

struct Range {
  uint64_t lo, hi;
};

// FACTS.md "Default regions (Linux MIPS)": kernel text in (C)KSEG0
// 0x80000000-0x9fffffff, modules in (C)KSEG2 from 0xc0000000 (to the end
// of KSEG2, 0xdfffffff); a spec's [regions] replace them by name.
std::optional<Range> region(const Spec& s, const mips::Target& t, const std::string& name) {
  for (const auto& r : s.regions)
    if (r.name == name) return Range{asHeld(r.lo, t), asHeld(r.hi, t)};
  auto sext = [](uint32_t v) { return uint64_t(int64_t(int32_t(v))); };
  if (name == "kernel-text") return Range{sext(0x80000000u), sext(0x9fffffffu)};
  if (name == "module-text") return Range{sext(0xc0000000u), sext(0xdfffffffu)};
  return std::nullopt;
}

struct Want {
  std::string name;
  std::optional<uint64_t> value;
  std::string region = "kernel-text";
  uint64_t align = 4;
};

std::vector<Want> wanted(const Spec& s) {
  std::vector<Want> out;
  bool hasF = false;
  for (const auto& sym : s.symbols) {
    out.push_back(Want{sym.name, sym.value, sym.region, sym.align});
    hasF = hasF || sym.name == s.function;
  }
  if (!hasF) out.insert(out.begin(), Want{s.function, std::nullopt, "kernel-text", 4});
  // F first: the others must avoid its site.
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].name == s.function) std::swap(out[0], out[i]);
  return out;
}

std::optional<uint64_t> pick(const Range& r, uint64_t align, PlacementMode mode, std::mt19937_64& rng) {
  if (align == 0) align = 1;
  uint64_t first = (r.lo + align - 1) / align * align;
  if (first < r.lo) return std::nullopt;  // wrapped
  uint64_t last = r.hi / align * align;
  if (last < first) return std::nullopt;
  if (mode == PlacementMode::LowEdges) return first;
  if (mode == PlacementMode::HighEdges) return last;
  uint64_t n = (last - first) / align;
  std::uniform_int_distribution<uint64_t> d(0, n);
  return first + d(rng) * align;
}

std::string joined(const std::vector<patchcheck::UnitSpec>& ws) {
  std::string text;
  for (const auto& w : ws) text += w.text + "\n";
  return text;
}

// Assembles `words` as one program starting at region word `index`.
std::variant<std::vector<uint32_t>, std::string> assembleAt(const Spec& s, const mips::Target& t,
                                                            const Placement& p, const std::string& text,
                                                            unsigned index, size_t count) {
  mips::AssemblyOptions o;
  o.target = t;
  o.base = mips::Value::constant(int64_t(p.function + 4ull * index));
  o.symbols = p.symbols;
  o.symbols[s.function] = p.function;
  o.allowUnpredictable = s.allowUnpredictable;
  auto a = mips::assemble(text, s.path, o);
  if (auto* e = std::get_if<patchcheck::Diagnostics>(&a)) return e->empty() ? "?" : e->front().message;
  auto w = mips::concreteWords(std::get<mips::Assembly>(a));
  if (auto* e = std::get_if<patchcheck::Diagnostics>(&w)) return e->empty() ? "?" : e->front().message;
  auto words = std::get<std::vector<uint32_t>>(w);
  if (words.size() != count) return "word count differs";
  return words;
}

struct Site {
  std::map<std::string, std::vector<uint32_t>> states;
  std::vector<uint32_t> body;
};

std::variant<Site, std::string> assembleSite(const Spec& s, const mips::Target& t, const Placement& p) {
  Site site;
  for (const auto& st : s.states) {
    auto w = assembleAt(s, t, p, joined(st.words), 0, st.words.size());
    if (auto* e = std::get_if<std::string>(&w)) return "state " + st.name + ": " + *e;
    site.states[st.name] = std::get<std::vector<uint32_t>>(w);
  }
  auto b = assembleAt(s, t, p, joined(s.body), s.words, s.body.size());
  if (auto* e = std::get_if<std::string>(&b)) return "body: " + *e;
  site.body = std::get<std::vector<uint32_t>>(b);
  return site;
}

Scenario base(const Spec& s, const mips::Target& t, const Placement& p, const Site& site,
              const std::string& before) {
  Scenario sc;
  sc.target = t;
  sc.placement = p;
  sc.siteUnitCount = s.words;
  sc.regionWords = s.words + unsigned(s.body.size());
  sc.model = s.model;
  sc.versions.resize(sc.regionWords);
  const auto& from = site.states.at(before);
  for (unsigned i = 0; i < sc.regionWords; ++i)
    sc.versions[i].push_back(i < s.words ? from[i] : site.body[i - s.words]);
  return sc;
}

// The trampolines' entries at this placement.
std::string placeEntries(const Spec& s, const mips::Target& t, Scenario& sc) {
  auto rules = entryRules(s, t);
  if (auto* e = std::get_if<std::string>(&rules)) return *e;
  for (EntryRule r : std::get<std::vector<EntryRule>>(rules)) {
    auto at = sc.placement.symbols.find(r.callee);
    if (at == sc.placement.symbols.end()) return "trampoline symbol " + r.callee + " is not placed";
    r.address = at->second + uint64_t(r.offset);
    sc.entries.push_back(r);
  }
  return "";
}

}  // namespace

std::string place(const Spec& s, const mips::Target& t, PlacementMode mode, std::mt19937_64& rng, Placement& out) {
  out = Placement{};
  std::vector<Want> ws = wanted(s);
  uint64_t siteBytes = 4ull * (s.words + s.body.size() + 1);
  for (size_t k = 0; k < ws.size(); ++k) {
    const Want& w = ws[k];
    bool isF = w.name == s.function;
    std::optional<uint64_t> got;
    if (w.value) {
      got = asHeld(*w.value, t);
    } else {
      auto r = region(s, t, w.region);
      if (!r) return "unknown region " + w.region;
      PlacementMode m = mode;
      if (mode == PlacementMode::Random) {  // mix edges in: a quarter each
        unsigned coin = unsigned(rng() % 4);
        m = coin == 0 ? PlacementMode::LowEdges : coin == 1 ? PlacementMode::HighEdges : PlacementMode::Random;
      }
      for (unsigned attempt = 0; attempt < 200 && !got; ++attempt) {
        auto a = pick(*r, w.align, attempt == 0 ? m : PlacementMode::Random, rng);
        if (!a) return "no aligned address in region " + w.region;
        bool clash = !isF && *a >= out.function && *a - out.function < siteBytes;
        bool entered = false;  // some `call T + k` names it: keep its first bytes apart from the site
        for (const auto& [state, b] : s.behaviour)
          for (const auto& o : b.alternatives) entered = entered || (o.target == w.name && o.offset);
        if (!isF && (s.trampolines.count(w.name) || entered)) {
          uint64_t gap = *a > out.function ? *a - out.function : out.function - *a;
          clash = clash || gap < 0x10000 + siteBytes;
        }
        for (const auto& [n, v] : out.symbols) clash = clash || v == *a;
        if (!clash) got = a;
      }
    }
    if (!got) return "no free address for " + w.name;
    if (isF) out.function = *got;
    else out.symbols[w.name] = *got;
  }
  return "";
}

std::array<uint64_t, 32> entryRegisters(const mips::Target& t, std::mt19937_64& rng) {
  std::array<uint64_t, 32> r{};
  auto sext = [](uint64_t v) { return uint64_t(int64_t(int32_t(uint32_t(v)))); };
  for (unsigned i = 1; i < 32; ++i) {
    uint64_t v = rng();
    if (!t.is64()) v &= 0xffffffffull;
    else if (rng() % 4 == 0) v = sext(v);  // a 32-bit value, as 32-bit code would hold it
    r[i] = v;
  }
  // FACTS.md: stack alignment 8 bytes (o32), 16 bytes (n32/n64).
  uint64_t align = t.abi == mips::Abi::O32 ? 8 : 16;
  if (t.abi == mips::Abi::N32)
    for (unsigned i : {28u, 29u, 31u}) r[i] = sext(r[i]);
  r[29] &= ~(align - 1);
  return r;
}

std::variant<Scenario, std::string> transitionScenario(const Spec& s, const mips::Target& t, const Placement& p,
                                                       const patchcheck::TransitionSpec& tr) {
  auto site = assembleSite(s, t, p);
  if (auto* e = std::get_if<std::string>(&site)) return *e;
  const Site& st = std::get<Site>(site);
  Scenario sc = base(s, t, p, st, tr.from);
  sc.name = s.name + ": " + tr.name() + " [" + t.str() + "]";
  sc.when = tr.when;
  // The Arm model is checked against herd7's verdicts (tests/data/litmus), not here.
  // It enumerates sc, weak and stale only (Executions.cpp).
  std::string_view fetch = s.model.fetch->name();
  if (fetch == "arm") return "the Arm fetch model is outside the brute-force model";
  if (fetch != "sc" && fetch != "weak" && fetch != "stale")
    return "the " + std::string(fetch) + " fetch model is outside the brute-force model";
  if (std::string e = placeEntries(s, t, sc); !e.empty()) return e;
  const auto& to = st.states.at(tr.to);
  for (const auto& step : tr.steps) {
    WriterStep w;
    switch (step.kind) {
      case patchcheck::StepSpec::Kind::Sync: w.kind = WriterStep::Kind::Sync; break;
      case patchcheck::StepSpec::Kind::Flush: w.kind = WriterStep::Kind::Flush; break;
      case patchcheck::StepSpec::Kind::Wait: w.kind = WriterStep::Kind::Wait; break;
      case patchcheck::StepSpec::Kind::DcCvau: case patchcheck::StepSpec::Kind::Dsb:
      case patchcheck::StepSpec::Kind::IcIvau: case patchcheck::StepSpec::Kind::Isb:
      case patchcheck::StepSpec::Kind::Ipi:
        return "arm64 cache maintenance is outside the brute-force model";
      case patchcheck::StepSpec::Kind::OutputFence: case patchcheck::StepSpec::Kind::LocalFence:
        return "RISC-V fences are outside the brute-force model";
      case patchcheck::StepSpec::Kind::IrqWindow: return "x86 interrupt windows are outside the brute-force model";
      case patchcheck::StepSpec::Kind::Write: {
        if (step.index >= sc.regionWords) return "write outside the site";
        uint32_t word = 0;
        if (step.interim) {
          auto a = assembleAt(s, t, p, step.interim->text + "\n", step.index, 1);
          if (auto* e = std::get_if<std::string>(&a)) return "interim: " + *e;
          word = std::get<std::vector<uint32_t>>(a)[0];
        } else if (step.index < s.words) {
          word = to[step.index];
        } else {
          return "write of a body word without a value";
        }
        w.kind = WriterStep::Kind::Write;
        w.word = step.index;
        sc.versions[step.index].push_back(word);
        w.version = unsigned(sc.versions[step.index].size()) - 1;
        break;
      }
    }
    sc.steps.push_back(w);
  }
  for (unsigned i = 0; i < s.words; ++i)
    if (sc.versions[i].back() != to[i])
      sc.brokenEnd = "the steps leave word " + std::to_string(i) + " different from '" + tr.to + "'";
  sc.allowed = tr.allow ? *tr.allow : s.behaviour.at(tr.from);
  if (!tr.allow)
    for (const auto& o : s.behaviour.at(tr.to).alternatives) {
      bool dup = false;
      for (const auto& x : sc.allowed.alternatives) dup = dup || x.str() == o.str();
      if (!dup) sc.allowed.alternatives.push_back(o);
    }
  return sc;
}

std::variant<Scenario, std::string> stateScenario(const Spec& s, const mips::Target& t, const Placement& p,
                                                  const std::string& state) {
  auto site = assembleSite(s, t, p);
  if (auto* e = std::get_if<std::string>(&site)) return *e;
  Scenario sc = base(s, t, p, std::get<Site>(site), state);
  sc.name = s.name + ": state " + state + " [" + t.str() + "]";
  if (std::string e = placeEntries(s, t, sc); !e.empty()) return e;
  sc.allowed = s.behaviour.at(state);
  return sc;
}

}  // namespace bruteforce
