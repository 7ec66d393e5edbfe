// `patchcheck scan OBJ... --spec SPEC...`: every patch site a build
// recorded, checked against the specs' compiled states (docs/scan.md).
// Exit 0 every site conforms, 1 a finding, 2 bad input. Text in objtool's
// form, --format json or sarif (as gate's).
#include <iostream>

#include "checker/cli/Commands.h"
#include "checker/explore/Scan.h"
#include "checker/report/Sarif.h"
#include "checker/report/ScanReport.h"
#include "checker/spec/ScanSpec.h"

namespace patchcheck {
namespace {

struct ScanArgs {
  std::vector<std::string> objects, specs;
  bool json = false;
  std::string format = "text";
};

int runScan(const ScanArgs& a) {
  std::vector<Spec> specs;
  specs.reserve(a.specs.size());
  for (const std::string& path : a.specs) {
    auto loaded = loadSpec(path);
    if (auto* e = std::get_if<Diagnostics>(&loaded)) {
      for (const auto& d : *e) std::cerr << d.str() << "\n";
      return 2;
    }
    specs.push_back(std::get<Spec>(std::move(loaded)));
    if (!scanSpecOf(specs.back())) {
      std::cerr << path << ":1:1: error: the spec has no [scan] table: scan needs `[scan] compiled = \"STATE\"`\n";
      return 2;
    }
  }
  std::vector<const Spec*> given;
  for (const Spec& s : specs) given.push_back(&s);
  std::vector<ObjectScan> scans;
  for (const std::string& path : a.objects) {
    auto elf = readElf(path);
    if (auto* e = std::get_if<ElfError>(&elf)) {
      std::cerr << e->str() << "\n";
      return 2;
    }
    auto scan = scanObject(std::get<ElfObject>(elf), given);
    if (auto* e = std::get_if<std::string>(&scan)) {
      std::cerr << *e << "\n";
      return 2;
    }
    scans.push_back(std::get<ObjectScan>(std::move(scan)));
  }
  if (a.json || a.format == "json") std::cout << scanJson(scans).dump(2) << "\n";
  else if (a.format == "sarif") std::cout << toSarif(RunResults{}, {}, scans).dump(2) << "\n";
  else printScanText(std::cout, scans);
  for (const ObjectScan& o : scans)
    if (o.failures()) return 1;
  return 0;
}

}  // namespace

void addScanCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<ScanArgs>();
  auto* cmd = app.add_subcommand("scan", "Check every patch site of compiled objects or vmlinux against specs' compiled states");
  cmd->add_option("objects", args->objects, "ELF objects (.o, .ko) or linked images (vmlinux)")->required();
  cmd->add_option("--spec", args->specs, "specs with a [scan] table (each object uses those of its machine)")
      ->required();
  cmd->add_flag("--json", args->json, "one JSON document instead of objtool-style lines (--format json)");
  cmd->add_option("--format", args->format, "text | json | sarif (SARIF 2.1.0, a result per finding)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  cmd->callback([args, &exitCode] { exitCode = runScan(*args); });
}

}  // namespace patchcheck
