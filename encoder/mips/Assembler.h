#pragma once
// GNU-syntax MIPS assembler under `.set noreorder` and `.set noat`: never
// reorders, never fills a delay slot, never turns one line into several
// words. Symbols are concrete addresses or symbolic (kept for Z3).
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>

#include "encoder/mips/Assembly.h"
#include "encoder/mips/Target.h"

namespace patchcheck::mips {

struct AssemblyOptions {
  Target target;
  Value base = Value::constant(0);            // address of the first word
  std::map<std::string, uint64_t> symbols;    // concrete addresses
  std::set<std::string> symbolic;             // symbols without a fixed address
  // Accept encodings the architecture calls UNPREDICTABLE (jalr rd == rs, a
  // control transfer in a delay or forbidden slot) so a spec can describe
  // them and the checker can show their consequences.
  bool allowUnpredictable = false;
  // `lui rt, %hi(x)` on a 64-bit ISA must name a sign-extended 32-bit x:
  // lui + (d)addiu form no other address (FACTS.md; a kernel in XKPHYS is
  // out of their reach). Specs and trampolines ask for it; GNU as does not.
  bool requireLuiReach = false;
};

std::variant<Assembly, Diagnostics> assemble(std::string_view source,
                                             const std::string& file,
                                             const AssemblyOptions&);

// Every word as a number; an error for a word that depends on a symbol.
std::variant<std::vector<uint32_t>, Diagnostics> concreteWords(const Assembly&);

}  // namespace patchcheck::mips
