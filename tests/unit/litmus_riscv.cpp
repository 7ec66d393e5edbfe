// The litmus runner on RISC-V (docs/litmus.md "RISC-V"): each shape of
// tests/data/litmus/riscv/ under the two RISC-V fetch models, against the
// verdict verdicts.txt derives for it from the RISC-V Unprivileged ISA
// manual (the reason beside each row there); `--fetch` through the CLI;
// a model or a meta line RISC-V does not take refused.
#include <catch2/catch.hpp>
#include <z3++.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "checker/litmus/LitmusParser.h"
#include "checker/litmus/LitmusRun.h"
#include "checker/spec/FetchRegistry.h"
#include "output_support.h"

using namespace patchcheck;
using namespace patchcheck::litmus;
using namespace patchcheck::test;
namespace fs = std::filesystem;

namespace {

const std::string kRiscv = std::string(PATCHCHECK_TEST_DATA) + "/litmus/riscv";
constexpr std::array<const char*, 2> kModels{"ziccif", "ziccid"};

struct Row {
  std::string name;
  std::array<std::string, 2> verdicts;  // per kModels
};

std::vector<Row> rows() {
  std::ifstream in(kRiscv + "/verdicts.txt");
  REQUIRE(in);
  std::vector<Row> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Row r;
    std::string extra;
    fields >> r.name >> r.verdicts[0] >> r.verdicts[1];
    INFO(line);
    REQUIRE_FALSE(fields.fail());
    REQUIRE_FALSE(bool(fields >> extra));
    for (const std::string& v : r.verdicts) CHECK((v == "Allowed" || v == "Forbidden"));
    out.push_back(r);
  }
  return out;
}

Test load(const std::string& path) {
  auto r = loadLitmus(path);
  if (auto* errors = std::get_if<Diagnostics>(&r)) {
    std::string all;
    for (const Diagnostic& d : *errors) all += d.str() + "\n";
    FAIL(all);
  }
  return std::get<Test>(std::move(r));
}

}  // namespace

TEST_CASE("verdicts.txt and the riscv folder name the same tests", "[litmus_riscv]") {
  std::set<std::string> files, named;
  for (const auto& item : fs::directory_iterator(kRiscv))
    if (item.path().extension() == ".litmus") files.insert(item.path().stem().string());
  for (const Row& r : rows()) CHECK(named.insert(r.name).second);
  CHECK(files == named);
}

TEST_CASE("every RISC-V shape gets the manual's verdict under ziccif and ziccid", "[litmus_riscv]") {
  for (const Row& r : rows()) {
    Test test = load(kRiscv + "/" + r.name + ".litmus");
    for (size_t k = 0; k < kModels.size(); ++k) {
      INFO(r.name << " under " << kModels[k]);
      z3::context z3;
      auto result = runLitmus(test, z3, {}, fetchModelNamed(kModels[k]));
      if (auto* d = std::get_if<Diagnostics>(&result)) FAIL(d->front().str());
      CHECK(std::get<LitmusResult>(result).verdict == r.verdicts[k]);
    }
  }
  // The dialect's own model, with no --fetch, is ziccif.
  z3::context z3;
  auto dflt = runLitmus(load(kRiscv + "/MP.FF.litmus"), z3);
  REQUIRE(std::holds_alternative<LitmusResult>(dflt));
  CHECK(std::get<LitmusResult>(dflt).verdict == "Allowed");
}

TEST_CASE("litmus --fetch picks the RISC-V model; another ISA's model is refused", "[litmus_riscv]") {
  const std::string file = kRiscv + "/MP.FF.litmus";
  Ran allowed = sh(cli("litmus --fetch ziccif " + file), true);
  CHECK(allowed.status == 0);
  CHECK(allowed.out.find("\nVerdict MP.FF Allowed  (ziccif, ") != std::string::npos);
  Ran forbidden = sh(cli("litmus --json --fetch ziccid " + file), true);
  CHECK(forbidden.status == 0);
  CHECK(forbidden.out.find("\"fetch\": \"ziccid\"") != std::string::npos);
  CHECK(forbidden.out.find("\"verdict\": \"Forbidden\"") != std::string::npos);
  CHECK(forbidden.out.find("cache_type") == std::string::npos);
  Ran arm = sh(cli("litmus --fetch arm " + file), true);
  CHECK(arm.status == 2);
  CHECK(arm.out.find("fetch model 'arm' is not one of RISCV's (ziccif or ziccid)") != std::string::npos);
  Ran unknown = sh(cli("litmus --fetch zicid " + file), true);
  CHECK(unknown.status == 2);
  CHECK(unknown.out.find("unknown fetch model 'zicid' (did you mean 'ziccid'?)") != std::string::npos);
}

TEST_CASE("a cache type is refused on a RISC-V test", "[litmus_riscv]") {
  Test test = load(kRiscv + "/SM.litmus");
  test.meta["CacheType"] = "DIC";
  test.metaAt["CacheType"] = {3, 1};
  z3::context z3;
  auto r = runLitmus(test, z3);
  REQUIRE(std::holds_alternative<Diagnostics>(r));
  CHECK(std::get<Diagnostics>(r).front().message.find("CacheType=DIC (no cache type under fetch = \"ziccif\")") !=
        std::string::npos);
}
