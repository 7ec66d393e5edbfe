// The litmus runner (checker/litmus/LitmusRun.h) against herd7's published
// verdicts: each shape of tests/data/litmus/ifetch/ (written from the shape
// and verdicts of herd7's aarch64-ifetch catalogue) under every cache type
// verdicts.txt gives a verdict for, set as herd7's copies set it (CacheType=
// none, IDC, DIC); the same answers through the CLI, text and --json; and
// every file of tests/data/litmus/refused/ refused where its first line,
// `(* expect: LINE:COLUMN: MESSAGE *)`, says, with exit code 2.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <z3++.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "checker/litmus/LitmusParser.h"
#include "checker/litmus/LitmusRun.h"
#include "encoder/Isa.h"
#include "output_support.h"

using namespace patchcheck;
using namespace patchcheck::litmus;
using namespace patchcheck::test;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kIfetch = std::string(PATCHCHECK_TEST_DATA) + "/litmus/ifetch";
const std::string kRefused = std::string(PATCHCHECK_TEST_DATA) + "/litmus/refused";

// The columns of verdicts.txt: the CacheType meta line of herd7's copy, and
// the cache type the runner reports for it.
struct CacheColumn {
  const char* meta;
  const char* name;
};
const std::array<CacheColumn, 3> kColumns{{{"", "DIC0-IDC0"}, {"IDC", "DIC0-IDC1"}, {"DIC", "DIC1-IDC1"}}};

struct Published {
  std::string name;
  std::array<std::string, 3> verdicts;  // per kColumns; "-": none published
};

std::vector<Published> publishedVerdicts() {
  std::ifstream in(kIfetch + "/verdicts.txt");
  REQUIRE(in);
  std::vector<Published> rows;
  std::string line;
  unsigned number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Published p;
    std::string extra;
    fields >> p.name >> p.verdicts[0] >> p.verdicts[1] >> p.verdicts[2];
    INFO("verdicts.txt:" << number << ": " << line);
    REQUIRE_FALSE(fields.fail());
    REQUIRE_FALSE(bool(fields >> extra));
    for (const std::string& v : p.verdicts) CHECK((v == "Allowed" || v == "Forbidden" || v == "-"));
    rows.push_back(p);
  }
  return rows;
}

std::string listed(const Diagnostics& ds) {
  std::string all;
  for (const Diagnostic& d : ds) all += d.str() + "\n";
  return all;
}

Test load(const std::string& path) {
  auto r = loadLitmus(path);
  if (auto* errors = std::get_if<Diagnostics>(&r)) FAIL(listed(*errors));
  return std::get<Test>(std::move(r));
}

// The file with a CacheType line after its header, as herd7's IDC1./DIC1. copies.
std::string withCacheType(const std::string& path, const std::string& cacheType) {
  std::string text = readFile(path);
  size_t eol = text.find('\n');
  REQUIRE(eol != std::string::npos);
  return text.substr(0, eol + 1) + "CacheType=" + cacheType + "\n" + text.substr(eol + 1);
}

// `(* expect: LINE:COLUMN: MESSAGE *)` on the first line of a refused file.
struct Expected {
  unsigned line = 0, column = 0;
  std::string part;
};

Expected expectedOf(const fs::path& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  const std::string prefix = "(* expect: ", suffix = " *)";
  REQUIRE(first.rfind(prefix, 0) == 0);
  REQUIRE(first.size() > prefix.size() + suffix.size());
  REQUIRE(first.substr(first.size() - suffix.size()) == suffix);
  std::string expect = first.substr(prefix.size(), first.size() - prefix.size() - suffix.size());
  size_t colon1 = expect.find(':'), colon2 = expect.find(':', colon1 + 1);
  REQUIRE(colon2 != std::string::npos);
  return {unsigned(std::stoul(expect.substr(0, colon1))),
          unsigned(std::stoul(expect.substr(colon1 + 1, colon2 - colon1 - 1))), expect.substr(colon2 + 2)};
}

}  // namespace

TEST_CASE("verdicts.txt and the ifetch folder name the same tests", "[litmus_run]") {
  std::set<std::string> files, rows;
  for (const auto& item : fs::directory_iterator(kIfetch))
    if (item.path().extension() == ".litmus") files.insert(item.path().stem().string());
  for (const Published& p : publishedVerdicts()) {
    CHECK(rows.insert(p.name).second);  // each test once
    // a row with no verdict at all would test nothing
    CHECK((p.verdicts[0] != "-" || p.verdicts[1] != "-" || p.verdicts[2] != "-"));
  }
  CHECK(files == rows);
  CHECK(files.size() >= 34);
}

