#pragma once
// An assembler value: symbol + addend, where the symbol's address may not
// be known (symbolic); an empty symbol means a constant.
#include <cstdint>
#include <string>

namespace patchcheck {

struct Value {
  std::string symbol;
  int64_t addend = 0;

  bool isConstant() const { return symbol.empty(); }
  static Value constant(int64_t v) { return {{}, v}; }
  Value plus(int64_t d) const { return {symbol, int64_t(uint64_t(addend) + uint64_t(d))}; }
  bool operator==(const Value&) const = default;
  std::string str() const;  // "F+0x8", "0x80001000"
};

}  // namespace patchcheck
