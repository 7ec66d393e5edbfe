#include "encoder/Value.h"

#include "encoder/Hex.h"

namespace patchcheck {

std::string Value::str() const {
  if (symbol.empty()) return hex(uint64_t(addend));
  if (addend == 0) return symbol;
  return addend < 0 ? symbol + "-" + hex(uint64_t(-addend)) : symbol + "+" + hex(uint64_t(addend));
}

}  // namespace patchcheck
