#include "encoder/ObjectCode.h"

#include "encoder/Isa.h"

#include <cstdio>

// One `PATCHCHECK_OBJECT_CODE(name)` line per encoder/<isa>/ObjectCode.cpp, written by CMake.
#define PATCHCHECK_OBJECT_CODE(ns) \
  namespace patchcheck::ns { const ::patchcheck::ObjectCode& objectCode(); }
#include "ObjectCodes.inc"
#undef PATCHCHECK_OBJECT_CODE

namespace patchcheck {
namespace {

std::span<const ObjectCode* const> all() {
#define PATCHCHECK_OBJECT_CODE(ns) &ns::objectCode(),
  static const ObjectCode* const codes[] = {
#include "ObjectCodes.inc"
  };
#undef PATCHCHECK_OBJECT_CODE
  return codes;
}

}  // namespace

// ELF64_R_SYM/TYPE (System V gABI, "Relocation"): libelf's gelf_getrel
// and gelf_getrela give an ELF32 entry's r_info in the ELF64 layout too.
std::pair<uint32_t, uint32_t> ObjectCode::relocationInfo(uint64_t info, bool, Endian) const {
  return {uint32_t(info >> 32), uint32_t(info)};
}

std::optional<ObjectCode::LinkerEdit> ObjectCode::linkerEdit(const ObjectRelocation&, const ObjectRelocation*) const {
  return std::nullopt;
}

std::optional<std::string> ObjectCode::targetProblem(uint32_t, bool, const Target&) const { return std::nullopt; }

std::string symbolPlus(const std::string& symbol, int64_t addend) {
  if (addend == 0) return symbol;
  char b[32];
  std::snprintf(b, sizeof b, "%c0x%llx", addend < 0 ? '-' : '+',
                (unsigned long long)(addend < 0 ? 0 - uint64_t(addend) : uint64_t(addend)));
  return symbol + b;
}

SplitLine splitLine(const std::string& line) {
  size_t blank = line.find_first_of(" \t");
  if (blank == std::string::npos) return {line, ""};
  size_t rest = line.find_first_not_of(" \t", blank);
  return {line.substr(0, blank), rest == std::string::npos ? "" : line.substr(rest)};
}

const ObjectCode* objectCodeOf(const Target& t) {
  for (const ObjectCode* c : all())
    if (t.isa && c->family() == t.isa->family()) return c;
  return nullptr;
}

const ObjectCode* objectCodeForMachine(uint16_t machine) {
  for (const ObjectCode* c : all())
    if (c->elfMachine() == machine) return c;
  return nullptr;
}

}  // namespace patchcheck
