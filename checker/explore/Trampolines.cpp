#include "checker/explore/Trampolines.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "checker/explore/ObjectTrampoline.h"
#include "checker/explore/PlacedSymbol.h"
#include "checker/explore/Placement.h"
#include "checker/explore/Sha256.h"
#include "checker/spec/ContractFile.h"
#include "checker/spec/Regions.h"
#include "checker/spec/SpecTree.h"
#include "encoder/Hex.h"
#include "encoder/Isa.h"
#include "model/IsaModel.h"

namespace patchcheck {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

z3::expr signExtended(z3::context& c, uint64_t v, const Target& t) {
  return c.bv_val(addressFor(v, t).value_or(v), 64);
}

// The ip offset for the spec's function F: the contract's entry for the
// region F lies in, or for a region that contains F's region (or address).
std::optional<int64_t> ipOffsetFor(const std::map<std::string, int64_t>& offsets, const Spec& spec,
                                   const Target& t) {
  if (auto it = offsets.find(""); it != offsets.end()) return it->second;
  auto regions = regionsFor(spec, t);
  const SymbolSpec* f = spec.symbol(spec.function);
  std::string name = f ? f->region : "kernel-text";
  if (auto it = offsets.find(name); it != offsets.end() && (!f || !f->value)) return it->second;
  uint64_t lo = 0, hi = 0;
  if (f && f->value) {
    auto a = symbolAddress(*f, t);
    if (!a) return std::nullopt;
    lo = hi = *a;
  } else if (const RegionSpec* r = findRegion(regions, name)) {
    lo = r->lo, hi = r->hi;
  } else {
    return std::nullopt;
  }
  for (const auto& [region, offset] : offsets)
    if (const RegionSpec* r = findRegion(regions, region); r && r->lo <= lo && hi <= r->hi) return offset;
  return std::nullopt;
}

class Loader {
 public:
  Loader(const TrampolineFiles& files, const std::string& symbol, const TrampolineSite& site,
         const Spec::TrampolineObject* object)
      : files_(files), symbol_(symbol), site_(site), c_(site.ctx), t_(site.target), object_(object) {}

  std::variant<std::vector<TrampolineCode>, Diagnostics> run() {
    auto loaded = loadContractFile(files_.contract);
    if (auto* e = std::get_if<Diagnostics>(&loaded)) return *e;
    contract_ = std::get<ContractFile>(loaded);
    SourceLocation top{files_.contract, 1, 1};
    if (contract_.symbol != symbol_)
      return Diagnostics{{top, "the contract is for '" + contract_.symbol + "', but the spec calls this file '" +
                                   symbol_ + "'"}};
    if (!contract_.supports(t_))
      return Diagnostics{{top, "this trampoline is not written for " + t_.str() + " (see its isa and abi)"}};
    placeSymbols();
    loadHandoff();
    checkNames();
    if (!errors_.empty()) return errors_;
    auto words = assemble();
    if (!errors_.empty()) return errors_;
    std::vector<TrampolineCode> out;
    for (const TrampolineContract& entry : contract_.entries) {
      TrampolineCode code{entry,     base(), words,       symbols_, constraints_, origins_,
                          ipOffset_, {},     std::nullopt, encodingUndecided_};
      if (const auto& k = entry.callback.callOps)
        code.opsLiteral = site_.symbol(site_.spec.function) + c_.bv_val(uint64_t(k->literal), 64);
      code.contract.source = object_ ? object_->named : treeName(site_.spec.root, files_.assembly);
      code.contract.sourceSha256 = sourceSha256_;
      code.contract.fromObject = object_ != nullptr;
      out.push_back(std::move(code));
    }
    return out;
  }

