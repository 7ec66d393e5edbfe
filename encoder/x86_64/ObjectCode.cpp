// The x86-64 plug-in's part of `patchcheck scan` (encoder/ObjectCode.h).
#include "encoder/x86_64/ObjectCode.h"

#include <Zydis/Zydis.h>

#include <cctype>
#include <cstdio>
#include <map>
#include <vector>

#include "encoder/x86_64/Printer.h"

namespace patchcheck::x86_64 {
namespace {

// System V ABI AMD64 supplement, "Relocation Types".
constexpr uint32_t kR64 = 1, kPc32 = 2, kPlt32 = 4, kR32 = 10, kR32S = 11;

const std::map<uint32_t, std::pair<std::string_view, std::string_view>>& relocations() {
  // type -> (ELF name, the plug-in's Relocation::kind)
  static const std::map<uint32_t, std::pair<std::string_view, std::string_view>> m = {
      {kR64, {"R_X86_64_64", "abs64"}},     {kPc32, {"R_X86_64_PC32", "pc32"}}, {kPlt32, {"R_X86_64_PLT32", "pc32"}},
      {kR32, {"R_X86_64_32", "abs32"}},     {kR32S, {"R_X86_64_32S", "abs32s"}},
  };
  return m;
}

class X86ObjectCode final : public patchcheck::ObjectCode {
 public:
  std::string_view family() const override { return "x86_64"; }
  uint16_t elfMachine() const override { return 62; }  // EM_X86_64

  std::string relocationName(uint32_t type) const override {
    auto it = relocations().find(type);
    return it != relocations().end() ? std::string(it->second.first) : "R_X86_64_" + std::to_string(type);
  }

  // arch/x86/include/asm/ftrace.h: ftrace_call_adjust returns the address;
  // the compiler (-mrecord-mcount) or objtool --mcount records the call.
  std::optional<uint64_t> ftraceCallAdjust(uint64_t recorded, unsigned, const CodeAt&) const override {
    return recorded;
  }

  // scripts/recordmcount.c for EM_X86_64: the relocation of `call
  // __fentry__` (or mcount) lies one byte into the call, which is recorded
  // (mcount_adjust_64 = -1).
  std::optional<uint64_t> mcountRecord(const ObjectRelocation& r, uint64_t offset) const override {
    bool call = r.type == kPc32 || r.type == kPlt32;
    if (call && offset > 0 && (r.symbol == "__fentry__" || r.symbol == "mcount")) return offset - 1;
    return std::nullopt;
  }

  // A pc-relative field counts from the instruction's end, where the spec's
  // Relocation puts it; ELF's from the field: S + A - P_field is S + a -
  // P_end when a = A + (P_end - P_field).
  std::optional<std::string> fieldProblem(const Unit& u, const Relocation& field, const ObjectRelocation& r,
                                          std::span<const uint8_t>, const patchcheck::Target&) const override {
    auto it = relocations().find(r.type);
    if (it == relocations().end() || it->second.second != field.kind)
      return relocationName(r.type) + " does not form the spec's " + field.kind + " field";
    int64_t addend = r.addend;
    if (field.kind == "pc32") addend += int64_t(u.bytes) - int64_t(r.at);
    if (addend != field.value.addend)
      return "addend " + std::to_string(addend) + ", the spec's is " + std::to_string(field.value.addend);
    return std::nullopt;
  }

  // jmp, jcc, call, loop, jrcxz with a relative immediate (Intel SDM
  // Vol. 2, "JMP", "Jcc", "CALL"): the target counts from the next instruction.
  std::optional<BranchTarget> branchTarget(std::span<const uint8_t> insn, uint64_t address, const ObjectRelocation* r,
                                           const patchcheck::Target&) const override {
    ZydisDecoder decoder;
    ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisDecodedInstruction d;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, insn.data(), insn.size(), &d, ops))) return std::nullopt;
    for (unsigned k = 0; k < d.operand_count_visible; ++k) {
      const ZydisDecodedOperand& op = ops[k];
      if (op.type != ZYDIS_OPERAND_TYPE_IMMEDIATE || !op.imm.is_relative) continue;
      unsigned at = d.raw.imm[0].offset;
      if (r && r->at == at) return BranchTarget{true, r->addend + int64_t(d.length) - int64_t(at)};
      return BranchTarget{false, int64_t(address + d.length + uint64_t(op.imm.value.s))};
    }
    return std::nullopt;
  }

  // An instruction without a relocation is `.byte` of its bytes; one with
  // a 32-bit field is printed with a sentinel in the field, and the
  // sentinel (a displacement, an immediate, or the branch target it makes)
  // is replaced by the symbol: S + A - P_field is E - P_end for E = S + A
  // + (length - field offset), the expression the assembler writes as
  // `E(%rip)` or a branch target; an absolute field is S + A.
  SourceLine sourceLine(std::span<const CodeLine> code, size_t index, const patchcheck::Target&) const override {
    const CodeLine& line = code[index];
    std::string raw = ".byte ";
    for (size_t k = 0; k < line.bytes.size(); ++k) {
      char b[8];
      std::snprintf(b, sizeof b, "%s0x%02x", k ? "," : "", unsigned(line.bytes[k]));
      raw += b;
    }
    if (!line.relocation) return {raw, ""};
    const ObjectRelocation& r = *line.relocation;
    bool pc = r.type == kPc32 || r.type == kPlt32;
    if (!pc && r.type != kR32 && r.type != kR32S) return {"", relocationName(r.type) + " is not read back into an instruction yet"};
    size_t n = line.bytes.size();
    if (r.at + 4 > n) return {"", "the relocation's field runs past the instruction"};
    constexpr uint32_t kSentinel = 0x11223344;
    constexpr uint64_t kAt = 0x40000000;
    std::vector<uint8_t> b(line.bytes.begin(), line.bytes.end());
    for (unsigned k = 0; k < 4; ++k) b[r.at + k] = uint8_t(kSentinel >> (8 * k));
    std::string text = x86_64::disassemble(b, kAt);
    std::string expr = symbolPlus(r.symbol, r.addend + (pc ? int64_t(n) - int64_t(r.at) : 0));
    char target[24], field[24];
    std::snprintf(target, sizeof target, "%llx", (unsigned long long)(kAt + n + kSentinel));
    std::snprintf(field, sizeof field, "0x%x", unsigned(kSentinel));
    for (const std::string& printed : {std::string("0x") + target, std::string(target), std::string(field)}) {
      size_t at = text.find(printed);
      if (at == std::string::npos) continue;
      // A branch target is a whole operand: not part of a longer number.
      bool whole = at + printed.size() == text.size() || !std::isxdigit((unsigned char)text[at + printed.size()]);
      if (whole) return {text.substr(0, at) + expr + text.substr(at + printed.size()), ""};
    }
    return {"", "the field of `" + text + "` is not an operand patchcheck can write as a symbol"};
  }
};

}  // namespace

const patchcheck::ObjectCode& objectCode() {
  static const X86ObjectCode code;
  return code;
}

}  // namespace patchcheck::x86_64
