#include "checker/report/Certificate.h"

#include "checker/report/BuildInfo.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checker/explore/Sha256.h"
#include "checker/spec/ObjectSymbol.h"
#include "checker/spec/SpecTree.h"
#include "encoder/Isa.h"

namespace patchcheck {
namespace fs = std::filesystem;

std::string instructionTableText(const Spec& spec) {
  std::vector<const IsaPlugin*> used{spec.target.isa};
  for (const Target& t : spec.matrix)
    if (std::find(used.begin(), used.end(), t.isa) == used.end()) used.push_back(t.isa);
  std::string out;
  for (const IsaPlugin* isa : used) out += isa->tableText();
  return out;
}

namespace {

std::optional<std::string> readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The files a [trampolines] entry may name (<path> under the spec's
// trampoline directory, its _32/_64 variants, and the contract .toml beside
// each), those that exist, named from the spec's tree root.
nlohmann::json trampolineFiles(const Spec& spec, const std::string& path) {
  fs::path given(path);
  nlohmann::json files = nlohmann::json::array();
  if (!given.is_absolute() && spec.trampolineDir.empty()) return files;
  fs::path full = given.is_absolute() ? given : fs::path(spec.trampolineDir) / given;
  std::vector<fs::path> candidates = {full};
  if (full.extension() == ".S")
    for (const char* w : {"_32", "_64"}) {
      fs::path v = full;
      v.replace_filename(full.stem().string() + w + ".S");
      candidates.push_back(v);
    }
  for (const fs::path& c : candidates)
    for (fs::path p : {c, fs::path(c).replace_extension(".toml")})
      if (auto text = readFile(p)) files.push_back({{"file", treeName(spec.root, p.string())}, {"sha256", sha256Hex(*text)}});
  return files;
}

}  // namespace

nlohmann::json certificateInputs(const Spec& spec, unsigned timeoutMs) {
  nlohmann::json c;
  c["spec_sha256"] = sha256Hex(spec.text);
  c["trampolines"] = nlohmann::json::array();
  for (const auto& [symbol, path] : spec.trampolines) {
    nlohmann::json k{{"symbol", symbol}, {"path", path}, {"files", trampolineFiles(spec, path)}};
    // Proven from a build: the symbol's bytes and its relocations are
    // what the proof covers (docs/trampolines.md, "From a build").
    if (auto o = spec.trampolineObjects.find(symbol); o != spec.trampolineObjects.end()) {
      k["object"] = {{"file", o->second.object}, {"symbol", o->second.symbol}};
      auto read = readObjectSymbol(o->second.object, o->second.symbol, o->second.where);
      if (auto* code = std::get_if<ObjectSymbolCode>(&read)) {
        std::string_view bytes(reinterpret_cast<const char*>(code->bytes.data()), code->bytes.size());
        k["object"]["bytes_sha256"] = sha256Hex(bytes);
        k["files"].push_back({{"file", o->second.named}, {"sha256", sha256Hex(bytes)}});
        k["files"].push_back({{"file", o->second.named + " relocations"}, {"sha256", sha256Hex(code->relocationText())}});
      }
    }
    c["trampolines"].push_back(std::move(k));
  }
  c["instruction_table_sha256"] = sha256Hex(instructionTableText(spec));
  c["tool"] = std::string("patchcheck ") + PATCHCHECK_VERSION;
  // The build that proved it: gate --baseline proves again what another
  // build certified (Baseline.cpp); the commit is for the reader.
  c["checker"] = buildIdentity();
  c["checker"]["commit"] = buildInfo().commit;
  c["model"] = {{"fetch", std::string(spec.model.fetch->name())},
                {"line_bytes", spec.model.lineBytes},
                {"preemption", spec.model.preemption ? "full" : "none"},
                {"delay_slot_interrupts", spec.model.delaySlotInterrupts},
                {"solver_timeout_ms", timeoutMs}};
  // What the breakpoint handler does decides what a breakpoint step proves.
  if (spec.target.isa->patching().patchBreakpoint()) {
    using B = ModelSpec::Breakpoint;
    B b = spec.model.breakpoint;
    c["model"]["int3_handler"] = b == B::Emulate ? "emulate" : b == B::Skip ? "skip" : "none";
    if (!spec.model.breakpointKernel.newest()) c["model"]["int3_kernel"] = spec.model.breakpointKernel.str();
  }
  return c;
}

}  // namespace patchcheck
