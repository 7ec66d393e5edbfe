#include "checker/explore/SiteInstance.h"

#include <array>
#include <set>

#include "checker/explore/PlacedSymbol.h"
#include "checker/explore/Placement.h"
#include "checker/explore/Trampolines.h"
#include "checker/spec/Regions.h"
#include "checker/spec/SpecTarget.h"
#include "encoder/Isa.h"
#include "encoder/Hex.h"
#include "model/IsaModel.h"

namespace patchcheck {

Instruction UnitImage::fetched() const { return Instruction{symbolic.term, symbolic.knownBits, assembled.bytes}; }

z3::expr UnitImage::byteTerm(unsigned k, const Target& t) const {
  unsigned n = assembled.bytes;
  bool big = t.isa->byteOrder(assembled, t) == Endian::Big;
  unsigned significance = big ? n - 1 - k : k;
  return symbolic.term.extract(8 * significance + 7, 8 * significance).simplify();
}

namespace {

// Byte k of an instruction as a unit of its own: a byte site's patch unit.
UnitImage byteOf(const std::shared_ptr<const UnitImage>& whole, unsigned k, const Target& t) {
  const Unit& u = whole->assembled;
  Unit b = u;
  b.address = u.address.plus(k);
  b.bytes = 1;
  bool big = t.isa->byteOrder(u, t) == Endian::Big;
  unsigned shift = 8 * (big ? u.bytes - 1 - k : k);
  b.bits = shift < 64 ? (u.bits >> shift) & 0xff : 0;
  b.symbolicMask = shift < 64 ? (u.symbolicMask >> shift) & 0xff : 0;
  z3::expr term = whole->byteTerm(k, t);
  SymbolicUnit s{term, {}, {}, 0, 0};
  uint64_t v = 0;
  if (term.is_numeral() && term.is_numeral_u64(v)) {
    s.knownBits = v, s.knownMask = 0xff;
  } else if (shift < 64) {
    // The bits no placement changes (a RISC-V auipc's rd shares byte 1
    // with its immediate): what decoding reads.
    s.knownMask = (whole->symbolic.knownMask >> shift) & 0xff;
    s.knownBits = (whole->symbolic.knownBits >> shift) & s.knownMask;
  }
  // The encoding's conditions belong to the instruction, once.
  if (k == 0) s.conditions = whole->symbolic.conditions, s.reasons = whole->symbolic.reasons;
  UnitImage w{b, s, whole->source, nullptr, 0};
  w.whole = whole;
  w.byte = k;
  return w;
}

}  // namespace

bool UnitImage::sameAs(const UnitImage& o) const {
  return symbolic.knownMask == o.symbolic.knownMask && symbolic.knownBits == o.symbolic.knownBits &&
         z3::eq(symbolic.term, o.symbolic.term);
}

namespace {

uint64_t signExtendedValue(uint64_t v, const Target& t) {
  return t.wide() ? v : uint64_t(int64_t(int32_t(uint32_t(v))));
}

z3::expr signExtendedAddress(z3::context& c, uint64_t v, const Target& t) {
  return c.bv_val(signExtendedValue(v, t), 64);
}

}  // namespace

std::variant<SiteInstance, Diagnostics> SiteInstance::make(const Spec& spec, const Target& t,
                                                           z3::context& c, unsigned timeoutMs,
                                                           const SiteChecks* checked,
                                                           const BatchInstance* instance) {
  SiteInstance s(spec, t, c);
  s.timeoutMs_ = timeoutMs;
  s.checked_ = checked != nullptr;
  Diagnostics errs;
  auto regions = regionsFor(spec, t);
  auto regionOf = [&](const std::string& n) -> const RegionSpec* {
    for (const auto& r : regions)
      if (r.name == n) return &r;
    return nullptr;
  };
  std::vector<std::string> names;
  bool hasFunction = false;
  for (const SymbolSpec& sym : spec.symbols) {
    names.push_back(sym.name);
    hasFunction = hasFunction || sym.name == spec.function;
  }
  if (!hasFunction) names.insert(names.begin(), spec.function);
  for (const std::string& n : names) {
    const SymbolSpec* sym = spec.symbol(n);
    z3::expr term = c.bv_const(n.c_str(), 64);
    // A batch's instance: placed by the batch's F below, with no facts of
    // its own (the batch's site need not lie in one region).
    if (instance && n == spec.function) {
      s.symbols_.emplace(n, term);
      continue;
    }
    if (sym && sym->value) {
      term = signExtendedAddress(c, *sym->value, t);
    } else {
      std::string regionName = sym ? sym->region : "kernel-text";
      const RegionSpec* r = regionOf(regionName);
      if (!r) {
        errs.push_back({sym ? sym->where : spec.functionWhere,
                        "symbol '" + n + "' lies in unknown region '" + regionName + "' for " + t.str()});
        continue;
      }
      SourceLocation at = sym ? sym->where : spec.functionWhere;
      std::string range = "[" + hex(r->lo) + ", " + hex(r->hi) + "]";
      uint64_t align = sym ? sym->align : t.isa->codeAlignment();
      // A target other than the spec's own (--isa) may need more; a byte
      // site may hold 2-byte aligned code (RISC-V with C).
      uint64_t least = spec.byteUnits ? t.isa->minimumCodeAlignment(t) : t.isa->codeAlignment();
      if (align < least) {
        errs.push_back({at, "symbol '" + n + "' is aligned to " + std::to_string(align) + " bytes, but every " +
                                t.str() + " instruction is aligned to " + std::to_string(least)});
        continue;
      }
      PlacementFacts placed = placementFacts(term, n, signExtendedValue(r->lo, t),
                                             signExtendedValue(r->hi, t), align);
      s.assume(placed.range, at, n + " lies in " + regionName + " " + range);
      // Data units before F lie in F's section too: the site's first byte
      // is in F's region (so it is an address of the target, no wrap).
      if (n == spec.function && s.layout_.start() < 0)
        s.assume(z3::uge(term + c.bv_val(uint64_t(s.layout_.start()), 64), signExtendedAddress(c, r->lo, t)) &&
                     z3::ult(term + c.bv_val(uint64_t(s.layout_.start()), 64), term),
                 at, "the site's data before " + n + " lies in " + regionName + " " + range);
      for (const z3::expr& e : placed.aligned) s.assume(e, at, n + " is aligned to " + std::to_string(align) + " bytes");
      for (const z3::expr& e : placed.narrowed)
        s.assume(e, at, n + " lies in " + regionName + " " + range + ", aligned to " + std::to_string(align) + " bytes");
    }
    // A 32-bit ISA's addresses are sign-extended 32-bit values.
    if (!t.wide())
      s.assume(z3::sext(term.extract(31, 0), 32) == term, sym ? sym->where : spec.functionWhere,
               n + " is a sign-extended 32-bit address (" + t.str() + ")");
    s.symbols_.emplace(n, term);
  }
  if (!errs.empty()) return errs;
  if (instance) {
    // The instances lie at F + d, d = 0, stride, ..., (count - 1) stride.
    z3::expr d = c.bv_const((spec.function + " offset").c_str(), 64);
    z3::expr stride = c.bv_val(instance->stride, 64);
    s.assume(z3::ule(d, c.bv_val(instance->stride * (instance->count - 1), 64)) && z3::urem(d, stride) == 0,
             spec.functionWhere,
             "the instance is one of " + std::to_string(instance->count) + ", " + std::to_string(instance->stride) +
                 " bytes apart from " + instance->base);
    s.assume(s.symbols_.at(spec.function) == s.symbols_.at(instance->base) + d, spec.functionWhere,
             "the instance lies at " + instance->base + " plus its offset");
  }
  // `near`: |S - N| <= W, written S - N + W <= 2W (unsigned), the distance
  // modulo 2^64 as the CPU adds a displacement to the pc.
  for (const SymbolSpec& sym : spec.symbols) {
    auto a = s.symbols_.find(sym.name), b = s.symbols_.find(sym.near);
    if (sym.near.empty() || a == s.symbols_.end() || b == s.symbols_.end()) continue;
    s.assume(z3::ule(a->second - b->second + c.bv_val(sym.within, 64), c.bv_val(2 * sym.within, 64)), sym.nearWhere,
             sym.name + " lies within " + std::to_string(sym.within) + " bytes of " + sym.near);
  }
  // Every other symbol is a different function: not inside F's site, its
  // declared body, or the body word right after them; a `call T + k`
  // makes T's first k + 4 bytes T's own as well.
  std::map<std::string, uint64_t> extent;
  const uint64_t unit = spec.byteUnits ? t.isa->minimumCodeAlignment(t) : t.isa->patchUnitBytes(t);
  auto entries = [&](const BehaviourSpec& b) {
    for (const OutcomeSpec& o : b.alternatives) extent[o.target] = std::max(extent[o.target], o.offset + unit);
  };
  for (const auto& [state, b] : spec.behaviour) entries(b);
  for (const TransitionSpec& tr : spec.transitions)
    if (tr.allow) entries(*tr.allow);
  z3::expr f = s.symbols_.at(spec.function);
  z3::expr begin = f + c.bv_val(uint64_t(s.layout_.start()), 64);
  z3::expr end = f + c.bv_val(uint64_t(s.beyond()), 64);
  if (instance) {  // the batch's whole region
    begin = s.symbols_.at(instance->base);
    end = begin + c.bv_val(uint64_t(instance->regionEnd), 64);
  }
  for (const auto& [n, term] : s.symbols_) {
    if (n == spec.function || (instance && n == instance->base)) continue;
    uint64_t bytes = extent.count(n) ? extent[n] : unit;
    const SymbolSpec* sym = spec.symbol(n);
    SourceLocation at = sym ? sym->where : spec.functionWhere;
    s.assume(z3::ule(term + c.bv_val(bytes, 64), begin) || z3::uge(term, end), at,
             n + " (" + std::to_string(bytes) + " bytes) lies outside " + spec.function +
                 "'s site, its body and the word after them");
    for (const auto& [m, other] : s.symbols_)
      if (m < n && m != spec.function) s.assume(term != other, at, n + " and " + m + " are different addresses");
  }
  // Each state with the body after it, as one program (SpecTarget).
  for (const StateSpec& st : spec.states) {
    auto a = assembleState(spec, st, t);
    if (auto* e = std::get_if<Diagnostics>(&a)) {
      errs.insert(errs.end(), e->begin(), e->end());
      continue;
    }
    const auto& words = std::get<Program>(a).units;
    std::vector<UnitImage> images;
    unsigned site = spec.siteUnits();
    if (spec.byteUnits) {
      // Units, each split into its bytes: the state's, then the body's.
      // The body is decoded with the state, as a CPU would run on into it.
      // Data units before F (RISC-V's ops literal) stay whole.
      std::vector<std::shared_ptr<const UnitImage>> units;
      const unsigned data = spec.entryUnit();
      for (size_t i = 0; i < words.size(); ++i) {
        const std::string& text = i < st.words.size() ? st.words[i].text : spec.body[i - st.words.size()].text;
        if (i < data) {
          images.push_back(s.image(words[i], text));
          continue;
        }
        units.push_back(std::make_shared<const UnitImage>(s.image(words[i], text)));
        for (unsigned k = 0; k < words[i].bytes; ++k) images.push_back(byteOf(units.back(), k, t));
      }
      // decode counts bytes from F; the site's units count the data first.
      auto& starts = s.instructions_[st.name];
      for (auto& [at, insn] : s.decode(units, std::vector<UnitImage>(images.begin() + data, images.end())))
        starts[at + data] = insn;
      s.body_.assign(images.begin() + site, images.end());
      images.erase(images.begin() + site, images.end());
      s.states_[st.name] = std::move(images);
      continue;
    }
    for (size_t i = 0; i < words.size(); ++i)
      images.push_back(s.image(words[i], i < site ? st.words[i].text : spec.body[i - site].text));
    s.body_.assign(images.begin() + site, images.end());
    images.erase(images.begin() + site, images.end());
    s.states_[st.name] = std::move(images);
  }
  if (!errs.empty()) return errs;
  // An encoding's side condition (j/jal region, branch reach, immediate
  // range) must hold for every allowed placement; a placement that breaks
  // it is what Linux reports as a relocation overflow.
  std::vector<z3::expr> conditions;
  std::vector<std::pair<const UnitImage*, size_t>> owner;  // the word and its condition
  auto collect = [&](const std::vector<UnitImage>& ws) {
    for (const UnitImage& w : ws)
      for (size_t k = 0; k < w.symbolic.conditions.size(); ++k) {
        conditions.push_back(w.symbolic.conditions[k]);
        owner.push_back({&w, k});
      }
  };
  for (const auto& [n, ws] : s.states_) collect(ws);
  collect(s.body_);
  Prover placement(c, timeoutMs);
  for (const z3::expr& e : s.constraints_) placement.assume(e);
  if (checked) conditions.clear();  // they fit: asked once already
  std::vector<std::optional<int64_t>> offsets;
  for (size_t k = 0; k < conditions.size(); ++k) {
    const Value& at = owner[k].first->assembled.address;
    offsets.push_back(at.symbol == spec.function ? std::optional<int64_t>(at.addend) : std::nullopt);
  }
  for (const FailedCondition& f : failingConditions(placement, conditions, s.symbols_.at(spec.function), offsets)) {
    const auto& [w, k] = owner[f.index];
    std::string where;
    for (const auto& [n, term] : s.symbols_) {
      uint64_t v = 0;
      if (f.where) f.where->eval(term, true).is_numeral_u64(v);
      where += (where.empty() ? "" : ", ") + n + " = " + hex(v);
    }
    if (!f.where) {
      // Not known to fit everywhere: no verdict on the target is SAFE
      // (UNKNOWN at most), and a counterexample lies where it fits.
      const SourceLocation& at = w->assembled.where;
      if (!s.placementUndecided_)
        s.placementUndecided_ = "whether '" + w->source + "' (" + at.file + ":" + std::to_string(at.line) +
                                ") can be encoded for every placement (" + t.str() + "): it needs " +
                                w->symbolic.reasons[k] + "; " + placement.lastUnknownReason();
      s.assume(w->symbolic.conditions[k], at, "'" + w->source + "' fits its encoding: " + w->symbolic.reasons[k]);
      continue;
    }
    errs.push_back({w->assembled.where, "'" + w->source + "' cannot be encoded for every placement (" + t.str() +
                                            "): it needs " + w->symbolic.reasons[k] + ", which fails at " + where +
                                            " (relocation overflow)"});
  }
  if (!errs.empty()) return errs;
  // The trampolines, and where their code may lie (apart from the site).
  auto codes = loadTrampolines(s.trampolineSite());
  if (auto* e = std::get_if<Diagnostics>(&codes)) return *e;
  std::set<std::string> placed;
  for (auto& [key, code] : std::get<TrampolineSet>(codes)) {
    code.allowedEffects = spec.allowedEffects;
    if (code.encodingUndecided && !s.placementUndecided_) s.placementUndecided_ = code.encodingUndecided;
    if (placed.insert(code.contract.symbol).second)
      for (size_t k = 0; k < code.constraints.size(); ++k)
        s.assume(code.constraints[k], code.origins[k].first,
                 "trampoline " + code.contract.symbol + ": " + code.origins[k].second);
    s.trampolines_.emplace(key, std::move(code));
  }
  if (checked) {
    s.placementUndecided_ = checked->placementUndecided;
    return s;
  }
  Prover facts(c, timeoutMs);
  if (Diagnostics d = s.checkPlacement(facts); !d.empty()) return d;
  return s;
}

void SiteInstance::assume(const z3::expr& e, const SourceLocation& where, const std::string& what) {
  constraints_.push_back(e);
  origins_.push_back({where, what});
}

// Every proof assumes the placement constraints and the ABI's entry facts:
// if nothing satisfies them all, every query is unsat and every verdict
// would be a vacuous SAFE. So they must have a model, and when they have
// none the spec is an input error naming the constraints that conflict
// (an unsat core, mapped back to the spec lines they came from).
Diagnostics SiteInstance::checkPlacement(Prover& prover) {
  z3::context& c = *ctx_;
  std::vector<std::pair<SourceLocation, std::string>> origins = origins_;
  std::vector<z3::expr> facts = constraints_;
  MachineState entry = MachineState::symbolic(c, target_, "in.");
  facts.push_back(modelOf(target_).entryAssumptions(entry));
  origins.push_back({spec_->functionWhere, "the " + std::string(target_.abiName()) +
                                              " entry facts (sp aligned, away from the address-space ends)"});
  std::vector<size_t> conflict;
  Answer a = prover.checkFacts(facts, conflict);
  if (a == Answer::Sat) return {};
  if (a == Answer::Unknown) {
    if (!placementUndecided_)
      placementUndecided_ = "whether any placement satisfies the constraints: " + prover.lastUnknownReason();
    return {};
  }
  // One message per line of the core (several facts may come
  // from one clause: a range and its narrowed form), each clause once.
  std::vector<std::pair<SourceLocation, std::string>> clauses;
  auto seen = [&](const std::pair<SourceLocation, std::string>& o) {
    for (const auto& [at, what] : clauses)
      if (what == o.second && at.file == o.first.file && at.line == o.first.line && at.column == o.first.column)
        return true;
    return false;
  };
  for (size_t i : conflict)
    if (!seen(origins[i])) clauses.push_back(origins[i]);
  Diagnostics out;
  for (size_t i = 0; i < clauses.size(); ++i) {
    bool lineSaid = false;  // one message per line: the others are in its "together with"
    for (size_t j = 0; j < i; ++j)
      lineSaid = lineSaid || (clauses[j].first.file == clauses[i].first.file &&
                              clauses[j].first.line == clauses[i].first.line);
    if (lineSaid) continue;
    std::string others;
    for (size_t j = 0; j < clauses.size(); ++j)
      if (j != i && clauses[j].second != clauses[i].second &&
          others.find(clauses[j].second) == std::string::npos)
        others += (others.empty() ? "" : "; ") + clauses[j].second;
    out.push_back({clauses[i].first, "no placement of the symbols satisfies every constraint (" + target_.str() +
                                         "), so no proof can be made: " + clauses[i].second +
                                         (others.empty() ? "" : ", together with: " + others)});
  }
  if (out.empty())
    out.push_back({spec_->functionWhere, "no placement of the symbols satisfies every constraint (" + target_.str() + ")"});
  return out;
}

z3::expr SiteInstance::unitAddress(unsigned i) const {
  return symbols_.at(spec_->function) + ctx_->bv_val(uint64_t(layout_.offsetOf(i)), 64);
}

z3::expr SiteInstance::bodyStart() const {
  return symbols_.at(spec_->function) + ctx_->bv_val(uint64_t(layout_.bodyOffset()), 64);
}

int64_t SiteInstance::beyond() const {
  const auto& units = layout_.units();
  return layout_.end() + (units.empty() ? 0 : int64_t(units.back().length));
}

UnitImage SiteInstance::image(const Unit& w, const std::string& source) const {
  auto term = [this](const std::string& n) { return symbols_.at(n); };
  return UnitImage{w, target_.isa->symbolic(w, target_, *ctx_, term), source, nullptr, 0};
}

std::map<unsigned, std::shared_ptr<const UnitImage>> SiteInstance::decode(
    const std::vector<std::shared_ptr<const UnitImage>>& units, const std::vector<UnitImage>& bytes) const {
  std::map<unsigned, std::shared_ptr<const UnitImage>> out;
  std::map<unsigned, const std::shared_ptr<const UnitImage>*> unitAt;  // by first byte
  unsigned at = 0;
  for (const auto& u : units) unitAt[at] = &u, at += u->assembled.bytes;
  auto unitEnd = [&](unsigned p) {  // one past the unit that holds byte p
    auto it = std::prev(unitAt.upper_bound(p));
    return it->first + (*it->second)->assembled.bytes;
  };
  const unsigned n = unsigned(bytes.size());
  for (unsigned p = 0; p < n;) {
    std::vector<uint8_t> value;
    std::array<bool, 16> symbolic{};
    for (unsigned k = p; k < n && k - p < symbolic.size(); ++k) {
      bool known = bytes[k].symbolic.knownMask == 0xff;
      value.push_back(known ? uint8_t(bytes[k].symbolic.knownBits) : 0);
      symbolic[k - p] = !known;
    }
    auto len = target_.isa->instructionLength(value, std::span<const bool>(symbolic.data(), value.size()), target_);
    unsigned end = p + len.bytes;
    bool decoded = len.kind == IsaPlugin::Length::Known && len.bytes > 0 && end <= n;
    auto unit = unitAt.find(p);
    if (decoded && unit != unitAt.end() && (*unit->second)->assembled.bytes == len.bytes) {
      out[p] = *unit->second;  // the instruction is the spec's unit
      p = end;
      continue;
    }
    bool concrete = decoded;
    for (unsigned k = p; concrete && k < end; ++k) concrete = !symbolic[k - p];
    if (concrete) {
      // Part of a unit (`.fill 5, 1, 0x90`) or across units (`.byte 0x66`,
      // `nop`): the instruction is its bytes.
      if (auto img = bytesImage(p, value, len.bytes, bytes[p].whole->assembled)) {
        out[p] = img;
        p = end;
        continue;
      }
    }
    // No instruction decodes here, or the placement decides which: the
    // unit written here is taken as written, from its first byte.
    if (unit != unitAt.end()) out[p] = *unit->second;
    p = unitEnd(p);
  }
  return out;
}

std::shared_ptr<const UnitImage> SiteInstance::bytesImage(unsigned p, const std::vector<uint8_t>& value,
                                                          unsigned length, const Unit& from) const {
  std::string text = ".byte ";
  for (unsigned k = 0; k < length; ++k) text += (k ? ", " : "") + hex(value[k]);
  AssemblyOptions o = assemblyOptions(*spec_, target_, unsigned(spec_->before.size()) + p);
  auto r = target_.isa->assemble(text + "\n", spec_->path, o);
  auto* program = std::get_if<Program>(&r);
  if (!program || program->units.size() != 1) return nullptr;
  Unit u = program->units.front();
  u.where = from.where;
  u.source = text + " (in '" + from.source + "')";
  return std::make_shared<const UnitImage>(image(u, u.source));
}

std::variant<UnitImage, Diagnostics> SiteInstance::interim(const UnitSpec& w, unsigned index) const {
  auto a = assembleUnit(*spec_, w, index, target_);
  if (auto* e = std::get_if<Diagnostics>(&a)) return *e;
  UnitImage img = image(std::get<Unit>(a), w.text);
  // A byte site's interim write stores one byte (loader and assembleUnit
  // hold it to one): it is its own instruction.
  if (spec_->byteUnits) return byteOf(std::make_shared<const UnitImage>(img), 0, target_);
  return img;
}

std::string SiteInstance::describeSymbols() const {
  std::string s;
  for (const auto& [n, t] : symbols_) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace patchcheck
