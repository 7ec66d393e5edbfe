#include "encoder/x86_64/Printer.h"

#include <Zycore/String.h>

#include <cstdio>
#include <vector>

#include "encoder/x86_64/InstructionTable.h"
#include "encoder/x86_64/Registers.h"

namespace patchcheck::x86_64 {
namespace {

std::string hexDigits(uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%llx", (unsigned long long)v);
  return buf;
}

// "0x10", "-0x8": objdump's signed displacements.
std::string signedHex(int64_t v) { return v < 0 ? "-0x" + hexDigits(0 - uint64_t(v)) : "0x" + hexDigits(uint64_t(v)); }

uint64_t masked(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1); }

// The target operand of call or jmp, when it is not an offset.
bool isIndirectBranch(const ZydisDecodedInstruction& d, const ZydisDecodedOperand& op) {
  return (d.mnemonic == ZYDIS_MNEMONIC_CALL || d.mnemonic == ZYDIS_MNEMONIC_JMP) &&
         op.type != ZYDIS_OPERAND_TYPE_IMMEDIATE;
}

ZyanStatus append(ZydisFormatterBuffer* buffer, ZydisTokenType type, const std::string& s) {
  ZYAN_CHECK(ZydisFormatterBufferAppend(buffer, type));
  ZyanString* out;
  ZYAN_CHECK(ZydisFormatterBufferGetString(buffer, &out));
  ZyanStringView view;
  ZYAN_CHECK(ZyanStringViewInsideBufferEx(&view, s.data(), s.size()));
  return ZyanStringAppend(out, &view);
}

// objdump's memory operands: a displacement whenever the encoding has one
// (`0x0(%rax)`, which Zydis drops), an absolute address as an unsigned
// number, %fs:/%gs: (other segment overrides are prefix words in 64-bit
// mode), and `*` before an indirect branch's.
ZyanStatus formatMemory(const ZydisFormatter*, ZydisFormatterBuffer* buffer, ZydisFormatterContext* ctx) {
  const ZydisDecodedInstruction& d = *ctx->instruction;
  const ZydisDecodedOperand& op = *ctx->operand;
  std::string s = isIndirectBranch(d, op) ? "*" : "";
  if (op.mem.segment == ZYDIS_REGISTER_FS || op.mem.segment == ZYDIS_REGISTER_GS)
    if (d.attributes & (ZYDIS_ATTRIB_HAS_SEGMENT_FS | ZYDIS_ATTRIB_HAS_SEGMENT_GS))
      s += "%" + nameOf(op.mem.segment) + ":";
  bool absolute = op.mem.base == ZYDIS_REGISTER_NONE && op.mem.index == ZYDIS_REGISTER_NONE;
  if (absolute) {
    s += "0x" + hexDigits(uint64_t(op.mem.disp.value));
    return append(buffer, ZYDIS_TOKEN_ADDRESS_ABS, s);
  }
  if (op.mem.disp.has_displacement) s += signedHex(op.mem.disp.value);
  s += "(";
  if (op.mem.base != ZYDIS_REGISTER_NONE) s += "%" + nameOf(op.mem.base);
  if (op.mem.index != ZYDIS_REGISTER_NONE) s += ",%" + nameOf(op.mem.index) + "," + std::to_string(op.mem.scale);
  s += ")";
  return append(buffer, ZYDIS_TOKEN_DISPLACEMENT, s);
}

// objdump's immediates: unsigned in the operation's width ($0xfffffff0 for
// -16 in a 32-bit operation), and branch targets as bare hex addresses.
ZyanStatus formatImmediate(const ZydisFormatter*, ZydisFormatterBuffer* buffer, ZydisFormatterContext* ctx) {
  const ZydisDecodedInstruction& d = *ctx->instruction;
  const ZydisDecodedOperand& op = *ctx->operand;
  if (op.imm.is_relative) {
    uint64_t target = ctx->runtime_address + d.length + op.imm.value.u;
    return append(buffer, ZYDIS_TOKEN_ADDRESS_ABS, hexDigits(target));
  }
  unsigned bits = op.imm.is_signed ? d.operand_width : op.size;
  return append(buffer, ZYDIS_TOKEN_IMMEDIATE, "$0x" + hexDigits(masked(op.imm.value.u, bits)));
}

struct Formatter {
  ZydisFormatter f;
  ZydisFormatterFunc registerDefault = nullptr;

  Formatter() {
    ZydisFormatterInit(&f, ZYDIS_FORMATTER_STYLE_ATT);
    ZydisFormatterSetProperty(&f, ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE);
    const void* fn = reinterpret_cast<const void*>(&formatMemory);
    ZydisFormatterSetHook(&f, ZYDIS_FORMATTER_FUNC_FORMAT_OPERAND_MEM, &fn);
    fn = reinterpret_cast<const void*>(&formatImmediate);
    ZydisFormatterSetHook(&f, ZYDIS_FORMATTER_FUNC_FORMAT_OPERAND_IMM, &fn);
    fn = reinterpret_cast<const void*>(&formatRegister);
    ZydisFormatterSetHook(&f, ZYDIS_FORMATTER_FUNC_FORMAT_OPERAND_REG, &fn);
    registerDefault = reinterpret_cast<ZydisFormatterFunc>(const_cast<void*>(fn));
  }

