#pragma once
// The directives of pass 1, from their arguments: data (.byte, .short/.word,
// .long, .quad: values resolved in pass 2; .fill and .skip: bytes known
// now), alignment (.p2align, .balign, .align) and the directives that emit
// nothing (.text, .globl, .type, ...). Arguments other than data values
// are numbers.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "encoder/x86_64/Operands.h"

namespace patchcheck::x86_64 {

struct DataDirective {
  std::string name;
  unsigned width = 0;            // bytes per value (1, 2, 4, 8); 0 for `literal`
  std::vector<Piece> values;     // .byte is one unit, the others one unit per value
  std::vector<uint8_t> literal;  // .fill, .skip: one unit of these bytes (none: no unit)
};

struct AlignDirective {
  uint64_t alignment = 1;       // bytes, a power of 2
  uint64_t maxSkip = 0;         // pad only when at most this many bytes are needed
  std::optional<uint8_t> fill;  // none: GNU as's nops
};

struct NoDirective {};  // emits nothing

struct DirectiveError {
  unsigned column;
  std::string message;
};

// `name` is lower case, with its dot; `column` is where it starts.
std::variant<DataDirective, AlignDirective, NoDirective, DirectiveError> parseDirective(const std::string& name,
                                                                                        Piece arguments,
                                                                                        unsigned column);

}  // namespace patchcheck::x86_64
