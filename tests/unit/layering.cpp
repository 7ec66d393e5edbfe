// The layers of checker/ (docs/model.md, "Layout"): spec/ <- explore/
// <- litmus/ <- report/ <- cli/, each folder including only those before it, and no
// include cycle between files. And the ISA boundary (docs/architecture.md):
// core code (encoder/*, model/*, checker/**) includes no plug-in folder
// (encoder/<isa>/, model/<isa>/); it reaches an ISA through encoder/Isa.h
// and model/IsaModel.h only. Read from the #include lines, so a back edge
// fails here, naming the file and the include, before it tangles the build.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace fs = std::filesystem;

// The folders of checker/, lowest first: each may include those before it.
// fetch/ holds one file per fetch model: rules over the writer's timeline
// (explore/Timeline.h) that the core reaches through spec/FetchRules.h and
// the registry, never by including fetch/. litmus/ (the litmus test and its
// runner) builds on spec/ and explore/.
const std::vector<std::string> kLayers{"spec", "explore", "fetch", "litmus", "report", "cli"};

// One `#include "checker/..."` line.
struct Include {
  std::string file;    // "checker/spec/Spec.h", the including file
  unsigned line = 0;
  std::string target;  // "checker/explore/Verdict.h"
};

// "checker/spec/Spec.h" -> "spec"; "" when not directly in a layer folder.
std::string layerOf(const std::string& path) {
  std::smatch m;
  static const std::regex inLayer(R"(checker/([a-z]+)/[^/]+)");
  if (!std::regex_match(path, m, inLayer)) return "";
  std::string folder = m[1];
  return std::count(kLayers.begin(), kLayers.end(), folder) ? folder : "";
}

int rank(const std::string& layer) {
  return int(std::find(kLayers.begin(), kLayers.end(), layer) - kLayers.begin());
}

// A file's node in the include graph: a .h and the .cpp of the same name
// are one unit, so "X.cpp includes Y.h, Y.cpp includes X.h" is a cycle.
std::string unitOf(const std::string& path) { return path.substr(0, path.rfind('.')); }

