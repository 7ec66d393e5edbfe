#pragma once
// A spec made concrete for one target: the symbols as 64-bit Z3 terms with
// their placement constraints (region, alignment, not inside the site),
// every state, body and interim unit assembled at its address, and the
// trampolines of [trampolines] assembled at their symbols (their code lies
// apart from the site: checker/explore/Trampolines.h).
#include <z3++.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/spec/SiteLayout.h"
#include "checker/explore/Batch.h"
#include "checker/explore/Limits.h"
#include "checker/explore/TrampolineRun.h"
#include "checker/explore/TrampolineSite.h"
#include "checker/spec/Spec.h"
#include "checker/spec/SpecTarget.h"
#include "encoder/Assembly.h"
#include "encoder/Isa.h"
#include "model/Instruction.h"

namespace patchcheck {

// One version of one patch unit as the CPU may fetch it.
struct UnitImage {
  Unit assembled;
  SymbolicUnit symbolic;
  std::string source;  // spec text

  // A byte of a byte site (x86): the instruction it is part of (with F's
  // state around it) and which of its bytes it is.
  std::shared_ptr<const UnitImage> whole;
  unsigned byte = 0;

  Instruction fetched() const;
  bool sameAs(const UnitImage& o) const;
  // The byte `k` of this unit in memory order, as a term (8 bits).
  z3::expr byteTerm(unsigned k, const Target&) const;
};

// The answers of make()'s solver checks for one spec and target: every
// encoding (the site's, the trampolines') fits every placement, and some
// placement exists (or the solver could not tell). They are the same
// questions for every make() of that spec and target, so a run asks them
// once per target and hands the answers to the other make()s.
struct SiteChecks {
  std::optional<std::string> placementUndecided;
};

class SiteInstance {
 public:
  // Every placement question goes to one Prover under `timeoutMs` (--timeout).
  // With `checked` (an earlier make()'s checks() for the same spec and
  // target) the solver checks are not asked again. With `instance`, the
  // spec is one instance of a batch (Batch.h): its function lies at the
  // batch's F plus one instance's offset, and no other symbol lies in the
  // batch's region.
  static std::variant<SiteInstance, Diagnostics> make(const Spec&, const Target&, z3::context&,
                                                      unsigned timeoutMs = Limits{}.timeoutMs,
                                                      const SiteChecks* checked = nullptr,
                                                      const BatchInstance* instance = nullptr);

  const Spec& spec() const { return *spec_; }
  const Target& target() const { return target_; }
  z3::context& ctx() const { return *ctx_; }

  // Address term of a declared symbol (F included).
  z3::expr symbol(const std::string& name) const { return symbols_.at(name); }
  const std::map<std::string, z3::expr>& symbols() const { return symbols_; }
  // The site's bytes around F: its patch units, then the body's.
  const SiteLayout& layout() const { return layout_; }
  // Bytes from F to one past the region and the unit after it.
  int64_t regionEnd() const { return beyond(); }
  // Address of unit `i` (i == regionUnits(): the end of the region).
  z3::expr unitAddress(unsigned i) const;
  z3::expr bodyStart() const;
  unsigned regionUnits() const { return layout_.size(); }

  // Placement constraints and the encodings' side conditions; make()
  // refuses a site whose constraints and ABI entry facts have no model.
  const std::vector<z3::expr>& constraints() const { return constraints_; }
  // Set when the solver could not tell whether any placement exists: then
  // no verdict may be SAFE.
  const std::optional<std::string>& placementUndecided() const { return placementUndecided_; }
  SiteChecks checks() const { return {placementUndecided_}; }

  const std::vector<UnitImage>& state(const std::string& name) const { return states_.at(name); }
  // A byte site's state as its instructions, by their first byte.
  const std::map<unsigned, std::shared_ptr<const UnitImage>>& instructions(const std::string& state) const {
    return instructions_.at(state);
  }
  const std::vector<UnitImage>& body() const { return body_; }
  // The unit a `write I = "insn"` step writes (index: the region unit).
  std::variant<UnitImage, Diagnostics> interim(const UnitSpec&, unsigned index) const;
  std::string describeSymbols() const;
  // What loading a trampoline called from this site needs of it.
  TrampolineSite trampolineSite() const {
    return {*spec_, target_, *ctx_, symbols_, constraints_, layout_.start(), beyond(), timeoutMs_, checked_};
  }

  // Every entry of every trampoline, by contract key ("ftrace_caller",
  // "ftrace_caller+8"); not yet proven.
  const std::map<std::string, TrampolineCode>& trampolines() const { return trampolines_; }

 private:
  SiteInstance(const Spec& s, const Target& t, z3::context& c)
      : spec_(&s), target_(t),
        layout_(siteLayout(s, t)), ctx_(&c) {}
  UnitImage image(const Unit&, const std::string& source) const;
  // A byte site's state as the instructions a CPU decodes from its first
  // byte (IsaPlugin::instructionLength), not as its source lines: `.fill
  // 5, 1, 0x90` is five instructions.
  std::map<unsigned, std::shared_ptr<const UnitImage>> decode(const std::vector<std::shared_ptr<const UnitImage>>& units,
                                                              const std::vector<UnitImage>& bytes) const;
  // The instruction of `length` concrete bytes at site byte `p`, as `.byte`.
  std::shared_ptr<const UnitImage> bytesImage(unsigned p, const std::vector<uint8_t>& value, unsigned length,
                                              const Unit& from) const;
  void assume(const z3::expr&, const SourceLocation&, const std::string& what);
  Diagnostics checkPlacement(Prover&);

  // One past the region and the unit after it (F's next instruction is
  // F's own too): where other code may begin.
  int64_t beyond() const;

  const Spec* spec_;
  Target target_;
  SiteLayout layout_;
  z3::context* ctx_;
  unsigned timeoutMs_ = Limits{}.timeoutMs;
  std::map<std::string, z3::expr> symbols_;
  std::vector<z3::expr> constraints_;
  std::vector<std::pair<SourceLocation, std::string>> origins_;  // of each constraint
  std::optional<std::string> placementUndecided_;
  bool checked_ = false;  // make() was given the checks' answers
  std::map<std::string, std::vector<UnitImage>> states_;
  std::map<std::string, std::map<unsigned, std::shared_ptr<const UnitImage>>> instructions_;
  std::vector<UnitImage> body_;
  std::map<std::string, TrampolineCode> trampolines_;
};

}  // namespace patchcheck
