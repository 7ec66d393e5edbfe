#include "checker/report/ScanReport.h"

#include <map>

namespace patchcheck {
namespace {

// "12 sites, all instances of state `compiled` of specs/arm64/ftrace-call-ops.toml"
std::string summary(const std::vector<ObjectScan>& scans) {
  size_t sites = 0, findings = 0, notes = 0;
  std::map<std::string, size_t> instances;  // "state `s` of spec" -> count
  for (const ObjectScan& o : scans) {
    sites += o.sites.size();
    findings += o.failures();
    notes += o.findings.size() - o.failures();
    for (const ScannedSite& s : o.sites)
      if (!s.state.empty()) ++instances["state `" + s.state + "` of " + s.spec];
  }
  size_t matched = 0;
  for (auto& [k, n] : instances) matched += n;
  std::string out = "patchcheck scan: " + std::to_string(scans.size()) + (scans.size() == 1 ? " object, " : " objects, ") +
                    std::to_string(sites) + (sites == 1 ? " site" : " sites");
  if (!instances.empty()) {
    out += matched == sites ? ", all instances" : ", " + std::to_string(matched) + " instances";
    out += instances.size() > 1 ? ": " : " of ";
    bool first = true;
    for (auto& [k, n] : instances) {
      out += (first ? "" : ", ") + (instances.size() > 1 ? std::to_string(n) + " of " : "") + k;
      first = false;
    }
  }
  out += "; " + std::to_string(findings) + (findings == 1 ? " finding" : " findings");
  if (notes) out += ", " + std::to_string(notes) + (notes == 1 ? " note" : " notes");
  return out;
}

}  // namespace

void printScanText(std::ostream& out, const std::vector<ObjectScan>& scans) {
  for (const ObjectScan& o : scans)
    for (const ScanFinding& f : o.findings) {
      out << o.file << ": " << (f.note ? "note" : "warning") << ": patchcheck: " << f.where << ": " << f.message << "\n";
      for (const std::string& l : f.listing) out << "    " << l << "\n";
    }
  out << summary(scans) << "\n";
}

nlohmann::json scanJson(const std::vector<ObjectScan>& scans) {
  nlohmann::json objects = nlohmann::json::array();
  for (const ObjectScan& o : scans) {
    nlohmann::json sites = nlohmann::json::array(), findings = nlohmann::json::array();
    for (const ScannedSite& s : o.sites)
      sites.push_back({{"where", s.where}, {"ip", s.ip}, {"table", s.table}, {"spec", s.spec}, {"state", s.state}});
    for (const ScanFinding& f : o.findings)
      findings.push_back({{"where", f.where}, {"message", f.message}, {"listing", f.listing},
                          {"severity", f.note ? "note" : "warning"}});
    objects.push_back({{"file", o.file}, {"sites", sites}, {"findings", findings}});
  }
  return {{"objects", objects}, {"summary", summary(scans)}};
}

}  // namespace patchcheck
