#include "encoder/x86_64/Encoder.h"

#include <cstring>

#include "encoder/Hex.h"
#include "encoder/x86_64/Registers.h"

namespace patchcheck::x86_64 {
namespace {

using K = OperandSyntax::Kind;

bool fitsSigned(int64_t v, unsigned bits) {
  return bits >= 64 || (v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1)));
}
bool fitsUnsigned(int64_t v, unsigned bits) { return bits >= 64 || (v >= 0 && v < (int64_t(1) << bits)); }
int64_t signExtend(int64_t v, unsigned bits) {
  if (bits >= 64) return v;
  uint64_t m = uint64_t(1) << (bits - 1), low = uint64_t(v) & ((m << 1) - 1);
  return int64_t((low ^ m) - m);
}

// A value written over what Zydis encoded, once its place is known: a field
// that depends on an address (full width, maybe symbolic), a displacement
// whose width a pseudo prefix chose, a branch offset, the imm64 of movabs.
struct Patch {
  enum class Where : uint8_t { Disp, Imm };
  Where where = Where::Disp;
  bool pcRelative = false;    // the value minus the end of the instruction
  bool zeroExtended = false;  // a 32-bit immediate of a 32-bit operation
  bool branch = false;
  Expr value;
  Piece text;
};

ZydisEncoderOperand registerOperand(ZydisRegister r) {
  ZydisEncoderOperand o{};
  o.type = ZYDIS_OPERAND_TYPE_REGISTER;
  o.reg.value = r;
  return o;
}

ZydisEncoderOperand immediateOperand(int64_t v) {
  ZydisEncoderOperand o{};
  o.type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
  o.imm.s = v;
  return o;
}

ZydisInstructionAttributes segmentPrefix(ZydisRegister s) {
  switch (s) {
    case ZYDIS_REGISTER_CS: return ZYDIS_ATTRIB_HAS_SEGMENT_CS;
    case ZYDIS_REGISTER_SS: return ZYDIS_ATTRIB_HAS_SEGMENT_SS;
    case ZYDIS_REGISTER_DS: return ZYDIS_ATTRIB_HAS_SEGMENT_DS;
    case ZYDIS_REGISTER_ES: return ZYDIS_ATTRIB_HAS_SEGMENT_ES;
    case ZYDIS_REGISTER_FS: return ZYDIS_ATTRIB_HAS_SEGMENT_FS;
    case ZYDIS_REGISTER_GS: return ZYDIS_ATTRIB_HAS_SEGMENT_GS;
    default: return 0;
  }
}

// The register of the same width in the rAX and rCX families.
ZydisRegister accumulator(uint8_t size) {
  return size == B   ? ZYDIS_REGISTER_AL
         : size == W ? ZYDIS_REGISTER_AX
         : size == L ? ZYDIS_REGISTER_EAX
                     : ZYDIS_REGISTER_RAX;
}
ZydisRegister counter(uint8_t size) {
  return size == B   ? ZYDIS_REGISTER_CL
         : size == W ? ZYDIS_REGISTER_CX
         : size == L ? ZYDIS_REGISTER_ECX
                     : ZYDIS_REGISTER_RCX;
}

class Encoding {
 public:
  explicit Encoding(const Instruction& insn) : insn_(insn), row_(*insn.row) {}

