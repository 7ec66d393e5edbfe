// fetch = "stale": as weak, but a fetch reads a per-CPU I-cache line that
// a refill copies whole from memory: a `sync` orders writes only within
// one line, stop_machine invalidates nothing, and a task that migrates
// may meet another CPU's older lines (docs/model.md "The writer and what a
// fetch may see").
#include "checker/spec/FetchRules.h"

namespace patchcheck::fetch {
namespace {

class StaleRules final : public FetchRules {
 public:
  std::string_view name() const override { return "stale"; }
  std::string_view description() const override { return "the stale I-cache line model"; }
  bool takesStep(std::string_view v) const override { return v == "write" || v == "wait" || v == "sync" || v == "flush"; }
  std::string_view stepUsage() const override { return "write I, write I = \"insn\", sync, flush, wait"; }
  Forced forcedBy(bool) const override { return Forced::Flushed; }
  bool lineGrained() const override { return true; }
  bool migrationSeesOlderLines() const override { return true; }
  Settled settledBy(const ModelSpec&) const override { return Settled::Flushed; }
  std::string publishingSteps(const ModelSpec&, const std::string&) const override { return "`flush`"; }
};

}  // namespace

const FetchRules& Stale() {
  static const StaleRules rules{};
  return rules;
}

}  // namespace patchcheck::fetch
