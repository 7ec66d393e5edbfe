// [model]: how the machine fetches, caches, preempts and handles
// breakpoints, each checked against the spec's ISA. Part of the spec loader
// (SpecLoaderImpl.h).
#include <optional>
#include <string>

#include <toml++/toml.h>

#include "checker/spec/FetchRegistry.h"
#include "checker/spec/Spec.h"
#include "checker/spec/SpecLoaderImpl.h"
#include "checker/spec/Suggest.h"
#include "encoder/IsaRegistry.h"

namespace patchcheck::specloader {
namespace {

// Every fetch model of the build (checker/fetch/), as errors list them;
// made on first use, since listing asks the ISA plug-ins.
const NameTable<const FetchRules*>& fetchModelTable() {
  static const NameTable<const FetchRules*> t = [] {
    NameTable<const FetchRules*> out;
    for (const FetchRules* m : fetchModelsListed()) out.push_back({std::string(m->name()), m});
    return out;
  }();
  return t;
}
const NameTable<ModelSpec::Breakpoint> kBreakpoints{{"emulate", ModelSpec::Breakpoint::Emulate},
                                                    {"skip", ModelSpec::Breakpoint::Skip},
                                                    {"none", ModelSpec::Breakpoint::None}};
const NameTable<CacheType> kCacheTypes{
    {"DIC0-IDC0", CacheType::Dic0Idc0}, {"DIC0-IDC1", CacheType::Dic0Idc1}, {"DIC1-IDC1", CacheType::Dic1Idc1}};
const NameTable<bool> kPreemption{{"full", true}, {"none", false}};            // ModelSpec::preemption
const NameTable<bool> kUnpredictable{{"fault", false}, {"hardware", true}};    // ModelSpec::unpredictableAsHardware

}  // namespace

void SpecLoader::loadModel(const toml::table& t) {
  onlyKeys(t, {"fetch", "cache_type", "line_bytes", "preemption", "delay_slot_interrupts", "unpredictable",
               "int3_handler", "int3_kernel", "kprobe"},
           "in [model]");
  ModelSpec& m = spec_.model;
  if (const toml::node* n = t.get("fetch"))
    if (auto f = choice(*n, "fetch model", fetchModelTable())) {
      spec_.fetchWhere = at(*n);
      // The ISA names the models its specs may take (an architecture
      // that defines how instruction fetch sees changes, its own only).
      const IsaPlugin& isa = *spec_.target.isa;
      std::string family(isa.family());
      std::string fetch((*f)->name());
      if (allowsFetchModel(isa, **f))
        m.fetch = *f;
      else if (isa.fetchModels().size() == 1)
        error(at(*n), family + " instruction fetch follows its architecture's model: fetch = \"" +
                          std::string(isa.fetchModels().front()) + "\" (the default), not \"" + fetch + "\"");
      else
        error(at(*n), "fetch = \"" + fetch + "\" is " + std::string((*f)->description()) + "; " + family + " uses " +
                          fetchModelsText(isa));
    }
  if (const toml::node* n = t.get("cache_type")) {
    if (!m.fetch->takesCacheType()) {
      std::string which;
      for (const auto& [name, rules] : fetchModelTable())
        if (rules->takesCacheType()) which += (which.empty() ? "fetch = \"" : " or \"") + name + "\"";
      error(at(*n), "cache_type applies to " + which + " only");
    }
    else if (auto c = choice(*n, "cache_type", kCacheTypes)) m.cacheType = *c;
  }
  if (const toml::node* n = t.get("line_bytes"))
    if (auto b = integer(*n, "line_bytes")) {
      if (*b < 4 || *b > 65536 || !isPowerOfTwo(uint64_t(*b)))
        error(at(*n), "line_bytes must be a power of two >= 4, not " + std::to_string(*b));
      else m.lineBytes = unsigned(*b);
    }
  if (const toml::node* n = t.get("preemption"))
    if (auto p = choice(*n, "preemption", kPreemption)) m.preemption = *p;
  if (const toml::node* n = t.get("delay_slot_interrupts"))
    m.delaySlotInterrupts = boolean(*n, "delay_slot_interrupts").value_or(true);
  if (const toml::node* n = t.get("int3_handler")) {
    spec_.breakpointWhere = at(*n);
    if (spec_.target.isa->patching().patchBreakpoint() != std::optional<std::string_view>("int3"))
      error(at(*n), "int3_handler applies to x86 sites (text_poke_bp's breakpoint), not " +
                        std::string(spec_.target.isa->family()));
    else if (auto b = choice(*n, "int3_handler", kBreakpoints)) m.breakpoint = *b;
  }
  if (const toml::node* n = t.get("int3_kernel")) {
    auto v = string(*n, "int3_kernel");
    auto k = v ? KernelVersion::parse(*v) : std::nullopt;
    auto problem = k ? spec_.target.isa->patching().breakpointKernelProblem(*k) : std::nullopt;
    if (!v) {
    } else if (spec_.target.isa->patching().patchBreakpoint() != std::optional<std::string_view>("int3")) {
      error(at(*n), "int3_kernel applies to x86 sites (text_poke_bp's breakpoint), not " +
                        std::string(spec_.target.isa->family()));
    } else if (m.breakpoint != ModelSpec::Breakpoint::Emulate) {
      error(at(*n), "int3_kernel says which instructions the handler emulates; it needs int3_handler = \"emulate\"");
    } else if (!k) {
      error(at(*n), "int3_kernel must be a Linux version MAJOR.MINOR such as \"6.3\", not '" + *v + "'");
    } else if (problem) {
      error(at(*n), "int3_kernel = \"" + k->str() + "\": " + *problem);
    } else {
      m.breakpointKernel = *k;
    }
  }
  if (const toml::node* n = t.get("unpredictable"))
    if (auto u = choice(*n, "unpredictable", kUnpredictable)) m.unpredictableAsHardware = *u;
  if (const toml::node* n = t.get("kprobe"))
    if (auto s = string(*n, "kprobe")) {
      spec_.kprobeWhere = at(*n);
      if (!spec_.target.isa->patching().probeBreakpoint())
        error(at(*n), "kprobe: patchcheck models kprobes on x86, arm64 and MIPS, not " +
                          std::string(spec_.target.isa->family()));
      else if (!spec_.state(*s))
        error(at(*n), "kprobe names the state of the probed instructions: unknown state '" + *s + "'" +
                          suggest(*s, stateNames()));
      else
        m.kprobe = *s;
    }
}

}  // namespace patchcheck::specloader

namespace patchcheck {

std::string_view name(CacheType c) {
  for (const auto& [n, k] : specloader::kCacheTypes)
    if (k == c) return n;
  return "?";
}

std::optional<CacheType> cacheTypeNamed(std::string_view n) { return specloader::lookup(specloader::kCacheTypes, n); }

}  // namespace patchcheck
