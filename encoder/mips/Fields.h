#pragma once
// Where each operand kind's value lives in the word, and which values it
// may take. Shared by the assembler, the decoder/printer and SymbolicWord.
#include <cstdint>
#include <optional>

#include "encoder/mips/InstructionTable.h"

namespace patchcheck::mips {

// Immediate range accepted by GNU as for an operand kind (inclusive).
struct Range {
  int64_t lo, hi;
  bool contains(int64_t v) const { return v >= lo && v <= hi; }
};
std::optional<Range> immediateRange(Opnd);

// Width in bits of the immediate part of an operand (0 for registers).
unsigned immediateWidth(Opnd);
// Lowest bit of the immediate part.
unsigned immediateShift(Opnd);

// Places a register operand's number in the word.
uint32_t placeRegister(Opnd, unsigned reg);
// Places the immediate part (already reduced to its field value).
uint32_t placeImmediate(Opnd, uint64_t field);

// Reads an operand back: a register number, or the raw immediate field.
unsigned registerOf(Opnd, uint32_t word);  // for Mem*: the base register
uint64_t immediateOf(Opnd, uint32_t word);
// The immediate field sign-extended where the kind is signed.
int64_t signedImmediateOf(Opnd, uint32_t word);

bool isRegisterKind(Opnd);
bool isBranchKind(Opnd);  // Br16, Br21, Br26
bool isMemoryKind(Opnd);  // Mem16, Mem9
bool isPcRelativeKind(Opnd);  // Pc19, Pc18: an address relative to the instruction itself
bool isInsertSizeKind(Opnd);  // SizeIns, SizeInsHi: the field also holds the position

// What an operand's field is offset by: value = field + bias (SaHi, PosHi:
// 32; SizeExt, LsaSa: 1; SizeExtHi: 33). For SizeIns / SizeInsHi the field
// holds pos + size - bias.
int64_t valueBias(Opnd);

}  // namespace patchcheck::mips
