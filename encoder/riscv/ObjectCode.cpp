// The RISC-V plug-in's part of `patchcheck scan` (encoder/ObjectCode.h).
// Facts and their sources: docs/encoder-riscv.md, "Reading objects".
#include "encoder/riscv/ObjectCode.h"

#include <cstdio>
#include <map>

#include "encoder/riscv/Decoder.h"
#include "encoder/riscv/Plugin.h"
#include "encoder/riscv/Printer.h"

namespace patchcheck::riscv {
namespace {

// RISC-V ELF psABI, "Relocations" (the numbered table).
constexpr uint32_t k32 = 1, k64 = 2, kBranch = 16, kJal = 17, kCall = 18, kCallPlt = 19, kPcrelHi20 = 23,
                   kPcrelLo12I = 24, kPcrelLo12S = 25, kHi20 = 26, kLo12I = 27, kLo12S = 28, kAlign = 43,
                   kRvcBranch = 44, kRvcJump = 45, kRelax = 51;
// e_flags (psABI, "File Header").
constexpr uint32_t kEfRvc = 0x1, kEfRve = 0x8;

struct Known {
  std::string_view name, kind;  // the ELF name, the plug-in's Relocation::kind ("" for none)
};

const std::map<uint32_t, Known>& relocations() {
  static const std::map<uint32_t, Known> m = {
      {0, {"R_RISCV_NONE", ""}},
      {k32, {"R_RISCV_32", "abs"}},
      {k64, {"R_RISCV_64", "abs64"}},
      {kBranch, {"R_RISCV_BRANCH", "branch"}},
      {kJal, {"R_RISCV_JAL", "jal"}},
      {kCall, {"R_RISCV_CALL", "call"}},
      {kCallPlt, {"R_RISCV_CALL_PLT", "call"}},
      {20, {"R_RISCV_GOT_HI20", ""}},
      {kPcrelHi20, {"R_RISCV_PCREL_HI20", "pcrel_hi20"}},
      {kPcrelLo12I, {"R_RISCV_PCREL_LO12_I", "pcrel_lo12_i"}},
      {kPcrelLo12S, {"R_RISCV_PCREL_LO12_S", "pcrel_lo12_s"}},
      {kHi20, {"R_RISCV_HI20", "hi20"}},
      {kLo12I, {"R_RISCV_LO12_I", "lo12_i"}},
      {kLo12S, {"R_RISCV_LO12_S", "lo12_s"}},
      {35, {"R_RISCV_ADD32", ""}},
      {36, {"R_RISCV_ADD64", ""}},
      {39, {"R_RISCV_SUB32", ""}},
      {40, {"R_RISCV_SUB64", ""}},
      {kAlign, {"R_RISCV_ALIGN", ""}},
      {kRvcBranch, {"R_RISCV_RVC_BRANCH", "rvc_branch"}},
      {kRvcJump, {"R_RISCV_RVC_JUMP", "rvc_jump"}},
      {kRelax, {"R_RISCV_RELAX", ""}},
      {57, {"R_RISCV_32_PCREL", ""}},
  };
  return m;
}

bool isCall(uint32_t type) { return type == kCall || type == kCallPlt; }

uint32_t bitsOf(std::span<const uint8_t> b) {  // little-endian parcels (Unprivileged ISA 1.5)
  uint32_t w = 0;
  for (size_t k = 0; k < b.size() && k < 4; ++k) w |= uint32_t(b[k]) << (8 * k);
  return w;
}

class RiscvObjectCode final : public patchcheck::ObjectCode {
 public:
  std::string_view family() const override { return "riscv"; }
  uint16_t elfMachine() const override { return 243; }  // EM_RISCV

  std::string relocationName(uint32_t type) const override {
    auto it = relocations().find(type);
    return it != relocations().end() ? std::string(it->second.name) : "R_RISCV_" + std::to_string(type);
  }

