// The MIPS plug-in's part of `patchcheck scan` (encoder/ObjectCode.h).
#include "encoder/mips/ObjectCode.h"

#include <cstdio>
#include <map>

#include "encoder/mips/Decoder.h"
#include "encoder/mips/InstructionTable.h"
#include "encoder/mips/Plugin.h"
#include "encoder/mips/Printer.h"

namespace patchcheck::mips {
namespace {

// System V ABI MIPS supplement, "Relocation Types".
constexpr uint32_t kR32 = 2, kR26 = 4, kHi16 = 5, kLo16 = 6, kPc16 = 10, kR64 = 18;

const std::map<uint32_t, std::pair<std::string_view, std::string_view>>& relocations() {
  // type -> (ELF name, the plug-in's Relocation::kind)
  static const std::map<uint32_t, std::pair<std::string_view, std::string_view>> m = {
      {kR32, {"R_MIPS_32", "abs"}},     {kR26, {"R_MIPS_26", "jump26"}}, {kHi16, {"R_MIPS_HI16", "hi"}},
      {kLo16, {"R_MIPS_LO16", "lo"}},   {kPc16, {"R_MIPS_PC16", "branch"}}, {kR64, {"R_MIPS_64", "abs"}},
  };
  return m;
}

uint32_t wordOf(std::span<const uint8_t> b, Endian e) {
  return e == Endian::Big ? uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3]
                          : uint32_t(b[3]) << 24 | uint32_t(b[2]) << 16 | uint32_t(b[1]) << 8 | b[0];
}

int64_t signExtend(uint64_t v, unsigned bits) { return int64_t(v << (64 - bits)) >> (64 - bits); }

class MipsObjectCode final : public patchcheck::ObjectCode {
 public:
  std::string_view family() const override { return "mips"; }
  uint16_t elfMachine() const override { return 8; }  // EM_MIPS

  // MIPS64 (the 64-bit ELF object file specification for MIPS): r_info is
  // r_sym (32 bits), r_ssym, r_type3, r_type2, r_type (8 bits each) in the
  // file's byte order, so its host value differs by byte order.
  std::pair<uint32_t, uint32_t> relocationInfo(uint64_t info, bool elf64, Endian e) const override {
    if (!elf64) return ObjectCode::relocationInfo(info, elf64, e);
    // A composed relocation (r_type2 or r_type3 not R_MIPS_NONE) is kept
    // as one type no table names (type | type2 << 8 | type3 << 16), so it
    // never passes for the plain field of its first type.
    if (e == Endian::Big)
      return {uint32_t(info >> 32), uint32_t(info & 0xff) | uint32_t((info >> 8) & 0xff) << 8 | uint32_t((info >> 16) & 0xff) << 16};
    return {uint32_t(info), uint32_t(info >> 56) | uint32_t((info >> 48) & 0xff) << 8 | uint32_t((info >> 40) & 0xff) << 16};
  }

  std::string relocationName(uint32_t type) const override {
    auto it = relocations().find(type);
    return it != relocations().end() ? std::string(it->second.first) : "R_MIPS_" + std::to_string(type);
  }

  // arch/mips/include/asm/ftrace.h: ftrace_call_adjust returns the address
  // unchanged; recordmcount records the patched word itself.
  std::optional<uint64_t> ftraceCallAdjust(uint64_t recorded, unsigned, const CodeAt&) const override {
    return recorded;
  }

  // scripts/recordmcount.c and recordmcount.h for EM_MIPS: a kernel site
  // is `jal _mcount` (R_MIPS_26), recorded at the jal; a -mlong-calls
  // (module) site is `lui v1, %hi(_mcount)` ... `jalr v1`, recorded at the
  // lui (R_MIPS_HI16); its R_MIPS_LO16 is the "fake mcount" recordmcount
  // skips.
  std::optional<uint64_t> mcountRecord(const ObjectRelocation& r, uint64_t offset) const override {
    if (r.symbol == "_mcount" && (r.type == kR26 || r.type == kHi16)) return offset;
    return std::nullopt;
  }

  std::optional<std::string> fieldProblem(const Unit&, const Relocation& field, const ObjectRelocation& r,
                                          std::span<const uint8_t> unitBytes, const patchcheck::Target& t) const override {
    auto it = relocations().find(r.type);
    if (it == relocations().end() || it->second.second != field.kind)
      return relocationName(r.type) + " does not form the spec's " + field.kind + " field";
    int64_t want = field.value.addend;
    if (r.rela) {
      if (r.addend != want) return "addend " + std::to_string(r.addend) + ", the spec's is " + std::to_string(want);
      return std::nullopt;
    }
    // REL (o32): the addend is in the field, as the linker reads it.
    if (unitBytes.size() < 4) return "the unit is not a word";
    uint32_t w = wordOf(unitBytes, t.endian);
    uint64_t have = 0, expect = 0;
    switch (r.type) {
      case kR26: have = (w & 0x3ffffff) << 2, expect = uint64_t(want) & 0x0ffffffc; break;
      case kHi16: have = w & 0xffff, expect = (uint64_t(want + 0x8000) >> 16) & 0xffff; break;
      case kLo16: case kPc16: have = w & 0xffff, expect = uint64_t(want) & 0xffff; break;
      default: return std::nullopt;  // a data word: the whole word is the addend
    }
    if (have != expect) return "field holds addend 0x" + hex(have) + ", the spec's needs 0x" + hex(expect);
    return std::nullopt;
  }