TEST_CASE("every ifetch shape gets herd7's published verdict under each cache type", "[litmus_run]") {
  unsigned shapes = 0, runs = 0, agree = 0;
  for (const Published& p : publishedVerdicts()) {
    Test test = load(kIfetch + "/" + p.name + ".litmus");
    ++shapes;
    INFO(p.name);
    CHECK(test.name == p.name);
    CHECK(test.meta.count("CacheType") == 0);  // the column sets it
    for (size_t k = 0; k < kColumns.size(); ++k) {
      if (p.verdicts[k] == "-") continue;
      INFO(kColumns[k].name);
      Test copy = test;
      copy.meta["CacheType"] = kColumns[k].meta;
      z3::context z3;
      auto r = runLitmus(copy, z3);
      ++runs;
      if (auto* refused = std::get_if<Diagnostics>(&r)) {
        FAIL_CHECK(listed(*refused));
        continue;
      }
      const LitmusResult& result = std::get<LitmusResult>(r);
      CHECK(result.name == p.name);
      CHECK(result.cacheType == kColumns[k].name);
      CHECK(result.verdict == p.verdicts[k]);
      CHECK(result.explored > 0);
      if (result.verdict == p.verdicts[k]) ++agree;
    }
  }
  std::cout << "litmus_run: " << agree << " of " << runs << " runs (" << shapes
            << " shapes of herd7's aarch64-ifetch catalogue) give the published verdict\n";
  CHECK(shapes >= 34);
  CHECK(runs >= 90);
}

TEST_CASE("the CLI gives the same answers, as text and as --json", "[litmus_run]") {
  const std::string allowed = kIfetch + "/MP.FF+dmb.st+ic-dsb-isb.litmus";  // A/F/F
  const std::string forbidden = kIfetch + "/SM.B+cachesync-isb.litmus";     // F/F/F

  Ran text = sh(cli("litmus " + allowed + " " + forbidden), true);
  CHECK(text.status == 0);
  CHECK(text.out.find("Test MP.FF+dmb.st+ic-dsb-isb Allowed\n") != std::string::npos);
  CHECK(text.out.find("Condition exists (1:X12=1 /\\ 1:X13=0)\n") != std::string::npos);
  CHECK(text.out.find("Observation MP.FF+dmb.st+ic-dsb-isb Sometimes ") != std::string::npos);
  CHECK(text.out.find("\nVerdict MP.FF+dmb.st+ic-dsb-isb Allowed  (DIC0-IDC0, ") != std::string::npos);
  CHECK(text.out.find("Observation SM.B+cachesync-isb Never 0 ") != std::string::npos);
  CHECK(text.out.find("\nVerdict SM.B+cachesync-isb Forbidden  (DIC0-IDC0, ") != std::string::npos);

  // The CacheType line of herd7's copies reaches the answer.
  TempDir dir;
  writeFile(dir.file("idc.litmus"), withCacheType(allowed, "IDC"));
  writeFile(dir.file("dic.litmus"), withCacheType(allowed, "DIC"));
  Ran idc = sh(cli("litmus " + dir.file("idc.litmus")), true);
  CHECK(idc.status == 0);
  CHECK(idc.out.find("\nVerdict MP.FF+dmb.st+ic-dsb-isb Forbidden  (DIC0-IDC1, ") != std::string::npos);

  Ran js = sh(cli("litmus --json " + allowed + " " + dir.file("dic.litmus")));
  REQUIRE(js.status == 0);
  json answers = json::parse(js.out);
  REQUIRE(answers.is_array());
  REQUIRE(answers.size() == 2);
  CHECK(answers[0]["test"] == "MP.FF+dmb.st+ic-dsb-isb");
  CHECK(answers[0]["cache_type"] == "DIC0-IDC0");
  CHECK(answers[0]["verdict"] == "Allowed");
  CHECK(answers[0]["observation"] == "Sometimes");
  CHECK(answers[0]["condition"] == "exists (1:X12=1 /\\ 1:X13=0)");
  CHECK(answers[0]["positive"].get<unsigned>() >= 1);
  CHECK(answers[0]["positive"].get<unsigned>() + answers[0]["negative"].get<unsigned>() ==
        answers[0]["states"].size());
  CHECK(answers[0]["states_explored"].get<unsigned>() > 0);
  CHECK(answers[1]["test"] == "MP.FF+dmb.st+ic-dsb-isb");
  CHECK(answers[1]["cache_type"] == "DIC1-IDC1");
  CHECK(answers[1]["verdict"] == "Forbidden");
  CHECK(answers[1]["observation"] == "Never");
  CHECK(answers[1]["positive"] == 0);
}

