#include "tests/bruteforce/RiscvScenario.h"

#include <algorithm>
#include <optional>

#include "checker/explore/Trampolines.h"
#include "checker/spec/ContractFile.h"
#include "encoder/riscv/Assembler.h"
#include "encoder/riscv/Plugin.h"
#include "encoder/riscv/Registers.h"

namespace bruteforce::rv {
namespace {

using patchcheck::Spec;
namespace riscv = patchcheck::riscv;

bool wide(const Target& t) { return riscv::xlenOf(t) == 64; }

// RV32 addresses are held sign-extended, as the model holds them.
uint64_t asHeld(uint64_t v, const Target& t) { return wide(t) ? v : uint64_t(int64_t(int32_t(uint32_t(v)))); }

struct Range {
  uint64_t lo, hi;
};

// Linux's layouts (arch/riscv/include/asm/pgtable.h): RV64 links the
// kernel in the top 2 GiB and modules in the 2 GiB below; RV32 (Sv32,
// PAGE_OFFSET 0xc0000000) puts modules below the kernel's text.
std::optional<Range> region(const Spec& s, const Target& t, const std::string& name) {
  for (const auto& r : s.regions)
    if (r.name == name) return Range{asHeld(r.lo, t), asHeld(r.hi, t)};
  if (wide(t)) {
    if (name == "kernel-text") return Range{0xffffffff80000000ull, 0xffffffffffffffffull};
    if (name == "module-text") return Range{0xffffffff00000000ull, 0xffffffff7fffffffull};
  } else {
    if (name == "kernel-text") return Range{asHeld(0xc0000000u, t), asHeld(0xdfffffffu, t)};
    if (name == "module-text") return Range{asHeld(0xa0000000u, t), asHeld(0xbfffffffu, t)};
  }
  return std::nullopt;
}

std::optional<uint64_t> pick(Range r, uint64_t align, PlacementMode mode, std::mt19937_64& rng) {
  if (align == 0) align = 1;
  uint64_t first = (r.lo + align - 1) / align * align;
  if (first < r.lo) return std::nullopt;
  uint64_t last = r.hi / align * align;
  if (last < first) return std::nullopt;
  if (mode == PlacementMode::LowEdges) return first;
  if (mode == PlacementMode::HighEdges) return last;
  return first + std::uniform_int_distribution<uint64_t>(0, (last - first) / align)(rng) * align;
}

std::string lines(const std::vector<patchcheck::UnitSpec>& us) {
  std::string text;
  for (const auto& u : us) text += u.text + "\n";
  return text;
}

// `text` as one program at `base`: one unit per line, `sizes` bytes each.
std::variant<std::vector<uint64_t>, std::string> assembleAt(const Spec& s, const Target& t, const Placement& p,
                                                            const std::string& text, uint64_t base,
                                                            const std::vector<unsigned>& sizes) {
  riscv::AssemblyOptions o;
  o.xlen = riscv::xlenOf(t);
  o.rvc = riscv::rvcOf(t);
  o.base = patchcheck::Value::constant(int64_t(base));
  o.symbols = p.symbols;
  o.symbols[s.function] = p.function;
  o.requireKernelReach = true;
  auto a = riscv::assemble(text, s.path, o);
  if (auto* e = std::get_if<patchcheck::Diagnostics>(&a)) return e->empty() ? "?" : e->front().message;
  const auto& units = std::get<riscv::Assembly>(a).units;
  if (units.size() != sizes.size()) return "unit count differs";
  std::vector<uint64_t> out;
  for (size_t i = 0; i < units.size(); ++i) {
    if (!units[i].isConcrete()) return "a unit is not concrete";
    if (units[i].bytes != sizes[i]) return "unit " + std::to_string(i) + " is " + std::to_string(units[i].bytes) +
                                           " bytes, not " + std::to_string(sizes[i]);
    out.push_back(units[i].bits);
  }
  return out;
}

// The trampolines' entries (their contract files), with RISC-V names.
std::string placeEntries(const Spec& s, const Target& t, Scenario& sc) {
  for (const auto& [symbol, path] : s.trampolines) {
    auto files = patchcheck::resolveTrampoline(s, path, t);
    if (!files) return "no trampoline file for " + symbol;
    auto loaded = patchcheck::loadContractFile(files->contract);
    if (auto* e = std::get_if<patchcheck::Diagnostics>(&loaded)) return e->empty() ? "?" : e->front().str();
    for (const auto& k : std::get<patchcheck::ContractFile>(loaded).entries) {
      auto reg = [&](const std::string& name) { return riscv::parseGpr(name).value_or(0); };
      EntryRule e;
      e.callee = symbol;
      e.offset = k.entryOffset;
      e.key = k.entryOffset ? symbol + "+" + std::to_string(k.entryOffset) : symbol;
      e.resume = reg(k.resume);
      if (k.savedRa) e.savedRa = reg(*k.savedRa);
      e.stackAdjust = k.stackAdjust;
      for (const std::string& c : k.clobbers) e.clobbers.push_back(reg(c));
      auto at = sc.placement.symbols.find(symbol);
      if (at == sc.placement.symbols.end()) return "trampoline symbol " + symbol + " is not placed";
      e.address = at->second + uint64_t(e.offset);
      sc.entries.push_back(e);
    }
  }
  return "";
}

std::variant<Scenario, std::string> base(const Spec& s, const Target& t, const Placement& p, const std::string& from,
                                         std::map<std::string, std::vector<uint64_t>>& states) {
  Scenario sc;
  sc.target = t;
  sc.placement = p;
  sc.fetch = s.model.fetch->name() == "ziccid" ? Fetch::Ziccid : Fetch::Ziccif;
  if (s.model.fetch->name() != "ziccid" && s.model.fetch->name() != "ziccif")
    return "the " + std::string(s.model.fetch->name()) + " fetch model is not enumerated here";
  sc.preemption = s.model.preemption;
  sc.dataUnits = s.entryUnit();
  sc.siteUnits = s.siteUnits();
  sc.regionUnits = s.siteUnits() + unsigned(s.body.size());
  std::vector<unsigned> sizes;
  uint64_t a = p.function - s.beforeBytes();
  for (unsigned u = 0; u < sc.regionUnits; ++u) {
    unsigned bytes = u < sc.dataUnits ? s.before[u].bytes : 4;
    sc.address.push_back(a);
    sizes.push_back(bytes);
    a += bytes;
  }
  std::vector<unsigned> siteSizes(sizes.begin(), sizes.begin() + sc.siteUnits);
  for (const auto& st : s.states) {
    auto w = assembleAt(s, t, p, lines(st.words), sc.address[0], siteSizes);
    if (auto* e = std::get_if<std::string>(&w)) return "state " + st.name + ": " + *e;
    states[st.name] = std::get<std::vector<uint64_t>>(w);
  }
  std::vector<uint64_t> body;
  if (!s.body.empty()) {
    auto b = assembleAt(s, t, p, lines(s.body), sc.address[sc.siteUnits],
                        std::vector<unsigned>(s.body.size(), 4));
    if (auto* e = std::get_if<std::string>(&b)) return "body: " + *e;
    body = std::get<std::vector<uint64_t>>(b);
  }
  sc.versions.resize(sc.regionUnits);
  for (unsigned u = 0; u < sc.regionUnits; ++u)
    sc.versions[u].push_back(u < sc.siteUnits ? states.at(from)[u] : body[u - sc.siteUnits]);
  if (std::string e = placeEntries(s, t, sc); !e.empty()) return e;
  return sc;
}

}  // namespace

std::string place(const Spec& s, const Target& t, PlacementMode mode, std::mt19937_64& rng, Placement& out) {
  out = Placement{};
  std::vector<patchcheck::SymbolSpec> ws = s.symbols;
  bool hasF = false;
  for (const auto& w : ws) hasF = hasF || w.name == s.function;
  if (!hasF) {
    patchcheck::SymbolSpec f;
    f.name = s.function;
    f.region = "kernel-text";
    ws.insert(ws.begin(), f);
  }
  // F first (the others avoid its region), then the unbounded, then `near`.
  std::stable_sort(ws.begin(), ws.end(), [&](const auto& a, const auto& b) {
    auto rank = [&](const patchcheck::SymbolSpec& x) { return x.name == s.function ? 0 : x.near.empty() ? 1 : 2; };
    return rank(a) < rank(b);
  });
  uint64_t lo = 0, hi = 0;  // F's site region, the data units and one word after the body included
  for (const auto& w : ws) {
    bool isF = w.name == s.function;
    std::optional<uint64_t> got;
    if (w.value) {
      got = asHeld(*w.value, t);
    } else {
      auto r = region(s, t, w.region);
      if (!r) return "unknown region " + w.region;
      if (!w.near.empty()) {
        uint64_t n = w.near == s.function ? out.function : out.symbols.count(w.near) ? out.symbols[w.near] : 0;
        if (w.near != s.function && !out.symbols.count(w.near)) return "near " + w.near + " is not placed";
        r->lo = std::max(r->lo, n - std::min(n, w.within));
        r->hi = std::min(r->hi, n + std::min(~n, w.within));
      }
      PlacementMode m = mode;
      if (mode == PlacementMode::Random) {
        unsigned coin = unsigned(rng() % 4);
        m = coin == 0 ? PlacementMode::LowEdges : coin == 1 ? PlacementMode::HighEdges : PlacementMode::Random;
      }
      if (isF) {  // the data units before F and the site after it lie in the region
        r->lo += s.beforeBytes();
        r->hi -= 4ull * (s.words + s.body.size() + 1);
      }
      for (unsigned attempt = 0; attempt < 200 && !got; ++attempt) {
        auto a = pick(*r, w.align, attempt == 0 ? m : PlacementMode::Random, rng);
        if (!a) return "no aligned address in region " + w.region;
        bool clash = !isF && *a >= lo && *a <= hi;
        if (!isF && s.trampolines.count(w.name)) clash = clash || (*a + 0x10000 > lo && *a < hi + 0x10000);
        for (const auto& [n, v] : out.symbols) clash = clash || v == *a;
        if (!clash) got = a;
      }
    }
    if (!got) return "no free address for " + w.name;
    if (isF) {
      out.function = *got;
      lo = *got - s.beforeBytes();
      hi = *got + 4ull * (s.words + s.body.size() + 1) - 1;
    } else {
      out.symbols[w.name] = *got;
    }
  }
  return "";
}

std::array<uint64_t, 32> entryRegisters(const Target& t, std::mt19937_64& rng) {
  std::array<uint64_t, 32> r{};
  for (unsigned i = 1; i < 32; ++i) r[i] = wide(t) ? rng() : rng() & 0xffffffffull;
  r[2] &= ~15ull;  // psABI: sp 16-byte aligned
  if (rng() % 3 == 0) r[5] = 0;  // t0 = 0 now and then: the random specs' loops test it
  return r;
}

std::variant<Scenario, std::string> transitionScenario(const Spec& s, const Target& t, const Placement& p,
                                                       const patchcheck::TransitionSpec& tr) {
  std::map<std::string, std::vector<uint64_t>> states;
  auto made = base(s, t, p, tr.from, states);
  if (auto* e = std::get_if<std::string>(&made)) return *e;
  Scenario sc = std::get<Scenario>(std::move(made));
  sc.name = s.name + ": " + tr.name() + " [" + t.str() + "]";
  sc.when = tr.when;
  sc.synchronised = tr.publish == patchcheck::Publish::Synchronised;
  const auto& to = states.at(tr.to);
  using K = patchcheck::StepSpec::Kind;
  for (const auto& step : tr.steps) {
    WriterStep w;
    switch (step.kind) {
      case K::Sync: w.kind = Step::FenceWW; break;  // fence w,w or fence rw,rw
      case K::OutputFence: w.kind = Step::FenceWO; break;
      case K::LocalFence: w.kind = Step::FenceILocal; break;
      case K::Ipi: w.kind = Step::Ipi; break;
      case K::Flush: w.kind = Step::FlushIcacheAll; break;
      case K::Wait: w.kind = Step::Wait; break;
      case K::Write: {
        if (step.index >= sc.regionUnits) return "write outside the site region";
        uint64_t bits = 0;
        if (step.interim) {
          unsigned bytes = step.index < sc.dataUnits ? s.before[step.index].bytes : 4;
          auto a = assembleAt(s, t, p, step.interim->text + "\n", sc.address[step.index], {bytes});
          if (auto* e = std::get_if<std::string>(&a)) return "interim: " + *e;
          bits = std::get<std::vector<uint64_t>>(a)[0];
        } else if (step.index < sc.siteUnits) {
          bits = to[step.index];
        } else {
          return "write of a body word without a value";
        }
        w.unit = step.index;
        sc.versions[step.index].push_back(bits);
        w.version = unsigned(sc.versions[step.index].size()) - 1;
        break;
      }
      default: return "step '" + step.text + "' is not a RISC-V step";
    }
    sc.steps.push_back(w);
  }
  for (unsigned u = 0; u < sc.siteUnits; ++u)
    if (sc.versions[u].back() != to[u])
      sc.brokenEnd = "the steps leave " + s.unitName(u) + " different from '" + tr.to + "'";
  sc.allowed = tr.allow ? *tr.allow : s.behaviour.at(tr.from);
  if (!tr.allow)
    for (const auto& o : s.behaviour.at(tr.to).alternatives) {
      bool dup = false;
      for (const auto& x : sc.allowed.alternatives) dup = dup || x.str() == o.str();
      if (!dup) sc.allowed.alternatives.push_back(o);
    }
  return sc;
}

std::variant<Scenario, std::string> stateScenario(const Spec& s, const Target& t, const Placement& p,
                                                  const std::string& state) {
  std::map<std::string, std::vector<uint64_t>> states;
  auto made = base(s, t, p, state, states);
  if (auto* e = std::get_if<std::string>(&made)) return *e;
  Scenario sc = std::get<Scenario>(std::move(made));
  sc.name = s.name + ": state " + state + " [" + t.str() + "]";
  sc.allowed = s.behaviour.at(state);
  return sc;
}

}  // namespace bruteforce::rv
