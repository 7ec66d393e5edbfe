// Table files as verify-table and gate read them back (checker/report/TableFile.h):
// a bad table is an error at the line of what is wrong, never a crash.
#include <catch2/catch.hpp>

#include "checker/report/TableFile.h"

using namespace patchcheck;

namespace {

const char* kTable = R"({
  "format": "patchcheck-table/1",
  "spec": {"name": "s", "path": "s.toml"},
  "options": {"matrix": false},
  "certificate": {"model": {"solver_timeout_ms": 20000}, "instruction_table_sha256": "00", "trampolines": []},
  "targets": [
    {"target": "mips32r2/o32/big",
     "states": [{"name": "a", "words": [], "behaviour": "untraced"}],
     "transitions": [{"name": "a->b", "from": "a", "to": "b", "when": "live",
                      "steps": [{"op": "sync"},
                                {"op": "write", "index": 1, "text": "nop"}]}]}
  ]
}
)";

Diagnostic rejection(const std::string& text) {
  auto r = parseTableFile(text, "t.json");
  REQUIRE(std::holds_alternative<Diagnostic>(r));
  return std::get<Diagnostic>(r);
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("a well-formed table is accepted", "[table_file]") {
  auto r = parseTableFile(kTable, "t.json");
  REQUIRE(std::holds_alternative<nlohmann::json>(r));
  CHECK(std::get<nlohmann::json>(r)["spec"]["name"] == "s");
}

TEST_CASE("a member of the wrong type is an error at its line", "[table_file]") {
  Diagnostic d = rejection(replaced(kTable, "\"index\": 1", "\"index\": \"1\""));
  CHECK(d.where.file == "t.json");
  CHECK(d.where.line == 11);
  CHECK(d.message.find("/targets/0/transitions/0/steps/1/index") != std::string::npos);
  CHECK(rejection(replaced(kTable, "\"matrix\": false", "\"matrix\": 3")).where.line == 4);
  CHECK(rejection(replaced(kTable, "\"format\": \"patchcheck-table/1\"", "\"format\": 1")).where.line == 2);
}

TEST_CASE("a missing member is an error at the object that lacks it", "[table_file]") {
  Diagnostic d = rejection(replaced(kTable, "\"options\": {\"matrix\": false},", ""));
  CHECK(d.where.line == 1);
  CHECK(d.message.find("missing \"options\"") != std::string::npos);
  CHECK(rejection(replaced(kTable, "{\"op\": \"sync\"}", "{}")).where.line == 10);
}

TEST_CASE("bad JSON is an error at its line and column", "[table_file]") {
  Diagnostic d = rejection(replaced(kTable, "\"to\": \"b\"", "\"to\" \"b\""));
  CHECK(d.where.line == 9);
  CHECK(d.where.column > 0);
  // A number too large for a double is not a parse_error in nlohmann::json
  // (found by the table_json fuzz target): still an error with a line.
  CHECK(rejection(replaced(kTable, "20000", "1e999")).where.line == 5);
  CHECK(rejection("").where.line == 1);
}

TEST_CASE("a byte site's table: instructions instead of words, a write's byte count a number", "[table_file]") {
  std::string bytes = replaced(replaced(kTable, "\"words\": []", "\"instructions\": []"),
                               "\"index\": 1, \"text\": \"nop\"", "\"index\": 1, \"bytes\": 4, \"text\": \"call T\"");
  REQUIRE(std::holds_alternative<nlohmann::json>(parseTableFile(bytes, "t.json")));
  Diagnostic d = rejection(replaced(bytes, "\"bytes\": 4", "\"bytes\": \"4\""));
  CHECK(d.where.line == 11);
  CHECK(d.message.find("/targets/0/transitions/0/steps/1/bytes") != std::string::npos);
  CHECK(rejection(replaced(bytes, "\"instructions\": []", "\"instructions\": {}")).message.find(
            "\"instructions\" must be an array") != std::string::npos);
}
