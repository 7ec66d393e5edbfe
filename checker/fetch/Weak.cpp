// fetch = "weak": instruction fetch is not coherent with stores; a write
// is seen for certain only once a flush (flush_icache_range) forced it,
// and a `sync` orders the writes before it ahead of those after it for
// every fetch (docs/model.md "The writer and what a fetch may see"). Once
// stop_machine lets the CPUs run again, every write done is seen.
#include "checker/spec/FetchRules.h"

namespace patchcheck::fetch {
namespace {

class WeakRules final : public FetchRules {
 public:
  std::string_view name() const override { return "weak"; }
  std::string_view description() const override { return "the weak model"; }
  bool takesStep(std::string_view v) const override { return v == "write" || v == "wait" || v == "sync" || v == "flush"; }
  std::string_view stepUsage() const override { return "write I, write I = \"insn\", sync, flush, wait"; }
  Forced forcedBy(bool live) const override { return live ? Forced::Flushed : Forced::Done; }
  Settled settledBy(const ModelSpec&) const override { return Settled::Flushed; }
  std::string publishingSteps(const ModelSpec&, const std::string&) const override { return "`flush`"; }
};

}  // namespace

const FetchRules& Weak() {
  static const WeakRules rules{};
  return rules;
}

}  // namespace patchcheck::fetch
