#include "checker/SiteInstance.h"

#include "checker/Regions.h"
#include "encoder/Assembler.h"
#include "encoder/Decoder.h"

namespace patchcheck {

mips::Fetched WordImage::fetched(const mips::Target& t) const {
  // Opcode and register fields are always concrete, so the row comes from
  // the known bits; the immediate may stay symbolic in the word term.
  return mips::Fetched{mips::decode(symbolic.knownBits, t.isa), symbolic.knownBits, symbolic.word};
}

bool WordImage::sameAs(const WordImage& o) const {
  return symbolic.knownMask == o.symbolic.knownMask && symbolic.knownBits == o.symbolic.knownBits &&
         z3::eq(symbolic.word, o.symbolic.word);
}

namespace {

z3::expr signExtendedAddress(z3::context& c, uint64_t v, const mips::Target& t) {
  if (!t.is64()) v = uint64_t(int64_t(int32_t(uint32_t(v))));
  return c.bv_val(v, 64);
}

}  // namespace

std::variant<SiteInstance, Diagnostics> SiteInstance::make(const Spec& spec, const mips::Target& t,
                                                           z3::context& c) {
  SiteInstance s(spec, t, c);
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
      s.constraints_.push_back(z3::uge(term, signExtendedAddress(c, r->lo, t)));
      s.constraints_.push_back(z3::ule(term, signExtendedAddress(c, r->hi, t)));
      uint64_t align = sym ? sym->align : 4;
      if (align > 1) s.constraints_.push_back((term & c.bv_val(align - 1, 64)) == 0);
    }
    s.symbols_.emplace(n, term);
  }
  if (!errs.empty()) return errs;
  // Every other symbol is a different function: not inside F's site, its
  // declared body, or the body word right after them.
  z3::expr f = s.symbols_.at(spec.function);
  z3::expr end = f + c.bv_val(uint64_t(4) * (s.regionWords() + 1), 64);
  for (const auto& [n, term] : s.symbols_) {
    if (n == spec.function) continue;
    s.constraints_.push_back(z3::ult(term, f) || z3::uge(term, end));
    for (const auto& [m, other] : s.symbols_)
      if (m < n && m != spec.function) s.constraints_.push_back(term != other);
  }
  for (const StateSpec& st : spec.states) {
    auto ws = s.assembleWords(st.words, 0);
    if (auto* e = std::get_if<Diagnostics>(&ws)) {
      errs.insert(errs.end(), e->begin(), e->end());
      continue;
    }
    s.states_[st.name] = std::move(std::get<std::vector<WordImage>>(ws));
  }
  auto body = s.assembleWords(spec.body, spec.words);
  if (auto* e = std::get_if<Diagnostics>(&body)) errs.insert(errs.end(), e->begin(), e->end());
  else s.body_ = std::move(std::get<std::vector<WordImage>>(body));
  if (!errs.empty()) return errs;
  // An encoding's side condition (j/jal region, branch reach, immediate
  // range) must hold for every allowed placement; a placement that breaks
  // it is what Linux reports as a relocation overflow.
  z3::solver placement(c);
  for (const z3::expr& e : s.constraints_) placement.add(e);
  auto checkConditions = [&](const std::vector<WordImage>& ws) {
    for (const WordImage& w : ws)
      for (size_t k = 0; k < w.symbolic.conditions.size(); ++k) {
        placement.push();
        placement.add(!w.symbolic.conditions[k]);
        if (placement.check() == z3::sat) {
          z3::model m = placement.get_model();
          std::string where;
          for (const auto& [n, term] : s.symbols_) {
            uint64_t v = 0;
            m.eval(term, true).is_numeral_u64(v);
            char buf[40];
            snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
            where += (where.empty() ? "" : ", ") + n + " = " + buf;
          }
          errs.push_back({w.assembled.where,
                          "'" + w.source + "' cannot be encoded for every placement (" + t.str() +
                              "): it needs " + w.symbolic.reasons[k] + ", which fails at " + where +
                              " (relocation overflow)"});
        }
        placement.pop();
      }
  };
  for (const auto& [n, ws] : s.states_) checkConditions(ws);
  checkConditions(s.body_);
  if (!errs.empty()) return errs;
  return s;
}

z3::expr SiteInstance::wordAddress(unsigned i) const {
  return symbols_.at(spec_->function) + ctx_->bv_val(uint64_t(4) * i, 64);
}

WordImage SiteInstance::image(const mips::AssembledWord& w, const std::string& source) const {
  auto term = [this](const std::string& n) { return symbols_.at(n); };
  return WordImage{w, mips::symbolicWord(w, target_, *ctx_, term), source};
}

std::variant<std::vector<WordImage>, Diagnostics> SiteInstance::assembleWords(
    const std::vector<WordSpec>& words, unsigned first) const {
  mips::AssemblyOptions o;
  o.target = target_;
  o.base = mips::Value{spec_->function, int64_t(4 * first)};
  o.allowUnpredictable = spec_->allowUnpredictable;
  for (const auto& [n, term] : symbols_) {
    const SymbolSpec* sym = spec_->symbol(n);
    if (sym && sym->value) o.symbols[n] = uint64_t(term.get_numeral_uint64());
    else o.symbolic.insert(n);
  }
  std::string text;
  for (const WordSpec& w : words) text += w.text + "\n";
  auto a = mips::assemble(text, spec_->path, o);
  if (auto* e = std::get_if<Diagnostics>(&a)) {
    Diagnostics mapped;
    for (const Diagnostic& d : *e) {
      SourceLocation at = d.where.line >= 1 && d.where.line <= words.size()
                              ? spec_->locate(words[d.where.line - 1].where, d.where.column ? d.where.column - 1 : 0)
                              : d.where;
      mapped.push_back({at, d.message + " (for " + target_.str() + ")"});
    }
    return mapped;
  }
  const auto& assembly = std::get<mips::Assembly>(a);
  std::vector<WordImage> out;
  if (assembly.words.size() != words.size()) {
    SourceLocation at = words.empty() ? spec_->functionWhere : words.front().where;
    return Diagnostics{{at, "expected " + std::to_string(words.size()) + " words, the assembly has " +
                                std::to_string(assembly.words.size())}};
  }
  for (size_t i = 0; i < words.size(); ++i) {
    out.push_back(image(assembly.words[i], words[i].text));
    out.back().assembled.where = words[i].where;  // report at the spec's text
  }
  return out;
}

std::variant<WordImage, Diagnostics> SiteInstance::interim(const WordSpec& w, unsigned index) const {
  auto ws = assembleWords({w}, index);
  if (auto* e = std::get_if<Diagnostics>(&ws)) return *e;
  return std::get<std::vector<WordImage>>(ws).front();
}

std::string SiteInstance::describeSymbols() const {
  std::string s;
  for (const auto& [n, t] : symbols_) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace patchcheck