  std::variant<Encoded, EncodeError> run() {
    if (auto fixed = gnuChoice()) return *fixed;
    moffs64_ = wantsMoffs64();
    ZydisEncoderRequest req;
    std::memset(&req, 0, sizeof req);
    req.machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
    req.mnemonic = row_.zydis;
    // Zydis takes Intel's operand order, the reverse of AT&T's.
    std::vector<ZydisEncoderOperand> ops;
    for (size_t i = insn_.operands.size(); i-- > 0;) {
      auto o = operand(insn_.operands[i], row_.operands[i], req);
      if (auto* e = std::get_if<EncodeError>(&o)) return *e;
      ops.push_back(std::get<ZydisEncoderOperand>(o));
    }
    bool nopForm = row_.zydis == ZYDIS_MNEMONIC_NOP && !ops.empty();
    if (nopForm) ops.push_back(registerOperand(accumulator(insn_.size)));  // 0f 1f /0: reg field 0
    bool shiftByOne =
        row_.operandCount() == 1 &&
        (row_.zydis == ZYDIS_MNEMONIC_SHL || row_.zydis == ZYDIS_MNEMONIC_SHR || row_.zydis == ZYDIS_MNEMONIC_SAR);
    if (shiftByOne) ops.push_back(immediateOperand(1));
    // test and xchg: GNU as takes `test (%rax),%ebx` as `test %ebx,(%rax)`;
    // Zydis has only the r/m-first form.
    if ((row_.flags & kSwapMemReg) && ops.size() == 2 && ops[1].type == ZYDIS_OPERAND_TYPE_MEMORY)
      std::swap(ops[0], ops[1]);
    // xchg with rAX: GNU as takes the one-byte 90+r form whichever side
    // rAX is on; Zydis only when it is the second Intel operand.
    if (row_.zydis == ZYDIS_MNEMONIC_XCHG && insn_.size != B && ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
        ops[0].reg.value == accumulator(insn_.size) && ops[1].type == ZYDIS_OPERAND_TYPE_REGISTER)
      std::swap(ops[0], ops[1]);
    // mov between the accumulator and an absolute address: Zydis picks the
    // moffs form (a0..a3 with an address-size prefix); GNU as the ModRM form
    // with a SIB byte (8b 04 25 disp32). Encode with rCX, then name rAX.
    bool moffs = false;
    if (row_.zydis == ZYDIS_MNEMONIC_MOV && ops.size() == 2 && !moffs64_)
      for (int i = 0; i < 2; ++i)
        if (ops[i].type == ZYDIS_OPERAND_TYPE_REGISTER && ops[i].reg.value == accumulator(insn_.size) &&
            ops[1 - i].type == ZYDIS_OPERAND_TYPE_MEMORY && ops[1 - i].mem.base == ZYDIS_REGISTER_NONE &&
            ops[1 - i].mem.index == ZYDIS_REGISTER_NONE)
          ops[i].reg.value = counter(insn_.size), moffs = true;
    req.operand_count = uint8_t(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) req.operands[i] = ops[i];

    uint8_t buf[ZYDIS_MAX_INSTRUCTION_LENGTH];
    ZyanUSize length = sizeof buf;
    if (!ZYAN_SUCCESS(ZydisEncoderEncodeInstruction(&req, buf, &length))) return noEncoding();
    ZydisDecoder decoder;
    ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisDecodedInstruction d;
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&decoder, nullptr, buf, length, &d)) || d.length != length)
      return EncodeError{column(), "internal: Zydis's encoding of this does not decode"};
    Encoded out;
    out.bytes.assign(buf, buf + length);
    // The multi-byte nop is 0f 1f /0 for GNU as (and Intel's SDM); Zydis
    // takes the first of the reserved-nop opcodes 0f 18..0f 1f.
    if (nopForm) out.bytes[d.raw.modrm.offset - 1] = 0x1f;
    if (moffs) out.bytes[d.raw.modrm.offset] &= 0xc7;
    for (const Patch& p : patches_)
      if (auto e = apply(p, d, out)) return *e;
    return out;
  }

 private:
  const Instruction& insn_;
  const InstrDesc& row_;
  std::vector<Patch> patches_;
  bool moffs64_ = false;

  // {disp32} on a mov between rAX and an absolute address: GNU as takes
  // the moffs form with a 64-bit address (movabs, a0..a3 + 8 bytes).
  bool wantsMoffs64() const {
    if (row_.zydis != ZYDIS_MNEMONIC_MOV || insn_.hint != DispHint::Disp32 || insn_.operands.size() != 2) return false;
    bool acc = false, absolute = false;
    for (const Operand& o : insn_.operands) {
      const OperandSyntax& s = o.syntax;
      acc |= s.kind == K::Register && s.reg == accumulator(insn_.size);
      absolute |= (s.kind == K::Memory || s.kind == K::Target) && s.mem.base == ZYDIS_REGISTER_NONE &&
                  s.mem.index == ZYDIS_REGISTER_NONE;
    }
    return acc && absolute;
  }

  unsigned column() const { return insn_.operands.empty() ? 0 : insn_.operands[0].syntax.text.column; }
  std::string mnemonic() const { return std::string(row_.mnemonic); }

  // Encodings GNU as picks that no Zydis request gives.
  std::optional<Encoded> gnuChoice() const {
    if (row_.zydis != ZYDIS_MNEMONIC_XCHG || insn_.operands.size() != 2) return std::nullopt;
    const OperandSyntax &a = insn_.operands[0].syntax, &b = insn_.operands[1].syntax;
    if (a.kind != K::Register || b.kind != K::Register || a.reg != b.reg) return std::nullopt;
    // xchg %eax,%eax must clear the upper half of rax, which 90 (nop)
    // does not: 87 c0. xchg %rax,%rax is a nop: 90 without REX.W.
    if (a.reg == ZYDIS_REGISTER_EAX) return Encoded{{0x87, 0xc0}, {}, false};
    if (a.reg == ZYDIS_REGISTER_RAX) return Encoded{{0x90}, {}, false};
    return std::nullopt;
  }

  EncodeError noEncoding() const {
    bool high = false, rex = insn_.size == Q;
    for (const Operand& o : insn_.operands) {
      const OperandSyntax& s = o.syntax;
      for (ZydisRegister r : {s.reg, s.mem.base, s.mem.index}) {
        if (isHighByte(r)) high = true;
        if (r == ZYDIS_REGISTER_SPL || r == ZYDIS_REGISTER_BPL || r == ZYDIS_REGISTER_SIL || r == ZYDIS_REGISTER_DIL ||
            (r >= ZYDIS_REGISTER_R8B && r <= ZYDIS_REGISTER_R15B) ||
            (r >= ZYDIS_REGISTER_R8W && r <= ZYDIS_REGISTER_R15W) ||
            (r >= ZYDIS_REGISTER_R8D && r <= ZYDIS_REGISTER_R15D) ||
            (r >= ZYDIS_REGISTER_R8 && r <= ZYDIS_REGISTER_R15))
          rex = true;
      }
    }
    if (high && rex)
      return EncodeError{column(), "%ah, %bh, %ch and %dh cannot be used in an instruction that needs a REX prefix"};
    return EncodeError{column(), "'" + mnemonic() + "' has no encoding for these operands"};
  }

  uint16_t memoryBytes(Opnd k) const {
    if (row_.zydis == ZYDIS_MNEMONIC_LEA) return 8;  // Zydis sizes lea's operand by the address
    switch (k) {
      case Opnd::RM8: return 1;
      case Opnd::RM16: return 2;
      case Opnd::RM32: return 4;
      case Opnd::Ind: return 8;
      default: return insn_.size;
    }
  }

  std::variant<ZydisEncoderOperand, EncodeError> operand(const Operand& o, Opnd k, ZydisEncoderRequest& req) {
    const OperandSyntax& s = o.syntax;
    if (s.kind == K::Register) return registerOperand(s.reg);
    if (k == Opnd::Rel) return branch(o, req);
    if (s.kind == K::Immediate) return immediate(o, k);
    return memory(o, k, req);
  }

  std::variant<ZydisEncoderOperand, EncodeError> branch(const Operand& o, ZydisEncoderRequest& req) {
    // GNU as relaxes a jump to a label in the program (rel8 while it
    // reaches); a call, or a jump to a symbol or an absolute address, is
    // rel32, except to a symbol that every placement keeps in rel8's reach
    // (a `near` fact, as a label of the function would be).
    bool rel8 = (row_.flags & kRelax) && (o.value.origin == gnu::Origin::Label || insn_.shortToSymbol) &&
                !insn_.longBranch && insn_.hint != DispHint::Disp32;
    req.branch_type = rel8 ? ZYDIS_BRANCH_TYPE_SHORT : ZYDIS_BRANCH_TYPE_NEAR;
    req.branch_width = rel8 ? ZYDIS_BRANCH_WIDTH_8 : ZYDIS_BRANCH_WIDTH_32;
    patches_.push_back(
        {.where = Patch::Where::Imm, .pcRelative = true, .branch = true, .value = o.value, .text = o.syntax.text});
    return immediateOperand(0);
  }

  std::variant<ZydisEncoderOperand, EncodeError> immediate(const Operand& o, Opnd k) {
    const Expr& v = o.value;
    Piece text = o.syntax.expr;
    unsigned bits = sizeBits(insn_.size);
    if (k == Opnd::I64) {  // movabs: always imm64; a value over 32 bits makes Zydis pick it
      patches_.push_back({.where = Patch::Where::Imm, .value = v, .text = text});
      return immediateOperand(int64_t(1) << 32);
    }
    if (k == Opnd::Count) {
      if (v.relocatable() || !fitsUnsigned(v.value.addend, 8))
        return EncodeError{text.column, "shift count '" + std::string(text.text) + "' is not 0..255"};
      return immediateOperand(v.value.addend);
    }
    if (v.relocatable()) {
      if (bits < 32)
        return EncodeError{text.column, "an address does not fit the " + std::to_string(bits) + "-bit immediate of '" +
                                            mnemonic() + "'"};
      // imm32: sign-extended in a 64-bit operation (R_X86_64_32S), as is in a
      // 32-bit one (R_X86_64_32). The placeholder only needs 32 bits.
      patches_.push_back({.where = Patch::Where::Imm, .zeroExtended = bits == 32, .value = v, .text = text});
      return immediateOperand(0x7fffffff);
    }
    int64_t x = v.value.addend;
    // mov $imm,%r64 takes every 64-bit value (movabs when it needs to);
    // elsewhere a 64-bit operation sign-extends an imm32.
    bool any64 = row_.zydis == ZYDIS_MNEMONIC_MOV && bits == 64 && insn_.operands[1].syntax.kind == K::Register;
    bool ok = bits == 64 ? (any64 || fitsSigned(x, 32)) : (fitsSigned(x, bits) || fitsUnsigned(x, bits));
    if (!ok)
      return EncodeError{
          text.column, "immediate " + hex(uint64_t(x)) + " does not fit " +
                           (bits == 64 ? std::string("a sign-extended 32-bit field") : std::to_string(bits) + " bits") +
                           " ('" + mnemonic() + "', " + std::to_string(bits) + "-bit)"};
    return immediateOperand(bits == 64 ? x : signExtend(x, bits));
  }

  std::variant<ZydisEncoderOperand, EncodeError> memory(const Operand& o, Opnd k, ZydisEncoderRequest& req) {
    const MemoryRef& m = o.syntax.mem;
    ZydisEncoderOperand out{};
    out.type = ZYDIS_OPERAND_TYPE_MEMORY;
    out.mem.base = m.base;
    out.mem.index = m.index;
    out.mem.scale = m.scale;
    out.mem.size = memoryBytes(k);
    req.prefixes |= segmentPrefix(m.segment);
    const Expr& d = o.value;
    bool rip = m.base == ZYDIS_REGISTER_RIP, based = m.base != ZYDIS_REGISTER_NONE && !rip;
    Piece text = m.disp.text.empty() ? o.syntax.text : m.disp;
    if (d.relocatable()) {
      // sym(%rip) is sym - (end of instruction); sym(%reg) a sign-extended
      // disp32 (R_X86_64_32S); 0x7fffffff makes Zydis give disp32.
      // GNU as relocates the displacement of a 16- or 32-bit lea as a
      // zero-extended 32-bit value (R_X86_64_32): its result is truncated.
      bool narrowLea = row_.zydis == ZYDIS_MNEMONIC_LEA && insn_.size != Q && !rip;
      patches_.push_back(
          {.where = Patch::Where::Disp, .pcRelative = rip, .zeroExtended = narrowLea, .value = d, .text = text});
      out.mem.displacement = based ? 0x7fffffff : 0;
      return out;
    }
    int64_t x = d.value.addend;
    if (!fitsSigned(x, 32))
      return EncodeError{text.column, "displacement " + hex(uint64_t(x)) + " does not fit a signed 32 bits"};
    if (moffs64_) {  // an address over 32 bits makes Zydis pick moffs64
      patches_.push_back({.where = Patch::Where::Disp, .value = d, .text = text});
      out.mem.displacement = int64_t(1) << 32;
      return out;
    }
    // {disp8} and {disp32} ask for a width even where a shorter one (or
    // none) would do; {disp8} gives way to disp32 when the value needs it.
    DispHint h = based ? insn_.hint : DispHint::None;
    if (h == DispHint::Disp8 && fitsSigned(x, 8)) {
      patches_.push_back({.where = Patch::Where::Disp, .value = d, .text = text});
      out.mem.displacement = 0x7f;
    } else if (h != DispHint::None) {
      patches_.push_back({.where = Patch::Where::Disp, .value = d, .text = text});
      out.mem.displacement = 0x7fffffff;
    } else {
      out.mem.displacement = x;
    }
    return out;
  }

  std::optional<EncodeError> apply(const Patch& p, const ZydisDecodedInstruction& d, Encoded& out) const {
    unsigned offset = p.where == Patch::Where::Disp ? d.raw.disp.offset : d.raw.imm[0].offset;
    unsigned size = (p.where == Patch::Where::Disp ? d.raw.disp.size : d.raw.imm[0].size) / 8;
    if (!size) return EncodeError{p.text.column, "internal: no field for '" + std::string(p.text.text) + "'"};
    Value end = insn_.address.plus(int64_t(d.length));
    Value v = p.value.value;
    bool known = p.pcRelative ? v.symbol == end.symbol : v.isConstant();
    if (!known) {
      if (out.field)
        return EncodeError{p.text.column, "two fields of '" + mnemonic() + "' depend on symbolic addresses"};
      Field f;
      f.kind = p.pcRelative ? Field::Kind::PcRelative : Field::Kind::Absolute;
      f.offset = offset, f.size = size, f.signExtended = !p.zeroExtended;
      f.value = v;
      if (p.pcRelative) f.relativeTo = end;
      f.text = std::string(p.text.text);
      out.field = f;
      return std::nullopt;
    }
    int64_t x = p.pcRelative ? int64_t(uint64_t(v.addend) - uint64_t(end.addend)) : v.addend;
    unsigned bits = 8 * size;
    bool fits = p.zeroExtended ? fitsUnsigned(x, bits) : fitsSigned(x, bits);
    if (!fits && p.branch && bits == 8) {
      out.tooFar = true;
      return std::nullopt;
    }
    if (!fits) {
      if (p.pcRelative)
        return EncodeError{p.text.column, "'" + mnemonic() + "' at " + insn_.address.str() + " cannot reach " +
                                              v.str() + " (a " + std::to_string(bits) + "-bit offset from " +
                                              end.str() + ")"};
      return EncodeError{p.text.column,
                         "'" + std::string(p.text.text) + "' = " + hex(uint64_t(x)) + " does not fit " +
                             (p.zeroExtended ? "32 bits" : "a sign-extended " + std::to_string(bits) + "-bit field")};
    }
    for (unsigned k = 0; k < size; ++k) out.bytes[offset + k] = uint8_t(uint64_t(x) >> (8 * k));
    return std::nullopt;
  }
};

}  // namespace

std::variant<Encoded, EncodeError> encode(const Instruction& insn) { return Encoding(insn).run(); }

}  // namespace patchcheck::x86_64