std::vector<Include> includesUnder(const fs::path& source) {
  std::vector<Include> out;
  static const std::regex include(R"(^\s*#\s*include\s*"(checker/[^"]+)\")");
  for (const auto& e : fs::recursive_directory_iterator(source / "checker")) {
    if (!e.is_regular_file()) continue;
    std::string ext = e.path().extension().string();
    if (ext != ".h" && ext != ".cpp") continue;
    std::string file = fs::relative(e.path(), source).generic_string();
    std::ifstream in(e.path());
    std::string text;
    std::smatch m;
    for (unsigned line = 1; std::getline(in, text); ++line)
      if (std::regex_search(text, m, include)) out.push_back({file, line, m[1]});
    if (layerOf(file).empty())  // a file outside the layers has no place in them
      out.push_back({file, 0, ""});
  }
  std::sort(out.begin(), out.end(), [](const Include& a, const Include& b) {
    return std::tie(a.file, a.line) < std::tie(b.file, b.line);
  });
  return out;
}

// What breaks the layering, one line each, naming the file and the include.
std::vector<std::string> layeringProblems(const std::vector<Include>& includes) {
  std::vector<std::string> out;
  for (const Include& i : includes) {
    std::string from = layerOf(i.file);
    if (from.empty()) {
      if (i.line == 0) out.push_back(i.file + ": lies in none of checker/spec, explore, fetch, litmus, report, cli");
      continue;
    }
    std::string to = layerOf(i.target);
    std::string at = i.file + ":" + std::to_string(i.line) + ": includes \"" + i.target + "\"";
    if (to.empty()) out.push_back(at + ", which lies in none of checker/spec, explore, fetch, litmus, report, cli");
    else if (rank(to) > rank(from)) out.push_back(at + ": " + from + "/ may not include " + to + "/");
  }
  return out;
}

// Every include cycle between units, each as the chain of includes that
// closes it ("a.cpp:3 includes b.h -> b.h:5 includes a.h").
std::vector<std::string> includeCycles(const std::vector<Include>& includes) {
  std::map<std::string, std::vector<const Include*>> edges;  // unit -> its includes
  for (const Include& i : includes)
    if (!i.target.empty() && unitOf(i.file) != unitOf(i.target)) edges[unitOf(i.file)].push_back(&i);
  std::vector<std::string> out;
  std::set<std::string> cycles;  // each reported once, by its sorted units
  std::map<std::string, int> state;  // 1: on the current path, 2: done
  std::vector<const Include*> path;
  std::function<void(const std::string&)> visit = [&](const std::string& unit) {
    state[unit] = 1;
    for (const Include* i : edges[unit]) {
      std::string next = unitOf(i->target);
      path.push_back(i);
      if (state[next] == 1) {
        auto start = std::find_if(path.begin(), path.end(), [&](const Include* p) { return unitOf(p->file) == next; });
        std::set<std::string> units;
        std::string chain;
        for (auto p = start; p != path.end(); ++p) {
          units.insert(unitOf((*p)->file));
          chain += (chain.empty() ? "" : " -> ") + (*p)->file + ":" + std::to_string((*p)->line) + " includes " +
                   (*p)->target;
        }
        std::string key;
        for (const std::string& u : units) key += u + " ";
        if (cycles.insert(key).second) out.push_back("include cycle: " + chain);
      } else if (state[next] == 0) {
        visit(next);
      }
      path.pop_back();
    }
    state[unit] = 2;
  };
  for (const auto& [unit, _] : edges)
    if (state[unit] == 0) visit(unit);
  return out;
}

// Core code: the ISA-neutral files, directly in encoder/ or model/, in
// encoder/gnu/ (the GNU-as front end the plug-ins share), or anywhere in
// checker/.
bool isCore(const std::string& path) {
  static const std::regex core(R"((encoder|model)/[^/]+|encoder/gnu/.+|checker/.+)");
  return std::regex_match(path, core);
}

// A header of an ISA plug-in: anything in a folder below encoder/ or model/
// but encoder/gnu/.
bool isPluginHeader(const std::string& path) {
  static const std::regex plugin(R"((encoder|model)/[^/]+/.+)");
  return std::regex_match(path, plugin) && path.rfind("encoder/gnu/", 0) != 0;
}

// Every project include of every source file under `source`'s encoder/,
// model/ and checker/.
std::vector<Include> projectIncludes(const fs::path& source) {
  std::vector<Include> out;
  static const std::regex include(R"(^\s*#\s*include\s*"((encoder|model|checker)/[^"]+)\")");
  for (const char* top : {"encoder", "model", "checker"})
    for (const auto& e : fs::recursive_directory_iterator(source / top)) {
      std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
      std::string file = fs::relative(e.path(), source).generic_string();
      std::ifstream in(e.path());
      std::string text;
      std::smatch m;
      for (unsigned line = 1; std::getline(in, text); ++line)
        if (std::regex_search(text, m, include)) out.push_back({file, line, m[1]});
    }
  return out;
}

std::vector<std::string> boundaryProblems(const std::vector<Include>& includes) {
  std::vector<std::string> out;
  for (const Include& i : includes)
    if (isCore(i.file) && isPluginHeader(i.target))
      out.push_back(i.file + ":" + std::to_string(i.line) + ": includes \"" + i.target +
                    "\", a plug-in's header: core code reaches an ISA through encoder/Isa.h and model/IsaModel.h");
  return out;
}

}  // namespace

TEST_CASE("core code includes no ISA plug-in header", "[layering]") {
  std::vector<Include> includes = projectIncludes(PATCHCHECK_SOURCE_DIR);
  REQUIRE(std::any_of(includes.begin(), includes.end(),
                      [](const Include& i) { return i.file.rfind("encoder/mips/", 0) == 0; }));  // the scan saw plug-ins
  for (const std::string& p : boundaryProblems(includes)) FAIL_CHECK(p);
}

TEST_CASE("the boundary check names a core file that includes a plug-in", "[layering]") {
  std::vector<Include> some{
      {"checker/explore/PassExplorer.cpp", 9, "encoder/mips/Printer.h"},  // refused
      {"model/Cpu.cpp", 3, "model/mips/ControlFlow.h"},                   // refused
      {"encoder/IsaRegistry.cpp", 2, "encoder/Isa.h"},                    // core to core
      {"model/mips/Model.cpp", 4, "model/IsaModel.h"},                    // a plug-in may use the core
      {"model/mips/Model.cpp", 5, "encoder/mips/Decoder.h"},              // and itself
      {"encoder/mips/Relocations.h", 9, "encoder/gnu/Expr.h"},            // the shared front end
      {"model/Cpu.cpp", 4, "encoder/gnu/Expr.h"},                         // is core, not a plug-in
      {"encoder/gnu/Expr.cpp", 3, "encoder/x86_64/Encoder.h"},            // refused
  };
  auto problems = boundaryProblems(some);
  REQUIRE(problems.size() == 3);
  CHECK_THAT(problems[0], Catch::Matchers::StartsWith("checker/explore/PassExplorer.cpp:9: includes \"encoder/mips/Printer.h\""));
  CHECK_THAT(problems[1], Catch::Matchers::StartsWith("model/Cpu.cpp:3: includes \"model/mips/ControlFlow.h\""));
  CHECK_THAT(problems[2], Catch::Matchers::StartsWith("encoder/gnu/Expr.cpp:3: includes \"encoder/x86_64/Encoder.h\""));
}

TEST_CASE("each folder of checker/ includes only the folders below it", "[layering]") {
  std::vector<Include> includes = includesUnder(PATCHCHECK_SOURCE_DIR);
  REQUIRE(includes.size() > 100);  // the scan found the sources
  for (const std::string& p : layeringProblems(includes)) FAIL_CHECK(p);
}

TEST_CASE("no two files of checker/ include each other, directly or not", "[layering]") {
  for (const std::string& c : includeCycles(includesUnder(PATCHCHECK_SOURCE_DIR))) FAIL_CHECK(c);
}

// The checks themselves: a back edge and a cycle are caught and named.
TEST_CASE("the layering checks name a back edge and a cycle", "[layering]") {
  std::vector<Include> bad{
      {"checker/spec/Spec.h", 3, "checker/explore/Verdict.h"},
      {"checker/explore/Verdict.h", 4, "checker/spec/Spec.h"},
      {"checker/explore/A.cpp", 1, "checker/explore/B.h"},
      {"checker/explore/B.cpp", 2, "checker/explore/C.h"},
      {"checker/explore/C.h", 5, "checker/explore/A.h"},
      {"checker/report/R.h", 6, "checker/cli/Commands.h"},
      {"checker/cli/Main.cpp", 7, "checker/report/R.h"},
      {"checker/explore/E.cpp", 8, "checker/litmus/LitmusTest.h"},
      {"checker/litmus/L.cpp", 9, "checker/explore/Checker.h"},
      {"checker/report/R.cpp", 10, "checker/litmus/LitmusTest.h"},
      {"checker/Flat.h", 0, ""},
  };
  auto problems = layeringProblems(bad);
  REQUIRE(problems.size() == 4);
  CHECK(problems[0] == "checker/spec/Spec.h:3: includes \"checker/explore/Verdict.h\": spec/ may not include explore/");
  CHECK(problems[1] == "checker/report/R.h:6: includes \"checker/cli/Commands.h\": report/ may not include cli/");
  CHECK(problems[2] == "checker/explore/E.cpp:8: includes \"checker/litmus/LitmusTest.h\": explore/ may not include litmus/");
  CHECK(problems[3] == "checker/Flat.h: lies in none of checker/spec, explore, fetch, litmus, report, cli");
  auto cycles = includeCycles(bad);
  REQUIRE(cycles.size() == 2);
  CHECK_THAT(cycles[0], Catch::Matchers::Contains("checker/explore/A.cpp:1 includes checker/explore/B.h"));
  CHECK_THAT(cycles[0], Catch::Matchers::Contains("checker/explore/C.h:5 includes checker/explore/A.h"));
  CHECK_THAT(cycles[1], Catch::Matchers::Contains("checker/explore/Verdict.h:4 includes checker/spec/Spec.h"));
  CHECK(includeCycles({{"checker/spec/A.cpp", 1, "checker/spec/A.h"}}).empty());  // a unit with itself
}