 private:
  TrampolineFiles files_;
  std::string symbol_;
  const TrampolineSite& site_;
  z3::context& c_;
  Target t_;
  const Spec::TrampolineObject* object_;  // the build's code, instead of files_.assembly
  ContractFile contract_;
  Diagnostics errors_;
  std::optional<std::string> encodingUndecided_;  // TrampolineCode::encodingUndecided
  std::map<std::string, z3::expr> symbols_;  // the contract's symbols (and spec ones it uses)
  std::vector<z3::expr> constraints_;
  std::vector<std::pair<SourceLocation, std::string>> origins_;  // of each constraint

  void constrain(const z3::expr& e, const SourceLocation& where, const std::string& what) {
    constraints_.push_back(e);
    origins_.push_back({where, what});
  }
  int64_t ipOffset_ = 0;
  uint64_t codeBytes_ = 0;  // from the symbol to the end of the last unit
  std::string sourceSha256_;  // of the assembly as read and assembled

  z3::expr base() const { return site_.symbol(symbol_); }

  std::optional<z3::expr> term(const std::string& name) const {
    if (name == symbol_) return base();
    if (auto it = symbols_.find(name); it != symbols_.end()) return it->second;
    if (auto it = site_.symbols.find(name); it != site_.symbols.end()) return it->second;
    return std::nullopt;
  }

  // The contract's line for one of its symbols, else `otherwise`.
  SourceLocation symbolWhere(const std::string& name, const SourceLocation& otherwise) const {
    for (const ContractSymbol& s : contract_.symbols)
      if (s.name == name) return s.where;
    return otherwise;
  }

  void placeSymbols() {
    auto regions = regionsFor(site_.spec, t_);
    for (const ContractSymbol& s : contract_.symbols) {
      if (site_.symbols.count(s.name)) {  // the spec's placement wins
        symbols_.emplace(s.name, site_.symbol(s.name));
        continue;
      }
      std::string regionName = !s.region.empty() ? s.region : !s.regionStart.empty() ? s.regionStart : s.regionEnd;
      const RegionSpec* r = s.value ? nullptr : findRegion(regions, regionName);
      if (!s.value && !r) {
        errors_.push_back({s.where, "symbol '" + s.name + "' names unknown region '" + regionName + "' for " + t_.str()});
        continue;
      }
      if (s.value) {
        symbols_.emplace(s.name, signExtended(c_, *s.value, t_));
      } else if (!s.regionStart.empty()) {
        symbols_.emplace(s.name, c_.bv_val(r->lo, 64));
      } else if (!s.regionEnd.empty()) {
        symbols_.emplace(s.name, c_.bv_val(r->hi + 1, 64));
      } else {
        z3::expr x = c_.bv_const(s.name.c_str(), 64);
        PlacementFacts placed = placementFacts(x, s.name, r->lo, r->hi, s.align);
        std::string range = "[" + hex(r->lo) + ", " + hex(r->hi) + "]";
        std::string aligned = std::to_string(s.align) + " bytes";
        constrain(placed.range, s.where, s.name + " lies in " + r->name + " " + range);
        for (const z3::expr& e : placed.aligned) constrain(e, s.where, s.name + " is aligned to " + aligned);
        for (const z3::expr& e : placed.narrowed)
          constrain(e, s.where, s.name + " lies in " + r->name + " " + range + ", aligned to " + aligned);
        symbols_.emplace(s.name, x);
      }
    }
    if (!contract_.entries.empty()) {  // every entry shares the callback
      const TrampolineCallback& cb = contract_.entries.front().callback;
      std::vector<std::string> used;
      if (!cb.none()) used.push_back(cb.symbol);
      if (cb.ops) used.push_back(*cb.ops);
      if (cb.callOps) used.push_back(cb.callOps->ops);
      if (cb.callOps && !cb.callOps->direct.empty()) used.push_back(cb.callOps->direct);
      for (const TrampolineRedirect& r : cb.redirects) used.push_back(r.target);
      for (const std::string& name : used)
        if (!term(name))
          errors_.push_back({{files_.contract, 1, 1}, "symbol '" + name +
                                                          "' is used by the contract but declared neither in its "
                                                          "[symbols] nor in the spec"});
        else if (!symbols_.count(name))
          symbols_.emplace(name, *term(name));
    }
    if (contract_.entries.empty() || contract_.entries.front().callback.none()) return;
    auto offset = ipOffsetFor(contract_.entries.front().callback.ipOffset, site_.spec, t_);
    if (offset) ipOffset_ = *offset;
    else
      errors_.push_back({contract_.ipWhere, "no ip offset for a function placed where the spec's " +
                                                site_.spec.function + " lies"});
  }

