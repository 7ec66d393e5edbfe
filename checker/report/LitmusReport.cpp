#include "checker/report/LitmusReport.h"

#include <sstream>

namespace patchcheck {

namespace {
// herd7 prints a state as "0:X9=0; 1:X2=1;".
std::string stateLine(const std::map<std::string, uint64_t>& s) {
  std::string out;
  for (const auto& [k, v] : s) out += k + "=" + std::to_string(v) + "; ";
  if (!out.empty()) out.pop_back();
  return out;
}
}  // namespace

std::string litmusText(const litmus::LitmusResult& r) {
  std::ostringstream o;
  std::string kind = r.quantifier == "forall" ? "Required" : r.quantifier == "~exists" ? "Forbidden" : "Allowed";
  o << "Test " << r.name << " " << kind << "\n";
  o << "States " << r.states.size() << "\n";
  for (const auto& s : r.states) o << stateLine(s) << "\n";
  bool validated = r.quantifier == "exists" ? r.positive > 0 : r.quantifier == "~exists" ? r.positive == 0 : r.negative == 0;
  o << (validated ? "Ok" : "No") << "\n";
  o << "Witnesses\n";
  o << "Positive: " << r.positive << " Negative: " << r.negative << "\n";
  o << "Condition " << r.condition << "\n";
  o << "Observation " << r.name << " " << r.observation << " " << r.positive << " " << r.negative << "\n";
  // The cache type (Arm), else the fetch model (RISC-V: "ziccif").
  o << "Verdict " << r.name << " " << r.verdict << "  (" << (r.cacheType.empty() ? r.fetch : r.cacheType) << ", "
    << r.explored << " states explored)\n";
  return o.str();
}

nlohmann::json litmusJson(const litmus::LitmusResult& r) {
  nlohmann::json states = nlohmann::json::array();
  for (const auto& s : r.states) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : s) j[k] = v;
    states.push_back(j);
  }
  nlohmann::json out = {{"test", r.name},         {"cache_type", r.cacheType}, {"condition", r.condition},
                        {"states", states},       {"positive", r.positive},    {"negative", r.negative},
                        {"observation", r.observation}, {"verdict", r.verdict}, {"states_explored", r.explored}};
  if (r.cacheType.empty()) {  // a model without cache types names itself instead
    out.erase("cache_type");
    out["fetch"] = r.fetch;
  }
  return out;
}

}  // namespace patchcheck
