#pragma once
// --fetch-choices: how passes explore the versions a fetch may see
// (checker/explore/FetchChoices.h). The verdict is the same either way;
// `explicit` reproduces a counterexample found before merging existed,
// `symbolic` is for measuring.
#include <CLI/CLI.hpp>

#include <map>
#include <string>

#include "checker/explore/FetchChoices.h"

namespace patchcheck {

inline void addFetchChoicesOption(CLI::App& cmd, FetchChoices& choices) {
  // A string checked against the names, so that help and errors show the
  // names alone (an enum transformer prints its mapping to numbers).
  static const std::map<std::string, FetchChoices> names{
      {"auto", FetchChoices::Auto}, {"explicit", FetchChoices::Explicit}, {"symbolic", FetchChoices::Symbolic}};
  cmd.add_option_function<std::string>(
         "--fetch-choices", [&choices](const std::string& v) { choices = names.at(v); },
         "auto | explicit | symbolic: each version a fetch may see its own path, or merged where the "
         "paths meet again (auto: explicit until " + std::to_string(kExplicitExecutions) + " executions)")
      ->check(CLI::IsMember({"auto", "explicit", "symbolic"}).description(""))
      ->option_text("auto|explicit|symbolic=auto");
}

}  // namespace patchcheck