  // arch/riscv/kernel/ftrace.c, ftrace_call_adjust (v6.16): the build
  // records the first patchable byte; with CALL_OPS that is the 8-byte
  // literal before the function, so rec->ip = addr + 8 + MCOUNT_AUIPC_SIZE
  // (4), the jalr slot after the auipc at F; without, addr + 4.
  std::optional<uint64_t> ftraceCallAdjust(uint64_t recorded, unsigned beforeBytes, const CodeAt&) const override {
    if (beforeBytes == 8) return recorded + 8 + 4;
    if (beforeBytes == 0) return recorded + 4;
    return std::nullopt;  // no RISC-V layout has other data before F
  }

  // RISC-V kernels record their sites with -fpatchable-function-entry
  // (__patchable_function_entries); recordmcount has no EM_RISCV case.
  std::optional<uint64_t> mcountRecord(const ObjectRelocation&, uint64_t) const override { return std::nullopt; }

  std::optional<std::string> fieldProblem(const Unit&, const Relocation& field, const ObjectRelocation& r,
                                          std::span<const uint8_t>, const patchcheck::Target&) const override {
    auto it = relocations().find(r.type);
    if (it == relocations().end() || it->second.kind.empty() || it->second.kind != field.kind)
      return relocationName(r.type) + " does not form the spec's " + field.kind + " field";
    if (!r.rela) return "a REL relocation (RISC-V objects use RELA)";
    // The PCREL_LO12 pair's symbol is the auipc's label, never the
    // target: the caller compares symbols, so it only gets here when the
    // spec names that label; its addend must be 0 (psABI).
    if (r.addend != field.value.addend)
      return "addend " + std::to_string(r.addend) + ", the spec's is " + std::to_string(field.value.addend);
    return std::nullopt;
  }

  // jal, the conditional branches, c.j, c.jal (RV32), c.beqz and c.bnez
  // take pc-relative offsets (the decoder's imm); an auipc carrying
  // R_RISCV_CALL/CALL_PLT is the first half of a call whose target is the
  // relocation's. In an object the field holds nothing yet: S + A.
  std::optional<BranchTarget> branchTarget(std::span<const uint8_t> insn, uint64_t address, const ObjectRelocation* r,
                                           const patchcheck::Target& t) const override {
    if (insn.size() < 2) return std::nullopt;
    Decoded d = decode(insn, xlenOf(t), rvcOf(t), fdOf(t));
    if (!d.row || d.length != insn.size()) return std::nullopt;
    bool relocated = r && r->rela && r->at == 0;
    if (d.op == Op::Auipc && relocated && isCall(r->type)) return BranchTarget{true, r->addend};
    bool jump = d.op == Op::Jal, branch = d.op >= Op::Beq && d.op <= Op::Bgeu;
    if (!jump && !branch) return std::nullopt;
    if (relocated) {
      uint32_t want = d.length == 2 ? (jump ? kRvcJump : kRvcBranch) : (jump ? kJal : kBranch);
      if (r->type == want) return BranchTarget{true, r->addend};
    }
    return BranchTarget{false, int64_t(address + uint64_t(d.imm))};
  }

