// The AArch64 plug-in's part of `patchcheck scan` (encoder/ObjectCode.h).
#include "encoder/arm64/ObjectCode.h"

#include <cstdio>
#include <map>

#include "encoder/arm64/Printer.h"

namespace patchcheck::arm64 {
namespace {

// ELF for the Arm 64-bit Architecture (AAELF64), "Relocation types".
constexpr uint32_t kAbs64 = 257, kAbs32 = 258, kAdrPrelPgHi21 = 275, kAddAbsLo12Nc = 277, kTstBr14 = 279,
                   kCondBr19 = 280, kJump26 = 282, kCall26 = 283, kLdst64AbsLo12Nc = 286;

const std::map<uint32_t, std::pair<std::string_view, std::string_view>>& relocations() {
  // type -> (ELF name, the plug-in's Relocation::kind)
  static const std::map<uint32_t, std::pair<std::string_view, std::string_view>> m = {
      {kAbs64, {"R_AARCH64_ABS64", "abs64"}},
      {kAbs32, {"R_AARCH64_ABS32", "abs32"}},
      {kAdrPrelPgHi21, {"R_AARCH64_ADR_PREL_PG_HI21", "adr_prel_pg_hi21"}},
      {kAddAbsLo12Nc, {"R_AARCH64_ADD_ABS_LO12_NC", "add_abs_lo12_nc"}},
      {kTstBr14, {"R_AARCH64_TSTBR14", "tstbr14"}},
      {kCondBr19, {"R_AARCH64_CONDBR19", "condbr19"}},
      {kJump26, {"R_AARCH64_JUMP26", "jump26"}},
      {kCall26, {"R_AARCH64_CALL26", "call26"}},
      {kLdst64AbsLo12Nc, {"R_AARCH64_LDST64_ABS_LO12_NC", "ldst64_abs_lo12_nc"}},
  };
  return m;
}

uint32_t wordOf(std::span<const uint8_t> b) {  // A64 instructions are little-endian in memory
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

int64_t signExtend(uint64_t v, unsigned bits) { return int64_t(v << (64 - bits)) >> (64 - bits); }

// BTI {c, j, jc} and plain BTI: HINT #32, #34, #36, #38 (Arm ARM C6.2.39).
bool isBti(uint32_t w) { return (w & 0xffffff3f) == 0xd503241f; }

class Arm64ObjectCode final : public patchcheck::ObjectCode {
 public:
  std::string_view family() const override { return "arm64"; }
  uint16_t elfMachine() const override { return 183; }  // EM_AARCH64

  std::string relocationName(uint32_t type) const override {
    auto it = relocations().find(type);
    return it != relocations().end() ? std::string(it->second.first) : "R_AARCH64_" + std::to_string(type);
  }

  // arch/arm64/kernel/ftrace.c, ftrace_call_adjust (Linux 6.3 and later,
  // with DYNAMIC_FTRACE_WITH_ARGS): with CALL_OPS the entry is the first of
  // the two NOPs before the function, so skip them and a BTI at the entry
  // if there is one; then skip the NOP that becomes MOV X9, X30. rec->ip
  // is the NOP that becomes BL.
  std::optional<uint64_t> ftraceCallAdjust(uint64_t recorded, unsigned beforeBytes,
                                           const CodeAt& code) const override {
    uint64_t addr = recorded;
    if (beforeBytes) {
      addr += beforeBytes;
      auto w = code(addr, 4);
      if (!w) return std::nullopt;
      if (isBti(wordOf(*w))) addr += 4;
    }
    return addr + 4;
  }

  // -pg without patchable entries: `bl _mcount`, recorded where it is
  // (scripts/recordmcount.c, EM_AARCH64: R_AARCH64_CALL26).
  std::optional<uint64_t> mcountRecord(const ObjectRelocation& r, uint64_t offset) const override {
    if (r.type == kCall26 && r.symbol == "_mcount") return offset;
    return std::nullopt;
  }

  std::optional<std::string> fieldProblem(const Unit&, const Relocation& field, const ObjectRelocation& r,
                                          std::span<const uint8_t>, const patchcheck::Target&) const override {
    auto it = relocations().find(r.type);
    if (it == relocations().end() || it->second.second != field.kind)
      return relocationName(r.type) + " does not form the spec's " + field.kind + " field";
    // RELA throughout (AAELF64): the addend is the entry's; REL is not used.
    int64_t addend = r.rela ? r.addend : 0;
    if (addend != field.value.addend)
      return "addend " + std::to_string(addend) + ", the spec's is " + std::to_string(field.value.addend);
    return std::nullopt;
  }

  // B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ (Arm ARM C4.1.65, "Branches,
  // Exception Generating and System instructions"): pc-relative words.
  std::optional<BranchTarget> branchTarget(std::span<const uint8_t> insn, uint64_t address, const ObjectRelocation* r,
                                           const patchcheck::Target&) const override {
    if (insn.size() < 4) return std::nullopt;
    uint32_t w = wordOf(insn);
    int64_t offset;
    uint32_t kind;
    if ((w & 0x7c000000) == 0x14000000) offset = signExtend(w & 0x3ffffff, 26) * 4, kind = (w >> 31) ? kCall26 : kJump26;
    else if ((w & 0xff000010) == 0x54000000) offset = signExtend((w >> 5) & 0x7ffff, 19) * 4, kind = kCondBr19;
    else if ((w & 0x7e000000) == 0x34000000) offset = signExtend((w >> 5) & 0x7ffff, 19) * 4, kind = kCondBr19;
    else if ((w & 0x7e000000) == 0x36000000) offset = signExtend((w >> 5) & 0x3fff, 14) * 4, kind = kTstBr14;
    else return std::nullopt;
    if (r && (r->type == kind || (kind == kCall26 && r->type == kJump26) || (kind == kJump26 && r->type == kCall26)))
      return BranchTarget{true, r->addend};  // S + A; the field holds nothing yet
    return BranchTarget{false, int64_t(address + uint64_t(offset))};
  }

  // An instruction without a relocation is `.inst` (little-endian, as
  // every A64 instruction); B/BL, B.cond, CBZ/CBNZ, TBZ/TBNZ and ADRP get
  // the symbol as their last operand, ADD its `#:lo12:`, a 64-bit LDR or
  // STR its `#:lo12:` offset. RELA throughout (AAELF64).
  SourceLine sourceLine(std::span<const CodeLine> code, size_t index, const patchcheck::Target&) const override {
    const CodeLine& line = code[index];
    if (line.bytes.size() != 4) return {"", "not a 4-byte instruction"};
    uint32_t w = wordOf(line.bytes);
    char raw[24];
    std::snprintf(raw, sizeof raw, ".inst 0x%08x", unsigned(w));
    if (!line.relocation) return {raw, ""};
    const ObjectRelocation& r = *line.relocation;
    if (!r.rela) return {"", "a REL relocation (AAELF64 objects use RELA)"};
    std::string expr = symbolPlus(r.symbol, r.addend);
    SplitLine insn = splitLine(arm64::disassemble(w, line.offset));
    size_t comma = insn.operands.rfind(',');
    std::string head = comma == std::string::npos ? "" : insn.operands.substr(0, comma + 1) + " ";
    switch (r.type) {
      case kCall26: case kJump26: case kCondBr19: case kTstBr14: case kAdrPrelPgHi21:
        return {insn.mnemonic + " " + head + expr, ""};
      case kAddAbsLo12Nc: return {insn.mnemonic + " " + head + "#:lo12:" + expr, ""};
      case kLdst64AbsLo12Nc: {
        size_t open = insn.operands.find('['), close = insn.operands.find(']');
        if (open == std::string::npos || close == std::string::npos || close < open) break;
        std::string base = insn.operands.substr(open + 1, close - open - 1);
        base = base.substr(0, base.find(','));
        return {insn.mnemonic + " " + insn.operands.substr(0, open) + "[" + base + ", #:lo12:" + expr + "]" +
                    insn.operands.substr(close + 1),
                ""};
      }
      default: break;
    }
    return {"", relocationName(r.type) + " is not read back into an instruction yet"};
  }
};

}  // namespace

const patchcheck::ObjectCode& objectCode() {
  static const Arm64ObjectCode code;
  return code;
}

}  // namespace patchcheck::arm64
