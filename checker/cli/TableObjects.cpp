#include "checker/cli/TableObjects.h"

#include "checker/explore/Scan.h"
#include "checker/spec/ElfObject.h"
#include "checker/spec/ScanSpec.h"

namespace patchcheck {

std::optional<unsigned> objectDifferences(const Spec& spec, const nlohmann::json& table,
                                          const std::vector<std::string>& objects, std::ostream& out,
                                          std::ostream& err) {
  auto scan = scanSpecOf(spec);
  if (!scan) {
    err << spec.path << ":1:1: error: --object needs the spec's [scan] table, which names the compiled state\n";
    return std::nullopt;
  }
  unsigned differences = 0;
  // The initial state, certified: a target of the table holds it SAFE.
  bool certified = false;
  for (const nlohmann::json& t : table.value("targets", nlohmann::json::array()))
    for (const nlohmann::json& s : t.value("states", nlohmann::json::array()))
      if (s.value("name", "") == scan->compiled && s.contains("verification") &&
          s["verification"].value("verdict", "") == "SAFE")
        certified = true;
  if (!certified) {
    out << "the table holds no certified (SAFE) state `" << scan->compiled << "`, the initial state of the build's sites\n";
    ++differences;
  }
  for (const std::string& path : objects) {
    auto elf = readElf(path);
    if (auto* e = std::get_if<ElfError>(&elf)) {
      err << e->str() << "\n";
      return std::nullopt;
    }
    auto scanned = scanObject(std::get<ElfObject>(elf), {&spec});
    if (auto* e = std::get_if<std::string>(&scanned)) {
      err << *e << "\n";
      return std::nullopt;
    }
    const ObjectScan& o = std::get<ObjectScan>(scanned);
    unsigned initial = 0;
    for (const ScannedSite& s : o.sites) initial += s.state == scan->compiled;
    for (const ScanFinding& f : o.findings)
      if (!f.note) {
        out << o.file << ": " << f.where << ": " << f.message << "\n";
        ++differences;
      }
    out << o.file << ": " << o.sites.size() << " sites, " << initial << " in the table's initial state `"
        << scan->compiled << "`\n";
  }
  return differences;
}

}  // namespace patchcheck
