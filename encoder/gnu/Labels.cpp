#include "encoder/gnu/Labels.h"

#include <algorithm>

#include "encoder/gnu/Source.h"

namespace patchcheck::gnu {

std::optional<std::string> Labels::define(std::string_view name, uint64_t position, const GivenSymbols& given) {
  if (isDigit(name[0])) {
    auto number = localLabelNumber(name);
    if (!number) return "local label number '" + std::string(name) + "' is too large";
    locals_[*number].push_back({event_++, position});
    return std::nullopt;
  }
  std::string n(name);
  if (named_.count(n) || given.concrete.count(n) || given.symbolic.count(n))
    return "label '" + n + "' is already defined";
  named_.emplace(std::move(n), position);
  return std::nullopt;
}

std::optional<uint64_t> Labels::named(std::string_view name) const {
  auto it = named_.find(name);
  if (it == named_.end()) return std::nullopt;
  return it->second;
}

std::optional<uint64_t> Labels::local(unsigned number, bool forward, unsigned event) const {
  auto it = locals_.find(number);
  if (it == locals_.end()) return std::nullopt;
  const auto& defs = it->second;
  // The first definition at or after the statement, or the last before it.
  auto next = std::lower_bound(defs.begin(), defs.end(), event,
                               [](const LocalDef& d, unsigned ev) { return d.event < ev; });
  if (forward) {
    if (next == defs.end()) return std::nullopt;
    return next->position;
  }
  if (next == defs.begin()) return std::nullopt;
  return std::prev(next)->position;
}

}  // namespace patchcheck::gnu
