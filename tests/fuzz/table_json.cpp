// The patch table JSON `patchcheck verify-table` reads (checker/report/TableFile.h)
// on arbitrary bytes. Properties: a rejection points at a line of the
// input; an accepted table has every member verify-table reads, of the
// type it reads it as, and prints back to JSON that parses to the same table.
#include <cstddef>
#include <cstdint>

#include "checker/report/TableFile.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;
using json = nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string path = "fuzz_table.json";
  auto parsed = parseTableFile(text, path);
  if (auto* e = std::get_if<Diagnostic>(&parsed)) {
    fuzz::requireLocated({*e}, path, text);
    return 0;
  }
  const json& t = std::get<json>(parsed);
  try {  // what runVerify reads (checker/cli/VerifyTableCommand.cpp)
    (void)t.at("spec").at("path").get<std::string>();
    (void)t.at("options").at("matrix").get<bool>();
    (void)t.at("certificate").at("model").at("solver_timeout_ms").get<unsigned>();
  } catch (const json::exception& e) {
    fuzz::require(false, "an accepted table has the members verify-table reads", e.what());
  }
  std::string printed = t.dump();
  auto again = parseTableFile(printed, path);
  fuzz::require(std::holds_alternative<json>(again) && std::get<json>(again) == t,
                "an accepted table prints to a table that parses to the same JSON");
  return 0;
}