TEST_CASE("refused files: each is refused where its first line says, exit code 2", "[litmus_run]") {
  unsigned files = 0;
  for (const auto& item : fs::directory_iterator(kRefused)) {
    if (item.path().extension() != ".litmus") continue;
    ++files;
    const std::string path = item.path().string();
    INFO(item.path().filename().string());
    Expected want = expectedOf(item.path());

    // The parser takes it; the runner refuses it.
    Test test = load(path);
    z3::context z3;
    auto r = runLitmus(test, z3);
    REQUIRE(std::holds_alternative<Diagnostics>(r));
    const Diagnostics& errors = std::get<Diagnostics>(r);
    INFO(listed(errors));
    REQUIRE_FALSE(errors.empty());
    CHECK(errors[0].where.file == path);
    CHECK(errors[0].where.line == want.line);
    CHECK(errors[0].where.column == want.column);
    CHECK_THAT(errors[0].message, Catch::Matchers::StartsWith(want.part));

    Ran cliRun = sh(cli("litmus " + path), true);
    CHECK(cliRun.status == 2);
    CHECK(cliRun.out.find(path + ":" + std::to_string(want.line) + ":" + std::to_string(want.column) +
                          ": error: " + want.part) != std::string::npos);
    CHECK(cliRun.out.find("Verdict") == std::string::npos);
  }
  CHECK(files >= 7);
}

TEST_CASE("diy's meta lines are read past as herd7 reads them, keys in any case", "[litmus_run]") {
  const std::string dir = std::string(PATCHCHECK_TEST_DATA) + "/litmus/";
  z3::context z3;
  // Cycle=, Generator=, Prefetch=, Com=, Orig=, a key with '.', '-' and '/':
  // ignored, as herd7 ignores them; the shape answers as without them.
  Test diy = load(dir + "diy-meta.litmus");
  auto r = runLitmus(diy, z3);
  if (auto* errors = std::get_if<Diagnostics>(&r)) FAIL(listed(*errors));
  CHECK(std::get<LitmusResult>(r).verdict == "Forbidden");
  CHECK(std::get<LitmusResult>(r).cacheType == "DIC0-IDC0");
  // `cachetype=DIC` is herd7's CacheType=DIC: Forbidden, where no cache type is Allowed.
  Test lower = load(dir + "meta-case.litmus");
  r = runLitmus(lower, z3);
  if (auto* errors = std::get_if<Diagnostics>(&r)) FAIL(listed(*errors));
  CHECK(std::get<LitmusResult>(r).cacheType == "DIC1-IDC1");
  CHECK(std::get<LitmusResult>(r).verdict == "Forbidden");
  lower.meta.clear();
  r = runLitmus(lower, z3);
  REQUIRE(std::holds_alternative<LitmusResult>(r));
  CHECK(std::get<LitmusResult>(r).verdict == "Allowed");

  Ran cliRun = sh(cli("litmus " + dir + "diy-meta.litmus"), true);
  CHECK(cliRun.status == 0);
  CHECK(cliRun.out.find("Verdict SB+dmb.sys-diy Forbidden") != std::string::npos);
}

TEST_CASE("the header's architecture selects the plug-in; one without litmus support is refused, exit 2",
          "[litmus_run]") {
  const std::string bad = std::string(PATCHCHECK_TEST_DATA) + "/litmus/bad/";
  for (const char* file : {"arch-no-litmus.litmus", "arch-no-litmus-x86_64.litmus", "not-aarch64.litmus"}) {
    INFO(file);
    Ran cliRun = sh(cli("litmus " + bad + file), true);
    CHECK(cliRun.status == 2);
    CHECK(cliRun.out.find(bad + file + ":") != std::string::npos);
    CHECK(cliRun.out.find("architecture '") != std::string::npos);
    CHECK(cliRun.out.find("Verdict") == std::string::npos);
  }
  Test t = load(std::string(PATCHCHECK_TEST_DATA) + "/litmus/one-thread.litmus");
  REQUIRE(t.dialect);
  CHECK(t.dialect->target().isa->litmusArchitecture() == t.arch);
}
