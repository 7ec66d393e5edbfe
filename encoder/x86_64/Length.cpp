#include "encoder/x86_64/Length.h"

#include <Zydis/Zydis.h>

namespace patchcheck::x86_64 {

IsaPlugin::Length instructionLength(std::span<const uint8_t> bytes, std::span<const bool> symbolic) {
  using L = IsaPlugin::Length;
  ZydisDecoder decoder;
  ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  ZydisDecodedInstruction insn;
  ZyanStatus st = ZydisDecoderDecodeInstruction(&decoder, nullptr, bytes.data(), bytes.size(), &insn);
  // Bytes are given a prefix at a time; whether a placement-dependent one
  // mattered is judged once the length is known.
  if (st == ZYDIS_STATUS_NO_MORE_DATA)
    return {bytes.size() >= ZYDIS_MAX_INSTRUCTION_LENGTH ? L::Invalid : L::NeedMore, 0};
  // A byte the placement decides may stand only in an immediate or a
  // displacement: elsewhere another placement would decode differently.
  auto inField = [&](unsigned k) {
    auto within = [k](unsigned off, unsigned bits) { return bits && k >= off && k < off + bits / 8; };
    return within(insn.raw.disp.offset, insn.raw.disp.size) || within(insn.raw.imm[0].offset, insn.raw.imm[0].size) ||
           within(insn.raw.imm[1].offset, insn.raw.imm[1].size);
  };
  unsigned length = ZYAN_SUCCESS(st) ? insn.length : 0;
  unsigned checked = ZYAN_SUCCESS(st) ? length : unsigned(bytes.size());
  for (unsigned k = 0; k < checked && k < symbolic.size(); ++k)
    if (symbolic[k] && (!ZYAN_SUCCESS(st) || !inField(k))) return {L::PlacementDependent, 0};
  if (!ZYAN_SUCCESS(st)) return {L::Invalid, 0};
  return {L::Known, length};
}

}  // namespace patchcheck::x86_64
