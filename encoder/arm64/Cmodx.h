#pragma once
// The Arm ARM's list of instructions that may be concurrently modified and
// executed (CMODX, DDI 0487 B2.2.5), as data, with the revision it follows
// (docs/model.md "CMODX").
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "encoder/arm64/InstructionTable.h"

namespace patchcheck::arm64 {

struct CmodxEntry {
  std::string_view name;         // as the Arm ARM spells it
  std::optional<Op> op;          // the encoder's row kind; nullopt: no row decodes to it
  std::optional<uint32_t> word;  // only this encoding of `op` (NOP among the hints)
  bool mixes = false;            // a conditional branch: condition and target may come from either version
};

// The revision of the Arm ARM the list follows.
std::string_view cmodxRevision();
std::span<const CmodxEntry> cmodxList();
// The list's names and revision, for reports.
std::string cmodxListText();

// Is the instruction word on the list? An undecodable word is not.
bool cmodxListed(uint32_t word);
// Is it a conditional branch of the list (fields may mix)?
bool cmodxMixes(uint32_t word);
// The target field's bits when `a` and `b` are conditional branches of one
// kind (B.cond; CBZ/CBNZ; TBZ/TBNZ): their other fields line up bit for bit.
std::optional<uint64_t> cmodxTargetField(uint32_t a, uint32_t b);

}  // namespace patchcheck::arm64
