// The CI gate: SARIF checked against the SARIF 2.1.0 required shape
// (OASIS SARIF 2.1.0: sarifLog.version/$schema/runs, run.tool.driver.name,
// result.message.text, physicalLocation.artifactLocation.uri, region.startLine),
// JUnit XML parsed back with libxml2, baselines, and the pre-commit hook run
// in a git repository made for the test.
#include <catch2/catch.hpp>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <nlohmann/json.hpp>
#include <set>

#include "output_support.h"

using namespace patchcheck::test;
using json = nlohmann::json;

namespace {

const std::string kSafe = std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips/patchable-entry.toml";
const std::string kUnsafe = std::string(PATCHCHECK_TEST_DATA) + "/outputs/unsafe-order.toml";

// Line of the [[transition]] whose steps line is `steps`, counted in the file.
unsigned transitionLine(const std::string& path, const std::string& steps, unsigned* stepsLine) {
  std::istringstream in(readFile(path));
  std::string line;
  unsigned n = 0, header = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.rfind("[[transition]]", 0) == 0) header = n;
    if (line.find(steps) != std::string::npos) {
      *stepsLine = n;
      return header;
    }
  }
  return 0;
}

std::string attr(xmlNode* n, const char* name) {
  xmlChar* v = xmlGetProp(n, reinterpret_cast<const xmlChar*>(name));
  std::string s = v ? reinterpret_cast<const char*>(v) : "";
  xmlFree(v);
  return s;
}

std::vector<xmlNode*> children(xmlNode* n, const std::string& name) {
  std::vector<xmlNode*> out;
  for (xmlNode* c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && name == reinterpret_cast<const char*>(c->name)) out.push_back(c);
  return out;
}

}  // namespace

TEST_CASE("gate SARIF has the 2.1.0 required shape and points at the offending transition", "[output_gate]") {
  Ran r = sh(cli("gate --format sarif --jobs 1 " + kUnsafe));
  CHECK(r.status == 1);
  json s = json::parse(r.out);
  CHECK(s["version"] == "2.1.0");
  REQUIRE(s["$schema"].is_string());
  CHECK(s["$schema"].get<std::string>().find("sarif") != std::string::npos);
  REQUIRE(s["runs"].is_array());
  REQUIRE(s["runs"].size() == 1);
  const json& run = s["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "patchcheck");
  REQUIRE(run["results"].size() == 1);
  std::set<std::string> ruleIds;
  for (const json& rule : run["tool"]["driver"]["rules"]) ruleIds.insert(rule["id"].get<std::string>());
  const json& res = run["results"][0];
  CHECK(res["ruleId"] == "unsafe-transition");
  CHECK(ruleIds.count(res["ruleId"].get<std::string>()));
  CHECK(res["message"]["text"].get<std::string>().find("disabled->noregs") != std::string::npos);
  const json& loc = res["locations"][0]["physicalLocation"];
  // Absolute and outside the working directory: a file: URI (code scanning
  // takes a relative URI with its uriBaseId, or an absolute one).
  CHECK(loc["artifactLocation"]["uri"] == "file://" + kUnsafe);
  unsigned stepsLine = 0;
  unsigned header = transitionLine(kUnsafe, "\"write 1\", \"write 2\"", &stepsLine);
  unsigned line = loc["region"]["startLine"];
  CHECK(line >= header);
  CHECK(line <= stepsLine);
  CHECK(header > 0);
}

TEST_CASE("gate SARIF of a safe spec has no results and exit 0", "[output_gate]") {
  Ran r = sh(cli("gate --format sarif " + kSafe));
  CHECK(r.status == 0);
  json s = json::parse(r.out);
  CHECK(s["runs"][0]["results"].empty());
}

TEST_CASE("gate JUnit parses back: a test case per state and transition, the unsafe one failed", "[output_gate]") {
  Ran r = sh(cli("gate --format junit " + kUnsafe));
  CHECK(r.status == 1);
  xmlDoc* doc = xmlReadMemory(r.out.data(), int(r.out.size()), "junit.xml", nullptr, XML_PARSE_NONET);
  REQUIRE(doc);
  xmlNode* root = xmlDocGetRootElement(doc);
  CHECK(std::string(reinterpret_cast<const char*>(root->name)) == "testsuites");
  auto suites = children(root, "testsuite");
  REQUIRE(suites.size() == 1);
  auto cases = children(suites[0], "testcase");
  CHECK(cases.size() == 4);  // 2 states + 2 transitions
  CHECK(attr(suites[0], "tests") == "4");
  CHECK(attr(suites[0], "failures") == "1");
  CHECK(attr(root, "failures") == "1");
  unsigned failed = 0;
  for (xmlNode* c : cases) {
    auto f = children(c, "failure");
    if (!f.empty()) {
      ++failed;
      CHECK(attr(c, "name") == "disabled->noregs");
      CHECK(attr(f[0], "type") == "UNSAFE");
    }
  }
  CHECK(failed == 1);
  xmlFreeDoc(doc);
}

TEST_CASE("gate with a baseline checks only the transitions that changed", "[output_gate]") {
  TempDir dir;
  writeFile(dir.file("spec.toml"), readFile(kSafe));
  REQUIRE(sh("cp -r " + std::string(PATCHCHECK_SOURCE_DIR) + "/trampolines " + dir.path()).status == 0);
  REQUIRE(sh("cd " + dir.path() + " && " + cli("table spec.toml -o certified")).status == 0);
  Ran same = sh("cd " + dir.path() + " && " + cli("gate --format json --baseline certified spec.toml"));
  CHECK(same.status == 0);
  json j = json::parse(same.out);
  CHECK(j["gate"]["skipped"].size() == 7);
  CHECK(j["gate"]["checked_because"].empty());
  CHECK(j["results"][0]["transitions"].empty());
  // Change one order: only that transition is checked, with the reason.
  std::string text = readFile(dir.file("spec.toml"));
  std::string from = "steps = [\"write 2\", \"flush\", \"write 1\", \"flush\"]";
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "steps = [\"write 2\", \"sync\", \"write 1\", \"flush\"]");
  writeFile(dir.file("spec.toml"), text);
  Ran changed = sh("cd " + dir.path() + " && " + cli("gate --format json --baseline certified spec.toml"));
  CHECK(changed.status == 0);  // a sync suffices under the weak model (synth finds it too)
  json k = json::parse(changed.out);
  REQUIRE(k["results"][0]["transitions"].size() == 1);
  CHECK(k["results"][0]["transitions"][0]["transition"] == "disabled->noregs");
  CHECK(k["gate"]["skipped"].size() == 6);
  std::string why = k["gate"]["checked_because"].begin().value();
  CHECK(why.find("steps changed") != std::string::npos);
}

