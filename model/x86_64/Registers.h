#pragma once
// The x86-64 register file as the model numbers it (model/IsaModel.h):
// the sixteen general registers in their encoding order (the number a
// ModRM or REX field gives), the arithmetic flags and DF as booleans, and
// the other RFLAGS bits in one register of their own.
#include <array>
#include <cstdint>
#include <string_view>

namespace patchcheck::x86_64::reg {

constexpr unsigned rax = 0, rcx = 1, rdx = 2, rbx = 3, rsp = 4, rbp = 5, rsi = 6, rdi = 7;
constexpr unsigned r8 = 8, r9 = 9, r10 = 10, r11 = 11, r12 = 12, r13 = 13, r14 = 14, r15 = 15;
constexpr unsigned cf = 16, pf = 17, af = 18, zf = 19, sf = 20, of = 21, df = 22;
// RFLAGS without the seven flags above: TF, IF, IOPL, NT, AC, VIF, VIP, ID
// (kSystemFlags). pushfq shows them, popfq and cli/sti change them; no
// other instruction of the subset touches them.
constexpr unsigned sysflags = 23;
constexpr unsigned count = 24;

// Names as the System V ABI spells them, by number.
constexpr std::array<std::string_view, 16> kGprNames = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                                        "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};

}  // namespace patchcheck::x86_64::reg

namespace patchcheck::x86_64 {

// RFLAGS bit positions (Intel SDM Vol. 1, 3.4.3).
namespace rflags {
constexpr uint64_t CF = 1u << 0, Reserved1 = 1u << 1, PF = 1u << 2, AF = 1u << 4, ZF = 1u << 6, SF = 1u << 7,
                   TF = 1u << 8, IF = 1u << 9, DF = 1u << 10, OF = 1u << 11, IOPL = 3u << 12, NT = 1u << 14,
                   RF = 1u << 16, VM = 1u << 17, AC = 1u << 18, VIF = 1u << 19, VIP = 1u << 20, ID = 1u << 21;
}  // namespace rflags

// The bits the sysflags register holds (RF and VM are not among them:
// pushf clears both in its image, popf clears RF and leaves VM alone, and
// VM is 0 in 64-bit mode).
constexpr uint64_t kSystemFlags = rflags::TF | rflags::IF | rflags::IOPL | rflags::NT | rflags::AC | rflags::VIF |
                                  rflags::VIP | rflags::ID;
// What popf may change at CPL 0 (SDM POPF: every non-reserved flag but RF,
// VIP, VIF and VM).
constexpr uint64_t kPopfWritable = rflags::TF | rflags::IF | rflags::IOPL | rflags::NT | rflags::AC | rflags::ID;

}  // namespace patchcheck::x86_64
