// The x86-64 plug-in's part of `patchcheck scan` (encoder/ObjectCode.h).
#include "encoder/x86_64/ObjectCode.h"

#include <Zydis/Zydis.h>

#include <map>

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
};

}  // namespace

const patchcheck::ObjectCode& objectCode() {
  static const X86ObjectCode code;
  return code;
}

}  // namespace patchcheck::x86_64
