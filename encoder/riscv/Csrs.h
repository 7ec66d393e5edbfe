#pragma once
// CSR names (RISC-V Privileged ISA, chapter 2) both ways.
#include <optional>
#include <string_view>

namespace patchcheck::riscv {

std::optional<std::string_view> csrName(unsigned number);
std::optional<unsigned> csrNumber(std::string_view name);

}  // namespace patchcheck::riscv