  // Zydis's register, after objdump's `*` for an indirect branch.
  static ZyanStatus formatRegister(const ZydisFormatter* f, ZydisFormatterBuffer* buffer, ZydisFormatterContext* ctx) {
    if (isIndirectBranch(*ctx->instruction, *ctx->operand)) ZYAN_CHECK(append(buffer, ZYDIS_TOKEN_DELIMITER, "*"));
    return instance().registerDefault(f, buffer, ctx);
  }

  static const Formatter& instance() {
    static const Formatter it;
    return it;
  }
};

// The prefix bytes objdump names as words: a segment override other than
// fs/gs (ignored in 64-bit mode) and a repeated operand-size prefix.
std::string prefixWords(const ZydisDecodedInstruction& d) {
  std::string out;
  bool operandSize = false;
  for (unsigned i = 0; i < d.raw.prefix_count; ++i) {
    switch (d.raw.prefixes[i].value) {
      case 0x2e: out += "cs "; break;
      case 0x36: out += "ss "; break;
      case 0x3e: out += "ds "; break;
      case 0x26: out += "es "; break;
      case 0xf0: out += "lock "; break;
      case 0x66:
        if (operandSize) out += "data16 ";
        operandSize = true;
        break;
      default: break;
    }
  }
  return out;
}

// Operands objdump prints, in Intel order: the `1` of a shift by one is
// implicit (shl %eax), and so is the reg field of the multi-byte nop
// (0f 1f /r is `nopl (%rax)`).
std::vector<const ZydisDecodedOperand*> printed(const ZydisDecodedInstruction& d, const ZydisDecodedOperand* ops) {
  std::vector<const ZydisDecodedOperand*> out;
  for (unsigned i = 0; i < d.operand_count_visible; ++i) {
    const ZydisDecodedOperand& o = ops[i];
    if (o.visibility == ZYDIS_OPERAND_VISIBILITY_IMPLICIT && o.type == ZYDIS_OPERAND_TYPE_IMMEDIATE) continue;
    if (d.mnemonic == ZYDIS_MNEMONIC_NOP && o.encoding == ZYDIS_OPERAND_ENCODING_MODRM_REG) continue;
    out.push_back(&o);
  }
  return out;
}

// objdump's mnemonic: the table's spelling, and the size suffix when no
// register operand shows the size (a shift's count in %cl does not).
std::string mnemonicOf(const ZydisDecodedInstruction& d, const std::vector<const ZydisDecodedOperand*>& ops) {
  const InstrDesc* row = rowFor(d.mnemonic, unsigned(ops.size()));
  switch (d.mnemonic) {
    case ZYDIS_MNEMONIC_MOVZX:
    case ZYDIS_MNEMONIC_MOVSX:
    case ZYDIS_MNEMONIC_MOVSXD: {
      const ZydisDecodedOperand& src = *ops.at(1);
      return std::string(d.mnemonic == ZYDIS_MNEMONIC_MOVZX ? "movz" : "movs") + suffixOf(uint8_t(src.size / 8)) +
             suffixOf(uint8_t(d.operand_width / 8));
    }
    case ZYDIS_MNEMONIC_MOV:  // imm64 or a 64-bit moffs address
      if (d.raw.imm[0].size == 64 || d.raw.disp.size == 64) return "movabs";
      break;
    default: break;
  }
  if (!row) return ZydisMnemonicGetString(d.mnemonic);
  std::string name(row->mnemonic);
  if (!(row->flags & kSuffix) || ((row->flags & kDefault64) && d.operand_width == 64)) return name;
  bool shift = d.mnemonic == ZYDIS_MNEMONIC_SHL || d.mnemonic == ZYDIS_MNEMONIC_SHR || d.mnemonic == ZYDIS_MNEMONIC_SAR;
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i]->type == ZYDIS_OPERAND_TYPE_REGISTER && gprBits(ops[i]->reg.value) && !(shift && i == 1)) return name;
  return name + suffixOf(uint8_t(d.operand_width / 8));
}

}  // namespace

std::string disassemble(std::span<const uint8_t> bytes, uint64_t address) {
  ZydisDecoder decoder;
  ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  ZydisDecodedInstruction d;
  ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
  if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, bytes.data(), bytes.size(), &d, ops))) return "(bad)";
  // 66 90 is `xchg %ax,%ax` to objdump (and GNU as), a nop to Zydis.
  if (d.mnemonic == ZYDIS_MNEMONIC_NOP && d.length == 2 && bytes[0] == 0x66 && bytes[1] == 0x90) return "xchg\t%ax,%ax";
  auto shown = printed(d, ops);
  std::string text = prefixWords(d) + mnemonicOf(d, shown);
  const Formatter& f = Formatter::instance();
  for (size_t i = shown.size(); i-- > 0;) {
    char buf[96];
    if (!ZYAN_SUCCESS(ZydisFormatterFormatOperand(&f.f, &d, shown[i], buf, sizeof buf, address, nullptr)))
      return "(bad)";
    text += (i + 1 == shown.size() ? "\t" : ",") + std::string(buf);
  }
  return text;
}

}  // namespace patchcheck::x86_64
