#pragma once
// A herd7 litmus test as written (docs/litmus.md): the init block,
// one program per thread (with its labels), and the final condition. The
// parser (LitmusParser.h) checks the syntax; what the model covers is the
// runner's question (LitmusRun.h), which refuses the rest by name.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "encoder/Litmus.h"

namespace patchcheck::litmus {

struct Position {
  unsigned line = 0, column = 0;  // 1-based, in the test file
};

// An initial value: a number, a data location's address ("x"), a code
// label's address ("P1:L0"), or an instruction's encoding ("NOP",
// instr:"B .+12": assembled at the address of the location it is stored to).
struct InitValue {
  enum class Kind { Number, Location, Label, Instruction };
  Kind kind = Kind::Number;
  uint64_t number = 0;
  std::string text;   // location name, "P1:L0" (thread:label), or the instruction's assembly
  Position at;
};

// `0:X1=...` (thread register) or `x=...` (data location, also `int x=...`;
// `[x]` and `*x` are spelled the same).
struct InitEntry {
  std::optional<unsigned> thread;  // set for a register
  std::string name;                // "X1" (upper case, W names as X), or the location
  std::string type;                // a C type before the name ("int", "ins_t *", "void *"); empty: none
  InitValue value;                 // a declaration without '=' (`void *1:X1;`) holds the number 0
  Position at;
};

struct Instruction {
  std::string text;                 // as written, e.g. "STR W0,[X1]"; empty: no instruction
  std::vector<std::string> labels;  // labels on this line ("L0:" before it), in order
  Position at;
};

struct Thread {
  std::string name;                  // "P0", or "P0.F" for a fault handler
  unsigned number = 0;               // the N of PN
  bool faultHandler = false;         // "P0.F"
  std::vector<Instruction> code;     // in program order; a trailing label-only line is kept
  Position at;
};

// A proposition over final registers and locations.
struct Prop {
  enum class Kind { True, False, Eq, Not, And, Or, Implies, Fault };
  Kind kind = Kind::True;
  // Eq: a register `1:X9` (thread + name) or a location `x` against a value.
  // Fault: `fault(P0:L0,UndefinedInstruction)`: the thread, name the label
  // (empty when none), value.text the arguments after the first as written.
  std::optional<unsigned> thread;
  std::string name;
  InitValue value;
  std::vector<std::shared_ptr<Prop>> args;  // Not: 1, And/Or/Implies: 2 or more
  Position at;
};

struct Condition {
  enum class Quantifier { Exists, NotExists, Forall };
  Quantifier quantifier = Quantifier::Exists;
  std::shared_ptr<Prop> prop;
  Position at;
};

struct Test {
  std::string arch;     // the header's architecture word: "AArch64"
  const LitmusDialect* dialect = nullptr;  // its plug-in's (encoder/Litmus.h); set whenever a test is parsed
  std::string name;     // as in the header
  std::map<std::string, std::string> meta;  // "CacheType" -> "IDC", "Variant" -> "self", ...
  std::map<std::string, Position> metaAt;   // where each meta line is
  std::vector<InitEntry> init;
  std::vector<Thread> threads;
  std::vector<std::string> locations;  // `locations [0:X9; x;]`, as written
  std::optional<Condition> condition;
  std::string file;     // for messages
};

}  // namespace patchcheck::litmus
