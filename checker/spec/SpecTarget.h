#pragma once
// What a spec means for one target: the options its words are assembled
// with, the words of each state, and the checks that depend on the target
// (register names per ABI, 32-bit addresses, encodings per ISA). parseSpec
// runs these checks for the spec's default target and every matrix entry;
// a target chosen on the command line goes through checkSpecForTarget too
// (TargetOptions::forSpec).
#include <variant>
#include <vector>

#include "checker/spec/SiteLayout.h"
#include "checker/spec/Spec.h"
#include "encoder/Assembly.h"

namespace patchcheck {

// The default target, then each matrix entry (ISA/ABI) not already listed.
std::vector<Target> specTargets(const Spec&);

// The site region's bytes for this target: the data units before F, then
// the words from F (the plug-in's patch unit), then the body's.
SiteLayout siteLayout(const Spec&, const Target&);

// How to assemble starting at region unit `index` (Spec.h: data units
// before F first): base = F + that unit's offset, F and every other declared
// symbol symbolic, or concrete at its address for this target (addressFor),
// UNPREDICTABLE encodings accepted when the site says allow_unpredictable.
AssemblyOptions assemblyOptions(const Spec&, const Target&, unsigned index = 0);

// The site's memory in `state`: its units, then the body, assembled as one
// program with one line per word, so the delay-slot rules see neighbours.
// Exactly one Unit per entry, in order; each word's `where` and
// every error point into the spec.
std::variant<Program, Diagnostics> assembleState(const Spec&, const StateSpec&,
                                                        const Target&);

// A byte site's body on its own, after the site: its length in bytes.
std::variant<unsigned, Diagnostics> bodyLength(const Spec&, const Target&);

// One unit on its own at region unit `index` (the interim of `write I = "..."`).
std::variant<Unit, Diagnostics> assembleUnit(const Spec&, const UnitSpec&,
                                                            unsigned index, const Target&);

// Every error that depends on the target, the first of them what the
// loader decided by the spec's own ISA (words or bytes, fetch model, step
// verbs, int3_handler): the one validation of [target], a matrix entry and
// the command line's --isa/--abi alike.
Diagnostics checkSpecForTarget(const Spec&, const Target&);

}  // namespace patchcheck
