#pragma once
// --sarif FILE, --junit FILE, --json FILE, --ktap FILE and --no-times: the reports one
// run writes besides standard output, each a whole document on every exit
// code, each written atomically (a CI step never reads half a file).
#include <CLI/CLI.hpp>

#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "checker/report/AtomicFile.h"

namespace patchcheck {

struct OutputFiles {
  std::string sarif, junit, json, ktap;
  bool times = true;

  void addTo(CLI::App& cmd) {
    cmd.add_option("--sarif", sarif, "also write SARIF 2.1.0 to FILE")->type_name("FILE");
    cmd.add_option("--junit", junit, "also write JUnit XML to FILE")->type_name("FILE");
    cmd.add_option("--json", json, "also write the JSON report to FILE")->type_name("FILE");
    cmd.add_option("--ktap", ktap, "also write KTAP version 1 to FILE")->type_name("FILE");
    cmd.add_flag("--no-times", [this](int64_t) { times = false; },
                 "leave wall-clock times out of JSON and JUnit (byte-identical reports)");
  }

  // Renders each requested format and writes it; false when a file could
  // not be written (said on standard error).
  bool write(const std::function<std::string(const std::string& format)>& render) const {
    bool ok = true;
    for (const auto& [format, path] : std::vector<std::pair<std::string, std::string>>{
             {"sarif", sarif}, {"junit", junit}, {"json", json}, {"ktap", ktap}}) {
      if (path.empty()) continue;
      if (auto err = writeFileAtomically(path, render(format))) {
        std::cerr << "<command line>: error: " << *err << "\n";
        ok = false;
      }
    }
    return ok;
  }
};

}  // namespace patchcheck
