// `patchcheck verify-table`: re-derives a patch table from its spec and
// sources (words, order, digests, verdicts) and fails on any difference.
// The spec is found from the table (its path from the spec's tree root,
// under the table's directory, the working directory, or one above either); its trampolines are re-read
// from the spec's tree and re-hashed.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "checker/cli/Commands.h"
#include "checker/cli/TableObjects.h"
#include "checker/cli/TrampolineDirOption.h"
#include "checker/explore/Jobs.h"
#include "checker/report/BuildInfo.h"
#include "checker/report/CHeader.h"
#include "checker/report/Certificate.h"
#include "checker/report/PatchTable.h"
#include "checker/report/TableFile.h"

namespace patchcheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct VerifyArgs {
  std::vector<std::string> tables;
  std::string spec;
  std::vector<std::string> objects;  // --object: the build's sites are the table's initial state
  unsigned jobs = defaultJobs();
  TrampolineDirOption trampolines;
};

std::optional<std::string> readFile(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shortValue(const json& j) {
  std::string s = j.dump();
  return s.size() > 70 ? s.substr(0, 67) + "..." : s;
}

// The spec a table names: `--spec`, else the table's spec.path (relative
// to the spec's tree root) under the table's directory or a directory above
// it (tables kept in the tree, certified/ beside specs/), then under the
// working directory or one above it (tables written elsewhere, verified
// from where `table` ran).
std::optional<std::string> findSpec(const std::string& table, const std::string& recorded) {
  if (recorded.empty()) return std::nullopt;
  std::error_code ec;
  if (fs::path(recorded).is_absolute()) return fs::is_regular_file(recorded, ec) ? std::optional(recorded) : std::nullopt;
  fs::path cwd = fs::current_path(ec);
  for (fs::path start : {fs::absolute(table, ec).parent_path(), cwd})
    for (fs::path dir = start;; dir = dir.parent_path()) {
      if (fs::is_regular_file(dir / recorded, ec)) {
        fs::path found = (dir / recorded).lexically_normal();
        if (fs::path(table).is_absolute()) return found.string();
        fs::path shown = found.lexically_relative(cwd);  // relative, as the table was given
        return (shown.empty() ? found : shown).string();
      }
      if (dir == dir.root_path() || dir.parent_path() == dir) break;
    }
  return std::nullopt;
}

// Each trampoline file the certificate names that changed, vanished or
// appeared, by name: the table's proofs no longer cover what the spec calls.
unsigned trampolineChanges(const json& recorded, const json& now) {
  unsigned n = 0;
  auto files = [](const json& cert) {
    std::map<std::string, std::string> out;  // "symbol: file" -> sha256
    for (const json& k : cert.value("trampolines", json::array()))
      for (const json& f : k.value("files", json::array()))
        out[k.value("symbol", "?") + ": " + f.value("file", "?")] = f.value("sha256", "");
    return out;
  };
  std::map<std::string, std::string> was = files(recorded), is = files(now);
  for (const auto& [key, sha] : was) {
    std::string symbol = key.substr(0, key.find(": ")), file = key.substr(key.find(": ") + 2);
    auto it = is.find(key);
    if (it == is.end())
      std::cout << "trampoline " << symbol << ": " << file << " is gone (the table was proven with sha256 "
                << sha.substr(0, 16) << "...)\n";
    else if (it->second != sha)
      std::cout << "trampoline " << symbol << ": " << file << " changed since the table was made (sha256 "
                << sha.substr(0, 16) << "... in the table, " << it->second.substr(0, 16) << "... now)\n";
    else
      continue;
    ++n;
  }
  for (const auto& [key, sha] : is)
    if (!was.count(key)) {
      std::cout << "trampoline " << key.substr(0, key.find(": ")) << ": " << key.substr(key.find(": ") + 2)
                << " is new since the table was made\n";
      ++n;
    }
  return n;
}

int verifyOne(const VerifyArgs& a, const std::string& table) {
  auto read = loadTableFile(table);
  if (auto* e = std::get_if<Diagnostic>(&read)) {
    std::cerr << e->str() << "\n";
    return 2;
  }
  // The members read here are there, of these types (checker/report/TableFile.h).
  const json recorded = std::get<json>(std::move(read));
  std::string named = recorded.at("spec").at("path").get<std::string>();
  std::optional<std::string> specPath = !a.spec.empty() ? std::optional(a.spec) : findSpec(table, named);
  if (!specPath) {
    std::cerr << table << ": error: cannot find the spec '" << named
              << "' the table names, under the table's directory, the working directory or any directory above "
                 "either; pass --spec PATH\n";
    return 2;
  }
  auto loaded = loadSpec(*specPath);
  if (auto* e = std::get_if<Diagnostics>(&loaded)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  Spec spec = std::get<Spec>(std::move(loaded));
  a.trampolines.applyTo(spec);
  TableOptions opt;
  opt.matrix = recorded.at("options").at("matrix").get<bool>();
  opt.limits.timeoutMs = recorded.at("certificate").at("model").at("solver_timeout_ms").get<unsigned>();
  unsigned differences = trampolineChanges(recorded.at("certificate"), certificateInputs(spec, opt.limits.timeoutMs));
  Progress progress("verify-table");
  auto built = buildTable(spec, opt, {a.jobs, &progress});
  progress.clear();
  if (auto* e = std::get_if<Diagnostics>(&built)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  const BuiltTable& b = std::get<BuiltTable>(built);
  for (const std::string& r : b.refusals) {
    std::cout << "verdict differs: now not SAFE: " << r << "\n";
    ++differences;
  }
  if (b.refusals.empty()) {
    for (const json& op : json::diff(recorded, b.json)) {
      std::string path = op["path"];
      // Trampoline digests: named above, file by file.
      if (path.rfind("/certificate/trampolines", 0) == 0 || path.ends_with("/source_sha256")) continue;
      // Another build of the checker: what it certified is re-proven here
      // (the note below), not a difference of the table.
      if (path.rfind("/certificate/checker", 0) == 0) continue;
      std::string what = op["op"];
      json was = recorded.contains(json::json_pointer(path)) ? recorded[json::json_pointer(path)] : json();
      if (what == "replace")
        std::cout << "differs at " << path << ": table has " << shortValue(was) << ", re-derived "
                  << shortValue(op["value"]) << "\n";
      else if (what == "add")
        std::cout << "missing from the table at " << path << ": " << shortValue(op["value"]) << "\n";
      else
        std::cout << "not re-derived at " << path << ": " << shortValue(was) << "\n";
      if (++differences >= 50) break;
    }
    fs::path header = fs::path(table).replace_extension(".h");
    if (auto h = readFile(header.string())) {
      if (*h != cHeader(b.json, fs::path(table).filename().string())) {
        std::cout << "differs: " << header.string() << " is not the header of the re-derived table\n";
        ++differences;
      }
    }
  }
  if (!a.objects.empty()) {
    auto found = objectDifferences(spec, recorded, a.objects, std::cout, std::cerr);
    if (!found) return 2;
    differences += *found;
  }
  if (differences) {
    std::cout << table << ": FAILED: " << differences << " difference(s) from the re-derived table\n";
    return 1;
  }
  if (recorded.at("certificate").value("checker", json()) != b.json["certificate"]["checker"])
    std::cout << "note: certified by another checker build; every entry was proven again by this one ("
              << buildInfo().version << ", commit " << buildInfo().commit << ")\n";
  std::cout << table << ": OK: " << (spec.byteUnits ? "bytes" : "words")
            << ", order, digests and verdicts re-derived from " << *specPath << "\n";
  return 0;
}

// Each table in turn (docs/ci.md: `verify-table certified/*.json`); the
// exit code is the worst: 2 bad input, 1 a difference, 0 all re-derived.
int runVerify(const VerifyArgs& a) {
  for (auto p : {jobsProblem(a.jobs), a.trampolines.problem()})
    if (p) {
      std::cerr << "<command line>: error: " << *p << "\n";
      return 2;
    }
  if (!a.spec.empty() && a.tables.size() > 1) {
    std::cerr << "<command line>: error: --spec names the spec of one table, not of " << a.tables.size() << "\n";
    return 2;
  }
  int code = 0;
  for (const std::string& table : a.tables) code = std::max(code, verifyOne(a, table));
  return code;
}

}  // namespace

void addVerifyTableCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand("verify-table", "Re-derive a patch table from its spec and sources; fail on any difference");
  cmd->add_option("tables", args->tables, "the tables' JSON files")->required();
  cmd->add_option("--spec", args->spec,
                  "the spec file (default: the table's spec path, under the table's directory, the working directory or one above "
                  "either)");
  args->trampolines.addTo(*cmd);
  cmd->add_option("--object", args->objects,
                  "ELF objects or vmlinux whose every patch site must be the table's initial state (the spec's [scan] "
                  "compiled state)");
  cmd->add_option("-j,--jobs", args->jobs, "checks in parallel (default: cores)");
  cmd->callback([args, &exitCode] { exitCode = runVerify(*args); });
}

}  // namespace patchcheck