  // An instruction without a relocation is `.2byte`/`.4byte` (the parcels
  // as they lie); jal and the branches get the symbol as their target,
  // lui its %hi, auipc its %pcrel_hi. A %lo or %pcrel_lo user, and a call
  // (whose field spans two instructions), are not read back.
  SourceLine sourceLine(std::span<const CodeLine> code, size_t index, const patchcheck::Target& t) const override {
    const CodeLine& line = code[index];
    if (line.bytes.size() != 2 && line.bytes.size() != 4) return {"", "not a 2- or 4-byte instruction"};
    uint32_t bits = bitsOf(line.bytes);
    char raw[32];
    std::snprintf(raw, sizeof raw, line.bytes.size() == 2 ? ".2byte 0x%04x" : ".4byte 0x%08x", unsigned(bits));
    // An encoding the target does not have (F and D on a variant without
    // them; V and the other extensions on any) would run as an illegal
    // instruction in the model: refused by name, never proven. F and D
    // instructions on a variant with them decode; the model runs them as
    // kernel code does (docs/model-riscv.md, "Floating point").
    if (!decode(line.bytes, xlenOf(t), rvcOf(t), fdOf(t)).row)
      return {"", "the " + std::to_string(line.bytes.size()) + "-byte encoding " + std::string(raw + 7) +
                      " is no instruction of target " + std::string(t.variantName()) +
                      (fdOf(t) ? "" : " (F and D need a variant with them, such as rv64imafdc)")};
    if (!line.relocation) return {raw, ""};
    const ObjectRelocation& r = *line.relocation;
    if (!r.rela) return {"", "a REL relocation (RISC-V objects use RELA)"};
    std::string expr = symbolPlus(r.symbol, r.addend);
    SplitLine insn = splitLine(disassemble(bits, line.offset, xlenOf(t), rvcOf(t), Spelling::Aliases, fdOf(t)));
    size_t comma = insn.operands.rfind(',');
    std::string head = comma == std::string::npos ? "" : insn.operands.substr(0, comma + 1);
    switch (r.type) {
      case kJal: case kBranch: case kRvcJump: case kRvcBranch: return {insn.mnemonic + " " + head + expr, ""};
      case kHi20: return {insn.mnemonic + " " + head + "%hi(" + expr + ")", ""};
      case kPcrelHi20: return {insn.mnemonic + " " + head + "%pcrel_hi(" + expr + ")", ""};
      default: break;
    }
    return {"", relocationName(r.type) + " is not read back into an instruction yet"};
  }

  // Linker relaxation (psABI "Code relaxation"; binutils
  // bfd/elfnn-riscv.c): R_RISCV_ALIGN's addend is the padding at
  // r_offset, which the linker shrinks so that the byte after it lies on
  // the smallest power of two above the addend (_bfd_riscv_relax_align);
  // it does so under --no-relax too (GNU ld 2.40, docs/encoder-riscv.md).
  // R_RISCV_RELAX lets it shorten or drop the instruction(s) of the
  // relocation before it: the auipc + jalr of a call (8 bytes), else one
  // instruction (4).
  std::optional<LinkerEdit> linkerEdit(const ObjectRelocation& r, const ObjectRelocation* paired) const override {
    if (r.type == kAlign) {
      // A padding no assembler writes (negative, or more than 64 KiB):
      // it aligns nothing, so nothing after it is taken as aligned.
      if (r.addend < 0 || r.addend > 0xffff) return LinkerEdit{0, 0};
      uint64_t align = 1;
      while (align <= uint64_t(r.addend)) align *= 2;
      return LinkerEdit{unsigned(r.addend), align};
    }
    if (r.type == kRelax) return LinkerEdit{paired && !isCall(paired->type) ? 4u : 8u, 0};
    return std::nullopt;
  }

  // EF_RISCV_RVC: the object may hold 2-byte instructions anywhere, which
  // a target without C would read as 4-byte ones. RVE objects use 16
  // registers, which no target here models. The class says RV32 or RV64.
  std::optional<std::string> targetProblem(uint32_t eFlags, bool elf64, const patchcheck::Target& t) const override {
    if (t.endian != Endian::Little) return "a big-endian RISC-V object (RISC-V is little-endian, psABI \"File Header\")";
    if (eFlags & kEfRve) return "e_flags has EF_RISCV_RVE (the E base ISA), which no riscv target reads";
    if ((xlenOf(t) == 64) != elf64)
      return std::string(elf64 ? "an ELFCLASS64 (RV64)" : "an ELFCLASS32 (RV32)") + " object read by target " +
             std::string(t.variantName());
    if ((eFlags & kEfRvc) && !rvcOf(t))
      return "e_flags has EF_RISCV_RVC (compressed instructions) but target " + std::string(t.variantName()) +
             " has no C extension";
    return std::nullopt;
  }
};

}  // namespace

const patchcheck::ObjectCode& objectCode() {
  static const RiscvObjectCode code;
  return code;
}

}  // namespace patchcheck::riscv
