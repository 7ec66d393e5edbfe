#include "encoder/x86_64/Registers.h"

#include <unordered_map>

namespace patchcheck::x86_64 {
namespace {

const std::unordered_map<std::string, ZydisRegister>& names() {
  static const auto m = [] {
    std::unordered_map<std::string, ZydisRegister> out;
    for (int r = ZYDIS_REGISTER_NONE + 1; r <= ZYDIS_REGISTER_MAX_VALUE; ++r) {
      auto reg = ZydisRegister(r);
      ZydisRegisterClass c = ZydisRegisterGetClass(reg);
      bool wanted = c == ZYDIS_REGCLASS_GPR8 || c == ZYDIS_REGCLASS_GPR16 || c == ZYDIS_REGCLASS_GPR32 ||
                    c == ZYDIS_REGCLASS_GPR64 || c == ZYDIS_REGCLASS_SEGMENT || reg == ZYDIS_REGISTER_RIP;
      if (wanted) out.emplace(ZydisRegisterGetString(reg), reg);
    }
    return out;
  }();
  return m;
}

}  // namespace

ZydisRegister registerNamed(std::string_view name) {
  auto it = names().find(std::string(name));
  return it == names().end() ? ZYDIS_REGISTER_NONE : it->second;
}

std::string nameOf(ZydisRegister r) {
  const char* s = ZydisRegisterGetString(r);
  return s ? s : "?";
}

unsigned gprBits(ZydisRegister r) {
  switch (ZydisRegisterGetClass(r)) {
    case ZYDIS_REGCLASS_GPR8: return 8;
    case ZYDIS_REGCLASS_GPR16: return 16;
    case ZYDIS_REGCLASS_GPR32: return 32;
    case ZYDIS_REGCLASS_GPR64: return 64;
    default: return 0;
  }
}

bool isSegment(ZydisRegister r) { return ZydisRegisterGetClass(r) == ZYDIS_REGCLASS_SEGMENT; }

bool isHighByte(ZydisRegister r) {
  return r == ZYDIS_REGISTER_AH || r == ZYDIS_REGISTER_CH || r == ZYDIS_REGISTER_DH || r == ZYDIS_REGISTER_BH;
}

}  // namespace patchcheck::x86_64