TEST_CASE("gate with a baseline matches transitions between the same states by name", "[output_gate]") {
  TempDir dir;
  const std::string spec = std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/x86-same-states.toml";
  writeFile(dir.file("spec.toml"), readFile(spec));
  REQUIRE(sh("cd " + dir.path() + " && " + cli("table spec.toml -o certified")).status == 0);
  // Unchanged: each nop->call is compared with its own certified entry.
  Ran same = sh("cd " + dir.path() + " && " + cli("gate --format json --baseline certified spec.toml"));
  CHECK(same.status == 0);
  json j = json::parse(same.out);
  CHECK(j["gate"]["skipped"].size() == 3);
  CHECK(j["gate"]["checked_because"].empty());
  // The boot-time one changed (a range written as two): only it is checked.
  std::string text = readFile(dir.file("spec.toml"));
  std::string from = "steps = [\"write 0..4\", \"sync_core\"]";
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "steps = [\"write 0..1\", \"write 2..4\", \"sync_core\"]");
  writeFile(dir.file("spec.toml"), text);
  Ran changed = sh("cd " + dir.path() + " && " + cli("gate --format json --baseline certified spec.toml"));
  CHECK(changed.status == 0);
  json k = json::parse(changed.out);
  REQUIRE(k["results"][0]["transitions"].size() == 1);
  CHECK(k["results"][0]["transitions"][0]["transition"] == "at_boot");
  CHECK(k["gate"]["skipped"].size() == 2);
  CHECK(k["gate"]["skipped"].contains("tables-x86-same-states x86_64/sysv/little text_poke_bp"));
}

TEST_CASE("gate JUnit names each transition once when two share from and to", "[output_gate]") {
  const std::string spec = std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/x86-same-states.toml";
  Ran r = sh(cli("gate --format junit " + spec));
  CHECK(r.status == 0);
  xmlDoc* doc = xmlReadMemory(r.out.data(), int(r.out.size()), "junit.xml", nullptr, XML_PARSE_NONET);
  REQUIRE(doc);
  std::multiset<std::string> names;
  for (xmlNode* suite : children(xmlDocGetRootElement(doc), "testsuite"))
    for (xmlNode* c : children(suite, "testcase")) names.insert(attr(c, "name"));
  xmlFreeDoc(doc);
  CHECK(names == std::multiset<std::string>{"state nop", "state call", "at_boot", "text_poke_bp", "call->nop"});
}

TEST_CASE("the pre-commit hook refuses an unsafe spec in a sample repository", "[output_gate]") {
  TempDir dir;
  std::string git = "cd " + dir.path() + " && git -c user.name=t -c user.email=t@example.invalid ";
  REQUIRE(sh("cd " + dir.path() + " && git init -q .").status == 0);
  REQUIRE(sh("mkdir -p " + dir.file("specs") + " " + dir.file(".git/hooks")).status == 0);
  REQUIRE(sh("cp " + std::string(PATCHCHECK_SOURCE_DIR) + "/scripts/pre-commit " + dir.file(".git/hooks/pre-commit"))
              .status == 0);
  std::string env = "PATCHCHECK=" + std::string(PATCHCHECK_BINARY) + " ";
  // A README alone: no spec staged, the hook lets it through.
  writeFile(dir.file("README"), "sample\n");
  REQUIRE(sh(git + "add README").status == 0);
  CHECK(sh("cd " + dir.path() + " && " + env + "git -c user.name=t -c user.email=t@example.invalid commit -q -m readme")
            .status == 0);
  // A safe spec (with the trampolines it names): committed.
  writeFile(dir.file("specs/entry.toml"), readFile(kSafe));
  REQUIRE(sh("cp -r " + std::string(PATCHCHECK_SOURCE_DIR) + "/trampolines " + dir.path()).status == 0);
  REQUIRE(sh(git + "add specs/entry.toml trampolines").status == 0);
  CHECK(sh("cd " + dir.path() + " && " + env + "git -c user.name=t -c user.email=t@example.invalid commit -q -m safe")
            .status == 0);
  // An unsafe one: refused, and nothing is committed.
  writeFile(dir.file("specs/bad.toml"), readFile(kUnsafe));
  REQUIRE(sh(git + "add specs/bad.toml").status == 0);
  Ran refused = sh("cd " + dir.path() + " && " + env + "git -c user.name=t -c user.email=t@example.invalid commit -q -m bad",
                   true);
  CHECK(refused.status != 0);
  CHECK(refused.out.find("refused the commit") != std::string::npos);
  CHECK(sh(git + "log --oneline").out.find("bad") == std::string::npos);
}

