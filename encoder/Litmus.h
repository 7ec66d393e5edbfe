#pragma once
// What herd7's litmus format asks of an ISA plug-in (checker/litmus,
// docs/litmus.md). The architecture word of a test's header ("AArch64")
// selects the plug-in (IsaPlugin::litmusArchitecture); a plug-in that can
// run litmus tests answers IsaPlugin::litmus() with this dialect: how the
// test writes registers, which bare instruction names stand for their
// encoding, the target its code is assembled and run for, and the fetch
// model herd7's tests of that architecture assume.
#include <optional>
#include <string>
#include <string_view>

#include "encoder/Target.h"

namespace patchcheck {

// A register as a litmus test writes it.
struct LitmusRegister {
  std::string name;   // as herd7 prints it in a final state: "X1" (a W name is its X register)
  std::string model;  // the model's name for it (IsaModel::parseRegister): "x1"
};

class LitmusDialect {
 public:
  virtual ~LitmusDialect() = default;

  // The target a test's code is assembled and run for.
  virtual Target target() const = 0;
  // A register name as written after `0:` in the init block or the
  // condition ("X1", "w1"); nothing when it names no register a litmus
  // test may set or read.
  virtual std::optional<LitmusRegister> registerNamed(std::string_view written) const = 0;
  // Those names, for messages: "X0-X30 or W0-W30".
  virtual std::string_view registerSyntax() const = 0;
  // An instruction herd7 lets a value name bare, as its encoding
  // (`0:X0=NOP`); any other instruction is written instr:"...".
  virtual bool bareInstruction(std::string_view word) const = 0;
  // The fetch model herd7's instruction-fetch tests of this architecture
  // assume, by name ("arm": the CMODX rules with CacheType's DIC and IDC).
  virtual std::string_view fetchModel() const = 0;

 protected:
  LitmusDialect() = default;
};

}  // namespace patchcheck
