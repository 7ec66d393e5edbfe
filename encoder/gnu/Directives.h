#pragma once
// The directives every GNU as port shares: the data directives and their
// widths, and those that emit nothing patchcheck keeps (symbol attributes,
// the one section it assembles, call-frame notes). A plug-in adds its
// port's own (MIPS .set, .ent; arm64 .inst, .arch; x86 .p2align, .code64)
// and refuses the widths its units cannot hold.
#include <initializer_list>
#include <string_view>

namespace patchcheck::gnu {

// Bytes per value of data directive `name` (lower case, with its dot), 0
// when it is none. `.word` is the port's word: 4 bytes on MIPS and arm64,
// 2 on x86 (GNU as, "Machine Dependencies").
unsigned dataWidth(std::string_view name, unsigned wordBytes);

// Whether `name` emits nothing: one of the shared list or of `port`'s.
bool isIgnored(std::string_view name, std::initializer_list<std::string_view> port = {});

}  // namespace patchcheck::gnu