TEST_CASE("a baseline certified by another checker build is proven again, entry by entry", "[output_gate]") {
  TempDir dir;
  writeFile(dir.file("spec.toml"), readFile(kSafe));
  REQUIRE(sh("cp -r " + std::string(PATCHCHECK_SOURCE_DIR) + "/trampolines " + dir.path()).status == 0);
  REQUIRE(sh("cd " + dir.path() + " && " + cli("table spec.toml -o certified")).status == 0);
  std::string tablePath = dir.file("certified/mips-patchable-entry.json");
  json table = json::parse(readFile(tablePath));
  // The certificate names the build that proved it, as --version does.
  const json& checker = table["certificate"]["checker"];
  Ran version = sh(cli("--version"));
  CHECK(version.status == 0);
  for (const char* field : {"version", "commit", "semantics_sha256", "solver"}) {
    INFO(field);
    REQUIRE(checker[field].is_string());
    CHECK(version.out.find(checker[field].get<std::string>()) != std::string::npos);
  }
  CHECK(version.out.find("Z3 ") != std::string::npos);
  CHECK(version.out.find("Zydis ") != std::string::npos);
  // Another commit with the same sources proves the same: still skipped.
  table["certificate"]["checker"]["commit"] = "0123456789ab";
  writeFile(tablePath, table.dump(2));
  json same = json::parse(sh("cd " + dir.path() + " && " + cli("gate --format json --baseline certified spec.toml")).out);
  CHECK(same["gate"]["skipped"].size() == 7);
  // A table claiming another version, another semantics digest, or no build
  // at all (an older table) is no baseline: every entry is proven again.
  for (const char* edit : {"version", "semantics_sha256", "remove"}) {
    INFO(edit);
    json t = json::parse(readFile(dir.file("certified/mips-patchable-entry.json")));
    if (std::string(edit) == "remove") t["certificate"].erase("checker");
    else t["certificate"]["checker"][edit] = "0.0.9";
    TempDir other;
    REQUIRE(sh("mkdir -p " + other.path() + "/certified").status == 0);
    writeFile(other.file("certified/mips-patchable-entry.json"), t.dump(2));
    Ran r = sh("cd " + dir.path() + " && " + cli("gate --format json --baseline " + other.file("certified") + " spec.toml"));
    CHECK(r.status == 0);
    json k = json::parse(r.out);
    CHECK(k["gate"]["skipped"].empty());
    CHECK(k["results"][0]["transitions"].size() == 7);
    REQUIRE(!k["gate"]["checked_because"].empty());
    std::string why = k["gate"]["checked_because"].begin().value();
    CHECK(why.find("certified by another checker build") != std::string::npos);
  }
  // verify-table proves everything again anyway: another build is a note, not a difference.
  json t = json::parse(readFile(tablePath));
  t["certificate"]["checker"]["version"] = "0.0.9";
  writeFile(tablePath, t.dump(2));
  Ran verify = sh("cd " + dir.path() + " && " + cli("verify-table certified/mips-patchable-entry.json"));
  CHECK(verify.status == 0);
  CHECK(verify.out.find("note: certified by another checker build") != std::string::npos);
}

TEST_CASE("verdicts are coloured on a terminal only, and never with NO_COLOR", "[output_gate]") {
  // script(1) (util-linux, Essential on Debian) gives the command a terminal.
  const std::string spec = std::string(PATCHCHECK_SOURCE_DIR) + "/specs/x86/jump-label.toml";
  const std::string command = cli("check " + spec + " --transition enable");
  Ran tty = sh("script -qec '" + command + "' /dev/null", true);
  INFO(tty.out);
  CHECK(tty.out.find("\033[1;32mSAFE\033[0m") != std::string::npos);
  Ran noColour = sh("NO_COLOR=1 script -qec '" + command + "' /dev/null", true);
  CHECK(noColour.out.find("\033[") == std::string::npos);
  Ran pipe = sh(command, true);
  CHECK(pipe.out.find("\033[") == std::string::npos);
  CHECK(pipe.out.find("SAFE") != std::string::npos);
}