  void checkNames() {
    for (size_t i = 0; i < contract_.entries.size(); ++i) checkNames(contract_.entries[i], contract_.entryWhere[i]);
  }

  void checkNames(const TrampolineContract& e, const SourceLocation& at) {
    auto known = [&](const std::string& r) { return modelOf(t_).parseRegister(r, t_).has_value(); };
    std::vector<std::string> regs{e.resume};
    if (e.savedRa) regs.push_back(*e.savedRa);
    if (e.mode) regs.push_back(e.mode->reg);
    regs.insert(regs.end(), e.clobbers.begin(), e.clobbers.end());
    for (const auto& [slot, off] : e.callback.ptRegs)
      if (slot != "epc" && slot != "resume") regs.push_back(slot);
    for (const std::string& r : regs)
      if (!known(r)) errors_.push_back({at, "'" + r + "' is not a register under " + std::string(t_.abiName())});
    // A resume slot is where the site's call left the address: at the
    // stack pointer the contract's stack_adjust places.
    const IsaModel& isa = modelOf(t_);
    if (e.resumeSlot && known(e.resume) && *isa.parseRegister(e.resume, t_) != isa.abi(t_).sp)
      errors_.push_back({at, "a resume slot must be at the stack pointer, not at '" + e.resume + "'"});
    for (const auto& [r, allowed] : e.values)
      if (!registerNumber(modelOf(t_), r, t_))
        errors_.push_back({at, "'" + r + "' is not in the register file of " + t_.str()});
  }

  // [call_ops] direct_contract: the entry convention a direct trampoline
  // is handed over with, read from that trampoline's own contract file.
  // The same for a direct trampoline the tracer names through the regs
  // frame ([[callback.writes]] direct, direct_contract).
  void loadHandoff() {
    if (contract_.entries.empty()) return;
    const TrampolineCallback& cb = contract_.entries.front().callback;
    if (cb.callOps && !cb.callOps->directContract.empty())
      if (auto handoff = directEntry(cb.callOps->directContract))
        for (TrampolineContract& e : contract_.entries) e.callback.callOps->handoff = handoff;
    for (size_t i = 0; i < cb.redirects.size(); ++i)
      if (!cb.redirects[i].enter)
        if (auto handoff = directEntry(cb.redirects[i].contract))
          for (TrampolineContract& e : contract_.entries) e.callback.redirects[i].handoff = handoff;
  }

  std::shared_ptr<const TrampolineContract> directEntry(const std::string& file) {
    std::string path = (fs::path(files_.contract).parent_path() / file).string();
    auto loaded = loadContractFile(path);
    if (auto* e = std::get_if<Diagnostics>(&loaded)) {
      errors_.insert(errors_.end(), e->begin(), e->end());
      return nullptr;
    }
    const ContractFile& other = std::get<ContractFile>(loaded);
    if (other.entries.size() != 1 || other.entries.front().entryOffset != 0) {
      errors_.push_back({{path, 1, 1}, "a direct trampoline's contract must have one entry, at offset 0"});
      return nullptr;
    }
    checkNames(other.entries.front(), other.entryWhere.front());  // its registers, for this target
    return std::make_shared<const TrampolineContract>(other.entries.front());
  }

