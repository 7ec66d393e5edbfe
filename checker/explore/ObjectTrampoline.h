#pragma once
// A trampoline's code taken from a build (a [trampolines] `object`, or
// --trampoline-object OBJ:SYMBOL; docs/trampolines.md "From a build"):
// the symbol's bytes, cut into instructions and written back as assembly
// by the ISA plug-in (encoder/ObjectCode.h, sourceLine), so that the
// same loader and proof run on them as on a .S file. What the plug-in's
// assembler makes of that text is compared with the object, unit by
// unit (every fixed bit, and each relocation's type, symbol and addend),
// so the proof is about the object's bytes, not about the text.
#include <z3++.h>

#include <string>
#include <variant>
#include <vector>

#include "checker/spec/ObjectSymbol.h"
#include "checker/spec/Spec.h"
#include "encoder/Assembly.h"

namespace patchcheck {

struct ObjectTrampolineText {
  ObjectSymbolCode code;
  std::string label;    // the spec's name for the trampoline, at the first byte
  std::string file;     // "OBJ:SYMBOL": what the assembler's diagnostics name
  std::string text;     // "label:" and one line per instruction
  std::string sha256;   // of the symbol's bytes
  struct Line {
    uint64_t offset = 0;
    unsigned bytes = 0;
    std::optional<ObjectRelocation> relocation;  // `at` from the line's first byte
    std::string source;                          // the line as written
  };
  std::vector<Line> lines;
};

std::variant<ObjectTrampolineText, Diagnostics> objectTrampolineText(const Spec::TrampolineObject&,
                                                                    const std::string& label, const Target&);

// Every unit of `assembled` is the object's line: its offset and length,
// each fixed byte equal to the object's, a relocated field formed by a
// relocation of the same type against the same symbol with the same
// addend. Differences are errors naming the object's file offset.
Diagnostics compareWithObject(const ObjectTrampolineText&, const Program& assembled, const Target&, z3::context&);

// An assembler diagnostic of the generated text, told at the object's
// file offset of its line.
Diagnostic objectDiagnostic(const ObjectTrampolineText&, Diagnostic);

// The line's instruction as the plug-in prints it, and its relocation
// ("lui t1,0x0  R_MIPS_HI16 _stext"), for traces.
std::string objectLineText(const ObjectTrampolineText&, size_t line, const Target&);

}  // namespace patchcheck