  // Branches (Br16, R6 Br21/Br26) count from the delay slot; j/jal
  // (Jump26) replace the low 28 bits of the delay slot's address (MIPS32
  // Architecture Vol. II, B, J, JAL).
  std::optional<BranchTarget> branchTarget(std::span<const uint8_t> insn, uint64_t address, const ObjectRelocation* r,
                                           const patchcheck::Target& t) const override {
    if (insn.size() < 4) return std::nullopt;
    uint32_t w = wordOf(insn, t.endian);
    const InstrDesc* d = decode(w, targetOf(t).isa);
    if (!d) return std::nullopt;
    for (Opnd o : d->operands) {
      switch (o) {
        case Opnd::Br16:
          if (r && r->type == kPc16) return BranchTarget{true, (r->rela ? r->addend : signExtend(w & 0xffff, 16) * 4) + 4};
          return BranchTarget{false, int64_t(address + 4 + uint64_t(signExtend(w & 0xffff, 16) * 4))};
        case Opnd::Br21: return BranchTarget{false, int64_t(address + 4 + uint64_t(signExtend(w & 0x1fffff, 21) * 4))};
        case Opnd::Br26: return BranchTarget{false, int64_t(address + 4 + uint64_t(signExtend(w & 0x3ffffff, 26) * 4))};
        case Opnd::Jump26:
          // In an object the field holds the addend to the relocation's
          // symbol (a section symbol for a local label).
          if (r && r->type == kR26) return BranchTarget{true, r->rela ? r->addend : int64_t(w & 0x3ffffff) * 4};
          return BranchTarget{false, int64_t(((address + 4) & ~uint64_t(0x0fffffff)) | uint64_t(w & 0x3ffffff) << 2)};
        default: break;
      }
    }
    return std::nullopt;
  }

  // A word without a relocation is `.word` in the target's byte order;
  // R_MIPS_26, HI16 and LO16 put the symbol back in the operand the
  // printer shows (the jump target, the lui's immediate, the immediate or
  // memory offset of the %lo user). Under REL (o32) the field holds the
  // addend: jump26 its bits 27:2, %hi its high half, which with the
  // sign-extended %lo field of the R_MIPS_LO16 after it against the same
  // symbol is the addend (AHL, MIPS ABI supplement "Relocation").
  SourceLine sourceLine(std::span<const CodeLine> code, size_t index, const patchcheck::Target& t) const override {
    const CodeLine& line = code[index];
    if (line.bytes.size() != 4) return {"", "not a 4-byte word"};
    uint32_t w = wordOf(line.bytes, t.endian);
    char raw[24];
    std::snprintf(raw, sizeof raw, ".word 0x%08x", unsigned(w));
    if (!line.relocation) return {raw, ""};
    const ObjectRelocation& r = *line.relocation;
    int64_t addend = r.addend;
    if (!r.rela) {
      if (r.type == kR26) addend = int64_t(w & 0x3ffffff) << 2;
      else if (r.type == kLo16) addend = signExtend(w & 0xffff, 16);
      else if (r.type == kHi16) {
        std::optional<int64_t> low;
        for (size_t k = index + 1; k < code.size() && !low; ++k)
          if (code[k].relocation && code[k].relocation->type == kLo16 && code[k].relocation->symbol == r.symbol)
            low = signExtend(wordOf(code[k].bytes, t.endian) & 0xffff, 16);
        if (!low) return {"", "R_MIPS_HI16 " + r.symbol + " has no R_MIPS_LO16 after it to complete its addend"};
        addend = (int64_t(w & 0xffff) << 16) + *low;
      }
    }
    std::string expr = symbolPlus(r.symbol, addend);
    SplitLine insn = splitLine(disassemble(w, line.offset, targetOf(t)));
    size_t comma = insn.operands.rfind(',');
    std::string head = comma == std::string::npos ? "" : insn.operands.substr(0, comma + 1);
    std::string last = comma == std::string::npos ? insn.operands : insn.operands.substr(comma + 1);
    switch (r.type) {
      case kR26: return {insn.mnemonic + " " + expr, ""};
      case kHi16: return {insn.mnemonic + " " + head + "%hi(" + expr + ")", ""};
      case kLo16:
        if (size_t paren = last.find('('); paren != std::string::npos)
          return {insn.mnemonic + " " + head + "%lo(" + expr + ")" + last.substr(paren), ""};
        return {insn.mnemonic + " " + head + "%lo(" + expr + ")", ""};
      default: return {"", relocationName(r.type) + " is not read back into an instruction yet"};
    }
  }

 private:
  static std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "%llx", (unsigned long long)v);
    return b;
  }
};

}  // namespace

const patchcheck::ObjectCode& objectCode() {
  static const MipsObjectCode code;
  return code;
}

}  // namespace patchcheck::mips
