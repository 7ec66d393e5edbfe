#include "encoder/arm64/Cmodx.h"

#include <array>

#include "encoder/arm64/Decoder.h"

namespace patchcheck::arm64 {

namespace {

// DDI 0487 B2.2.5 "Concurrent modification and execution of instructions".
// Issue A.a (B2.6.5 there) named B, BL, NOP, BRK, SVC, HVC, SMC; later
// issues added B.cond, CBZ/CBNZ, TBZ/TBNZ and ISB (13 entries), and the
// current issue CB<cc>, CBB<cc>, CBH<cc> (FEAT_CMPBR), TRCIT and UDF. Entries
// without an `op` have no row in this encoder: their words decode to no
// instruction and so are never listed.
constexpr std::array<CmodxEntry, 18> kList{{
    {"B", Op::B, std::nullopt, false},
    {"B.cond", Op::BCond, std::nullopt, true},
    {"BL", Op::Bl, std::nullopt, false},
    {"BRK", Op::Brk, std::nullopt, false},
    {"CBNZ", Op::Cbnz, std::nullopt, true},
    {"CBZ", Op::Cbz, std::nullopt, true},
    {"HVC", Op::Hvc, std::nullopt, false},
    {"ISB", Op::Isb, std::nullopt, false},
    {"NOP", Op::Hint, 0xd503201fu, false},  // NOP only: BTI, PACIASP and the other hints are not on it
    {"SMC", std::nullopt, std::nullopt, false},
    {"SVC", Op::Svc, std::nullopt, false},
    {"TBNZ", Op::Tbnz, std::nullopt, true},
    {"TBZ", Op::Tbz, std::nullopt, true},
    {"CB<cc>", std::nullopt, std::nullopt, true},
    {"CBB<cc>", std::nullopt, std::nullopt, true},
    {"CBH<cc>", std::nullopt, std::nullopt, true},
    {"TRCIT", std::nullopt, std::nullopt, false},
    {"UDF", Op::Udf, std::nullopt, false},
}};

const CmodxEntry* entryOf(uint32_t word) {
  const InstrDesc* d = decode(word);
  if (!d) return nullptr;
  for (const CmodxEntry& e : kList)
    if (e.op == d->op && (!e.word || *e.word == word)) return &e;
  return nullptr;
}

// The kind a mix keeps: CBZ and CBNZ (and TBZ and TBNZ) differ only in
// their sense bit, part of the condition.
int mixKind(Op op) {
  switch (op) {
    case Op::BCond: return 1;
    case Op::Cbz: case Op::Cbnz: return 2;
    case Op::Tbz: case Op::Tbnz: return 3;
    default: return 0;
  }
}

}  // namespace

std::string_view cmodxRevision() { return "Arm ARM DDI 0487 L.a, B2.2.5"; }

std::span<const CmodxEntry> cmodxList() { return kList; }

std::string cmodxListText() {
  std::string s;
  for (const CmodxEntry& e : kList) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s + " (" + std::string(cmodxRevision()) + ")";
}

bool cmodxListed(uint32_t word) { return entryOf(word) != nullptr; }

bool cmodxMixes(uint32_t word) {
  const CmodxEntry* e = entryOf(word);
  return e && e->mixes;
}

std::optional<uint64_t> cmodxTargetField(uint32_t a, uint32_t b) {
  if (!cmodxMixes(a) || !cmodxMixes(b)) return std::nullopt;
  int k = mixKind(decode(a)->op);
  if (k == 0 || k != mixKind(decode(b)->op)) return std::nullopt;
  return k == 3 ? 0x0007ffe0u : 0x00ffffe0u;  // imm14 bits 18-5; imm19 bits 23-5
}

}  // namespace patchcheck::arm64
