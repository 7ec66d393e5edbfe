#include "model/IsaModel.h"

#include <stdexcept>

#include "encoder/Isa.h"

// One `PATCHCHECK_ISA_MODEL(name)` line per model folder, written by CMake.
#define PATCHCHECK_ISA_MODEL(ns) \
  namespace patchcheck::ns { const ::patchcheck::IsaModel& model(); }
#include "IsaModels.inc"
#undef PATCHCHECK_ISA_MODEL

namespace patchcheck {

const IsaModel& modelOf(const Target& t) {
#define PATCHCHECK_ISA_MODEL(ns) &ns::model(),
  static const IsaModel* const all[] = {
#include "IsaModels.inc"
  };
#undef PATCHCHECK_ISA_MODEL
  std::string_view family = t.isa ? t.isa->family() : "";
  for (const IsaModel* m : all)
    if (m->family() == family) return *m;
  throw NoModel("no semantics for " + std::string(family) + " yet (model/" + std::string(family) +
                "/Model.cpp): asm and disasm work, commands that execute code do not");
}

std::optional<unsigned> registerNumber(const IsaModel& m, std::string_view name, const Target& t) {
  if (auto r = m.parseRegister(name, t)) return r;
  const std::vector<RegisterInfo>& file = m.registers(t);
  for (unsigned r = 0; r < file.size(); ++r)
    if (file[r].name == name) return r;
  return std::nullopt;
}

}  // namespace patchcheck
