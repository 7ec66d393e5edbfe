#include "checker/report/Baseline.h"

#include "checker/report/TableFile.h"

#include <algorithm>
#include <filesystem>

namespace patchcheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const json* find(const json& array, const std::string& key, const std::string& value) {
  for (const json& x : array)
    if (x.value(key, "") == value) return &x;
  return nullptr;
}

// The steps as the spec writes them: a table's index counts the data units
// before F first (arm64 CALL_OPS), the spec's `write I` counts from F.
std::string stepsText(const json& steps, const json& spec) {
  long long before = (long long)spec.value("units", 0u) - (long long)spec.value("words", spec.value("bytes", 0u));
  std::string s;
  for (const json& st : steps) {
    std::string one = st["op"];
    if (one == "write") {
      long long first = (long long)st["index"].get<unsigned>() - std::max(before, 0ll);
      unsigned bytes = st.value("bytes", 1u);  // a byte site's range
      one += " " + std::to_string(first) + (bytes > 1 ? ".." + std::to_string(first + bytes - 1) : "") +
             (st.contains("state") ? " = " + st["state"].get<std::string>() : "") + " (" +
             st["text"].get<std::string>() + ")";
    }
    s += (s.empty() ? "" : ", ") + one;
  }
  return s;
}

// Words (a byte site: instructions) and behaviour of a state, without its
// verification counts.
json stateContent(const json* s) {
  if (!s) return nullptr;
  const char* units = s->contains("instructions") ? "instructions" : "words";
  return {{units, (*s)[units]}, {"behaviour", (*s)["behaviour"]}};
}

// The build that certified a table, without its commit (which decides
// nothing): a table from before certificates named their build has none.
json certifiedBy(const json& table) {
  const json& cert = table["certificate"];
  if (!cert.contains("checker") || !cert["checker"].is_object()) return nullptr;
  json b = cert["checker"];
  b.erase("commit");
  return b;
}

std::string buildText(const json& b) {
  if (b.is_null()) return "a build that did not name itself";
  auto field = [&](const char* k) { return b.contains(k) && b[k].is_string() ? b[k].get<std::string>() : "?"; };
  std::string sem = field("semantics_sha256");
  return "patchcheck " + field("version") + ", semantics " + sem.substr(0, 12) + ", " + field("solver") +
         (field("libraries").empty() ? "" : ", " + field("libraries"));
}

json stepsContent(const json& tr) {
  return {{"steps", tr["steps"]}, {"when", tr["when"]}};
}

}  // namespace

std::string changeKey(const std::string& target, const std::string& transition) {
  return target + " " + transition;
}

std::variant<std::vector<json>, Diagnostic> loadBaselines(const std::vector<std::string>& paths) {
  std::vector<json> out;
  for (const std::string& p : paths) {
    std::vector<fs::path> files;
    if (fs::is_directory(p)) {
      for (const auto& e : fs::directory_iterator(p))
        if (e.path().extension() == ".json") files.push_back(e.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(p);
    }
    for (const fs::path& f : files) {
      auto t = loadTableFile(f.string());
      if (auto* e = std::get_if<Diagnostic>(&t)) return *e;
      out.push_back(std::get<json>(std::move(t)));
    }
  }
  return out;
}

const json* baselineFor(const std::vector<json>& tables, const std::string& specName) {
  for (const json& t : tables)
    if (t["spec"].value("name", "") == specName) return &t;
  return nullptr;
}

// Whether a certified target lists `name` among its regression cases
// (PatchTable.h: expected UNSAFE, never certified).
bool regression(const json& target, const json& name) {
  for (const json& r : target.value("regressions", json::array()))
    if (r.value("kind", "") == "transition" && r.value("name", json()) == name) return true;
  return false;
}

std::map<std::string, std::string> changesAgainst(const json* baseline, const json& current) {
  std::map<std::string, std::string> out;
  std::string global;
  if (!baseline) global = "no certified table for this spec";
  else if (certifiedBy(*baseline) != certifiedBy(current))
    global = "certified by another checker build (" + buildText(certifiedBy(*baseline)) + "; this is " +
             buildText(certifiedBy(current)) + "): proven again";
  else if ((*baseline)["certificate"]["model"] != current["certificate"]["model"])
    global = "model options changed since the certified table";
  else if ((*baseline)["certificate"]["instruction_table_sha256"] != current["certificate"]["instruction_table_sha256"])
    global = "the instruction table changed since the certified table";
  else if ((*baseline)["certificate"]["trampolines"] != current["certificate"]["trampolines"])
    global = "trampoline sources changed since the certified table";
  for (const json& t : current["targets"]) {
    std::string target = t["target"];
    const json* bt = baseline ? find((*baseline)["targets"], "target", target) : nullptr;
    for (const json& tr : t["transitions"]) {
      std::string key = changeKey(target, tr["name"]);
      if (!global.empty()) {
        out[key] = global;
        continue;
      }
      const json* btr = bt ? find((*bt)["transitions"], "name", tr["name"]) : nullptr;
      if (!bt) out[key] = "target " + target + " is not in the certified table";
      else if (!btr && regression(*bt, tr["name"]))
        out[key] = "a regression case (expected UNSAFE), recorded but never certified: checked every run";
      else if (!btr) out[key] = "new transition (not in the certified table)";
      else if ((*btr)["when"] != tr["when"])
        out[key] = "when changed: certified " + (*btr)["when"].get<std::string>() + ", now " +
                   tr["when"].get<std::string>();
      else if (stepsContent(*btr) != stepsContent(tr))
        out[key] = "steps changed: certified [" + stepsText((*btr)["steps"], (*baseline)["spec"]) + "], now [" +
                   stepsText(tr["steps"], current["spec"]) + "]";
      else
        for (const std::string& side : {tr["from"].get<std::string>(), tr["to"].get<std::string>()})
          if (stateContent(find((*bt)["states"], "name", side)) != stateContent(find(t["states"], "name", side))) {
            out[key] = "state '" + side + "' changed (its contents or behaviour)";
            break;
          }
    }
  }
  return out;
}

}  // namespace patchcheck
