#pragma once
// AT&T register names (without the %) to Zydis registers: the general
// registers of every width, %rip and the segment registers. The names are
// Zydis's own, which are GNU as's.
#include <Zydis/Zydis.h>

#include <string>
#include <string_view>

namespace patchcheck::x86_64 {

// ZYDIS_REGISTER_NONE when the name is no register of this subset.
ZydisRegister registerNamed(std::string_view name);
std::string nameOf(ZydisRegister);  // "rax"
// The width in bits of a general register, 0 for any other.
unsigned gprBits(ZydisRegister);
bool isSegment(ZydisRegister);
// ah, ch, dh, bh: not encodable in an instruction with a REX prefix.
bool isHighByte(ZydisRegister);

}  // namespace patchcheck::x86_64