  std::vector<TrampolineUnit> assemble() {
    std::vector<TrampolineUnit> out;
    std::optional<ObjectTrampolineText> object;
    std::optional<std::string> text;
    std::string file = files_.assembly;
    if (object_) {  // the build's bytes, written back as assembly
      auto made = objectTrampolineText(*object_, symbol_, t_);
      if (auto* e = std::get_if<Diagnostics>(&made)) {
        errors_.insert(errors_.end(), e->begin(), e->end());
        return out;
      }
      object = std::get<ObjectTrampolineText>(std::move(made));
      text = object->text, file = object->file;
      sourceSha256_ = object->sha256;
    } else {
      text = readFile(files_.assembly);
      if (!text) {
        errors_.push_back({{files_.assembly, 1, 1}, "cannot read the trampoline"});
        return out;
      }
      sourceSha256_ = sha256Hex(*text);
    }
    AssemblyOptions o;
    o.target = t_;
    o.requireKernelReach = true;
    z3::expr b = base().simplify();
    uint64_t fixed = 0;
    bool concreteBase = b.is_numeral() && b.is_numeral_u64(fixed);
    o.base = concreteBase ? Value::constant(int64_t(fixed)) : Value{symbol_, 0};
    auto add = [&](const std::string& name, const z3::expr& e) {
      if (name == symbol_) return;
      z3::expr s = e.simplify();
      uint64_t v = 0;
      if (s.is_numeral() && s.is_numeral_u64(v)) o.symbols[name] = v;
      else o.symbolic.insert(name);
    };
    for (const auto& [name, e] : site_.symbols) add(name, e);
    for (const auto& [name, e] : symbols_) add(name, e);
    auto assembled = t_.isa->assemble(*text, file, o);
    if (auto* e = std::get_if<Diagnostics>(&assembled)) {
      for (Diagnostic d : *e) {
        d.message += " (for " + t_.str() + ")";
        errors_.push_back(object ? objectDiagnostic(*object, d) : d);
      }
      return out;
    }
    const Program& a = std::get<Program>(assembled);
    if (object) {
      // Compared with every symbol symbolic, as the object leaves them to
      // the linker: a symbol the proof places at a fixed address (a
      // region's start) gives what the linker would write there.
      AssemblyOptions linker = o;
      for (const auto& [name, value] : o.symbols) linker.symbolic.insert(name);
      linker.symbols.clear();
      linker.base = Value{symbol_, 0};
      auto relocatable = t_.isa->assemble(*text, file, linker);
      if (auto* e = std::get_if<Diagnostics>(&relocatable)) {
        for (const Diagnostic& d : *e) errors_.push_back(objectDiagnostic(*object, d));
        return out;
      }
      Diagnostics differ = compareWithObject(*object, std::get<Program>(relocatable), t_, c_);
      if (!differ.empty()) {
        errors_.insert(errors_.end(), differ.begin(), differ.end());
        return out;
      }
    }
    auto label = a.labels.find(symbol_);
    if (label == a.labels.end() || !(label->second == o.base))
      errors_.push_back({{files_.assembly, 1, 1}, "the file must define the label '" + symbol_ + "' at its first word"});
    for (const Unit& w : a.units) codeBytes_ = std::max(codeBytes_, uint64_t(w.address.addend - o.base.addend) + w.bytes);
    addCodeConstraints();
    auto sym = [this](const std::string& n) { return *term(n); };
    std::vector<z3::expr> placement = site_.constraints, conditions;
    placement.insert(placement.end(), constraints_.begin(), constraints_.end());
    std::vector<std::pair<const Unit*, std::string>> owner;  // the word and why
    for (const Unit& w : a.units) {
      SymbolicUnit sw = t_.isa->symbolic(w, t_, c_, sym);
      for (size_t k = 0; k < sw.conditions.size(); ++k) {
        conditions.push_back(sw.conditions[k]);
        owner.push_back({&w, sw.reasons[k]});
      }
      out.push_back(TrampolineUnit{w.address.addend - o.base.addend, Instruction{sw.term, sw.knownBits, w.bytes},
                                   w.source, w.where});
      if (object) {  // traces show the object's instruction and where it lies
        size_t i = out.size() - 1;
        out.back().text = objectLineText(*object, i, t_);
        out.back().where = {object->code.object, 0, 0};
      }
    }
    if (site_.encodingsChecked) return out;  // they fit: asked once already
    Prover prover(c_, site_.timeoutMs);
    for (const z3::expr& e : placement) prover.assume(e);
    for (const FailedCondition& f : failingConditions(prover, conditions)) {
      const auto& [w, why] = owner[f.index];
      if (!f.where) {  // as for the site's words (SiteInstance::make): UNKNOWN at most, placed where it fits
        constrain(conditions[f.index], w->where, "'" + w->source + "' fits its encoding: " + why);
        if (!encodingUndecided_)
          encodingUndecided_ = "whether '" + w->source + "' (" + w->where.file + ":" + std::to_string(w->where.line) +
                               ") can be encoded for every placement (" + t_.str() + "): it needs " + why + "; " +
                               prover.lastUnknownReason();
        continue;
      }
      errors_.push_back({w->where, "'" + w->source + "' cannot be encoded for every placement (" + t_.str() +
                                       "): it needs " + why + " (relocation overflow)"});
    }
    return out;
  }

