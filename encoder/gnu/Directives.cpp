#include "encoder/gnu/Directives.h"

namespace patchcheck::gnu {

unsigned dataWidth(std::string_view d, unsigned wordBytes) {
  if (d == ".word") return wordBytes;
  if (d == ".byte") return 1;
  if (d == ".short" || d == ".2byte") return 2;
  if (d == ".long" || d == ".int" || d == ".4byte") return 4;
  if (d == ".quad" || d == ".8byte") return 8;
  return 0;
}

bool isIgnored(std::string_view d, std::initializer_list<std::string_view> port) {
  static constexpr std::string_view shared[] = {".text",  ".globl",  ".global",        ".type",       ".size",
                                                ".local", ".hidden", ".cfi_startproc", ".cfi_endproc"};
  for (std::string_view s : shared)
    if (d == s) return true;
  for (std::string_view s : port)
    if (d == s) return true;
  return false;
}

}  // namespace patchcheck::gnu
