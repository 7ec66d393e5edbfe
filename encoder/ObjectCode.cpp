#include "encoder/ObjectCode.h"

#include "encoder/Isa.h"

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