  // The trampoline is a function of its own: its words lie apart from the
  // site, the callback lies apart from both, and on 32-bit ISAs every
  // address is a sign-extended 32-bit value.
  void addCodeConstraints() {
    z3::expr t = base();
    z3::expr end = t + c_.bv_val(codeBytes_, 64);
    z3::expr f = site_.symbol(site_.spec.function);
    z3::expr siteStart = f + c_.bv_val(uint64_t(site_.regionStart), 64);
    z3::expr siteEnd = f + c_.bv_val(uint64_t(site_.regionEnd), 64);
    SourceLocation code{files_.assembly, 1, 1};
    std::string bytes = symbol_ + "'s code (" + std::to_string(codeBytes_) + " bytes)";
    const std::string& fn = site_.spec.function;
    constrain(z3::ult(t, end), code, bytes + " does not wrap around the address space");
    constrain(z3::ule(end, siteStart) || z3::ule(siteEnd, t), code, bytes + " lies apart from " + fn + "'s site");
    std::vector<std::string> targets;  // where the code may go: apart from it and the site
    if (!contract_.entries.empty()) {
      const TrampolineCallback& cb = contract_.entries.front().callback;
      if (!cb.none()) targets.push_back(cb.symbol);
      if (cb.callOps && !cb.callOps->direct.empty()) targets.push_back(cb.callOps->direct);
      for (const TrampolineRedirect& r : cb.redirects) targets.push_back(r.target);
    }
    for (const std::string& name : targets) {
      z3::expr cb = symbols_.at(name);
      SourceLocation at = symbolWhere(name, code);
      constrain(z3::ult(cb, t) || z3::uge(cb, end), at, name + " lies apart from " + bytes);
      constrain(z3::ult(cb, siteStart) || z3::uge(cb, siteEnd), at, name + " lies apart from " + fn + "'s site");
    }
    // What a tracer's write names is another function than the callback
    // and than every other such target (a livepatch's new function is no
    // direct trampoline).
    if (!contract_.entries.empty())
      for (const TrampolineRedirect& r : contract_.entries.front().callback.redirects)
        for (const std::string& other : targets)
          if (other != r.target)
            constrain(symbols_.at(r.target) != symbols_.at(other), symbolWhere(r.target, code),
                      r.target + " and " + other + " are different functions");
    for (const auto& [name, other] : site_.symbols)  // other functions the spec names
      if (name != symbol_ && name != fn)
        constrain(z3::ult(other, t) || z3::uge(other, end), code, name + " (the spec's) lies apart from " + bytes);
    if (!t_.wide())
      for (const auto& [x, n] : {std::pair{t, symbol_}, std::pair{f, fn}})
        constrain(z3::sext(x.extract(31, 0), 32) == x, code, n + " is a sign-extended 32-bit address");
  }
};

}  // namespace

