// fetch = "sc": a fetch sees the writes in the order they happen, each as
// soon as it is done (docs/model.md "The writer and what a fetch may see").
// The strongest model: a sequence unsafe under it is unsafe on any CPU.
#include "checker/spec/FetchRules.h"

namespace patchcheck::fetch {
namespace {

class ScRules final : public FetchRules {
 public:
  std::string_view name() const override { return "sc"; }
  std::string_view description() const override { return "the sequentially consistent model"; }
  bool takesStep(std::string_view v) const override { return v == "write" || v == "wait" || v == "sync" || v == "flush"; }
  std::string_view stepUsage() const override { return "write I, write I = \"insn\", sync, flush, wait"; }
  Forced forcedBy(bool) const override { return Forced::Done; }
  bool inOrder() const override { return true; }
  Settled settledBy(const ModelSpec&) const override { return Settled::Done; }
  std::string publishingSteps(const ModelSpec&, const std::string& i) const override {
    return "`write " + i + "`";  // the write itself
  }
};

}  // namespace

const FetchRules& Sc() {
  static const ScRules rules{};
  return rules;
}

}  // namespace patchcheck::fetch
