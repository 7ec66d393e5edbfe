#include "encoder/Hex.h"

#include <cstdio>

namespace patchcheck {

std::string hex(uint64_t v) {
  char buf[24];  // "0x" + 16 digits + NUL
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

}  // namespace patchcheck