std::optional<TrampolineFiles> resolveTrampoline(const Spec& spec, const std::string& path, const Target& t) {
  fs::path given(path);
  if (!given.is_absolute() && spec.trampolineDir.empty()) return std::nullopt;
  fs::path full = given.is_absolute() ? given : fs::path(spec.trampolineDir) / given;
  std::vector<fs::path> candidates;
  if (full.extension() == ".S") {
    fs::path wide = full;
    wide.replace_filename(full.stem().string() + (t.wide() ? "_64" : "_32") + ".S");
    candidates.push_back(wide);
  }
  candidates.push_back(full);
  for (const fs::path& p : candidates)
    if (fs::exists(p)) {
      fs::path contract = p;
      contract.replace_extension(".toml");
      return TrampolineFiles{p.string(), contract.string()};
    }
  return std::nullopt;
}

std::variant<std::vector<TrampolineCode>, Diagnostics> loadTrampoline(const TrampolineFiles& files,
                                                                     const std::string& symbol,
                                                                     const TrampolineSite& site,
                                                                     const Spec::TrampolineObject* object) {
  return Loader(files, symbol, site, object).run();
}

std::variant<TrampolineSet, Diagnostics> loadTrampolines(const TrampolineSite& site) {
  const Spec& spec = site.spec;
  TrampolineSet out;
  Diagnostics errs;
  for (const auto& [symbol, object] : spec.trampolineObjects)
    if (!spec.trampolines.count(symbol))
      errs.push_back({object.where, "trampoline '" + symbol + "' from " + object.named +
                                        ": " + spec.path + " names no such trampoline in [trampolines] (whose file "
                                        "gives the contract)"});
  for (const auto& [symbol, path] : spec.trampolines) {
    auto files = resolveTrampoline(spec, path, site.target);
    auto named = spec.trampolineWhere.find(symbol);
    SourceLocation where = named != spec.trampolineWhere.end() ? named->second : SourceLocation{spec.path, 1, 1};
    if (!files && spec.trampolineDir.empty() && !fs::path(path).is_absolute()) {
      errs.push_back({where, "trampoline '" + symbol + "': no trampolines/ directory in the spec's directory or above "
                             "it; pass --trampolines DIR (docs/spec-format.md)"});
      continue;
    }
    if (!files) {
      std::string wanted = fs::path(path).is_absolute() ? path : (fs::path(spec.trampolineDir) / path).string();
      errs.push_back({where, "trampoline '" + symbol + "': no file " + wanted + " (nor a _32/_64 variant)"});
      continue;
    }
    if (!std::filesystem::exists(files->contract)) {
      errs.push_back({where, "trampoline '" + symbol + "': no contract file " + files->contract +
                                 " beside its assembly (docs/trampolines.md)"});
      continue;
    }
    auto obj = spec.trampolineObjects.find(symbol);
    auto codes = loadTrampoline(*files, symbol, site, obj != spec.trampolineObjects.end() ? &obj->second : nullptr);
    if (auto* e = std::get_if<Diagnostics>(&codes)) {
      errs.insert(errs.end(), e->begin(), e->end());
      continue;
    }
    for (TrampolineCode& c : std::get<std::vector<TrampolineCode>>(codes)) {
      std::string key = c.contract.key();
      out.emplace(key, std::move(c));
    }
  }
  if (!errs.empty()) return errs;
  return out;
}

std::map<std::string, TrampolineContract> contractsOf(const TrampolineSet& set) {
  std::map<std::string, TrampolineContract> out;
  for (const auto& [key, code] : set) out.emplace(key, code.contract);
  return out;
}

}  // namespace patchcheck
