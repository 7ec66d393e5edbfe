#include "encoder/arm64/SystemNames.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace patchcheck::arm64 {
namespace {

bool sameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower((unsigned char)x) == std::tolower((unsigned char)y);
         });
}

template <size_t N>
std::optional<unsigned> indexOf(const std::array<std::string_view, N>& names, std::string_view s) {
  for (unsigned i = 0; i < N; ++i)
    if (!names[i].empty() && sameName(names[i], s)) return i;
  return std::nullopt;
}

constexpr std::array<std::string_view, 16> kConditions = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
                                                          "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
// CRm 0, 4, 8 and 12 have no name (dsb 0 and 4 are ssbb and pssbb).
constexpr std::array<std::string_view, 16> kBarriers = {"", "oshld", "oshst", "osh", "", "nshld", "nshst", "nsh",
                                                        "", "ishld", "ishst", "ish", "", "ld", "st", "sy"};
constexpr std::array<std::string_view, 4> kShifts = {"lsl", "lsr", "asr", "ror"};
constexpr std::array<std::string_view, 8> kExtends = {"uxtb", "uxth", "uxtw", "uxtx",
                                                      "sxtb", "sxth", "sxtw", "sxtx"};

// op0 (2 or 3), op1, CRn, CRm, op2 as the Arm ARM lists them.
constexpr uint16_t sysreg(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2) {
  return uint16_t(((op0 - 2) << 14) | (op1 << 11) | (crn << 7) | (crm << 3) | op2);
}

// The registers a kernel's entry, ftrace and patching code touch. Reading
// an ID register or a counter is allowed from EL0 for some; msr to any of
// them needs EL1 (the model decides what that means).
constexpr SystemRegister kRegisters[] = {
    {"midr_el1", sysreg(3, 0, 0, 0, 0), true, false},
    {"mpidr_el1", sysreg(3, 0, 0, 0, 5), true, false},
    {"ctr_el0", sysreg(3, 3, 0, 0, 1), true, false},
    {"dczid_el0", sysreg(3, 3, 0, 0, 7), true, false},
    {"sctlr_el1", sysreg(3, 0, 1, 0, 0), true, true},
    {"spsr_el1", sysreg(3, 0, 4, 0, 0), true, true},
    {"elr_el1", sysreg(3, 0, 4, 0, 1), true, true},
    {"sp_el0", sysreg(3, 0, 4, 1, 0), true, true},
    {"currentel", sysreg(3, 0, 4, 2, 2), true, false},
    {"nzcv", sysreg(3, 3, 4, 2, 0), true, true},
    {"daif", sysreg(3, 3, 4, 2, 1), true, true},
    {"esr_el1", sysreg(3, 0, 5, 2, 0), true, true},
    {"far_el1", sysreg(3, 0, 6, 0, 0), true, true},
    {"vbar_el1", sysreg(3, 0, 12, 0, 0), true, true},
    {"tpidr_el1", sysreg(3, 0, 13, 0, 4), true, true},
    {"tpidr_el0", sysreg(3, 3, 13, 0, 2), true, true},
    {"tpidrro_el0", sysreg(3, 3, 13, 0, 3), true, true},
    {"cntfrq_el0", sysreg(3, 3, 14, 0, 0), true, true},
    {"cntvct_el0", sysreg(3, 3, 14, 0, 2), true, false},
};

}  // namespace

std::string_view conditionName(unsigned c) { return kConditions[c & 15]; }

std::optional<unsigned> parseCondition(std::string_view s) {
  if (sameName(s, "hs")) return 2;
  if (sameName(s, "lo")) return 3;
  return indexOf(kConditions, s);
}

std::optional<std::string_view> barrierName(unsigned crm) {
  if (kBarriers[crm & 15].empty()) return std::nullopt;
  return kBarriers[crm & 15];
}
std::optional<unsigned> parseBarrier(std::string_view s) { return indexOf(kBarriers, s); }

std::string_view shiftName(unsigned t) { return kShifts[t & 3]; }
std::optional<unsigned> parseShift(std::string_view s) { return indexOf(kShifts, s); }
std::string_view extendName(unsigned o) { return kExtends[o & 7]; }
std::optional<unsigned> parseExtend(std::string_view s) { return indexOf(kExtends, s); }

std::span<const SystemRegister> systemRegisters() { return kRegisters; }

const SystemRegister* systemRegister(uint32_t encoding) {
  for (const SystemRegister& r : kRegisters)
    if (r.encoding == encoding) return &r;
  return nullptr;
}

const SystemRegister* systemRegisterNamed(std::string_view name) {
  for (const SystemRegister& r : kRegisters)
    if (sameName(r.name, name)) return &r;
  return nullptr;
}

}  // namespace patchcheck::arm64
