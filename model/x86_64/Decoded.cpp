#include "model/x86_64/Decoded.h"

#include <stdexcept>

namespace patchcheck::x86_64 {

z3::expr instructionTerm(z3::context& c, const uint8_t* bytes, unsigned n) {
  z3::expr t = c.bv_val(bytes[0], 8);
  for (unsigned k = 1; k < n; ++k) t = z3::concat(c.bv_val(bytes[k], 8), t);
  return t.simplify();
}

namespace {

// Reads the concrete bytes of the term; false for each byte that is not a numeral.
void readBytes(const z3::expr& term, unsigned n, uint8_t* out, bool* known) {
  uint64_t v = 0;
  if (term.is_numeral()) {
    // Two numerals at most: the low eight bytes and the rest.
    term.extract(n >= 8 ? 63 : 8 * n - 1, 0).simplify().is_numeral_u64(v);
    for (unsigned k = 0; k < n && k < 8; ++k) out[k] = uint8_t(v >> (8 * k)), known[k] = true;
    if (n > 8) {
      term.extract(8 * n - 1, 64).simplify().is_numeral_u64(v);
      for (unsigned k = 8; k < n; ++k) out[k] = uint8_t(v >> (8 * (k - 8))), known[k] = true;
    }
    return;
  }
  for (unsigned k = 0; k < n; ++k) {
    z3::expr b = term.extract(8 * k + 7, 8 * k).simplify();
    known[k] = b.is_numeral() && b.is_numeral_u64(v);
    out[k] = known[k] ? uint8_t(v) : 0;
  }
}

bool within(unsigned k, unsigned offset, unsigned bits) { return bits && k >= offset && k < offset + bits / 8; }

}  // namespace

Decoded decode(const Instruction& i) {
  Decoded d(i.term);
  unsigned n = i.term.get_sort().bv_size() / 8;
  if (n == 0 || n > ZYDIS_MAX_INSTRUCTION_LENGTH) throw std::logic_error("x86_64::decode: an instruction of 1..15 bytes");
  d.fetched = n;
  bool* known = d.known.data();
  readBytes(i.term, n, d.bytes.data(), known);
  for (unsigned k = 0; k < n; ++k) d.concrete = d.concrete && known[k];

  ZydisDecoder decoder;
  ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  ZyanStatus st = ZydisDecoderDecodeFull(&decoder, d.bytes.data(), n, &d.insn, d.operands.data());
  bool whole = ZYAN_SUCCESS(st) && d.insn.length == n;
  // Without a whole instruction of n bytes, a byte the placement decides
  // changed what the bytes are (read as 0 it makes another instruction).
  if (!whole && !d.concrete) {
    d.status = Decoded::Status::PlacementDependent;
    return d;
  }
  if (st == ZYDIS_STATUS_NO_MORE_DATA)
    throw std::logic_error("x86_64::decode: " + std::to_string(n) + " bytes hold no whole instruction");
  if (!ZYAN_SUCCESS(st)) {
    d.status = Decoded::Status::Invalid;
    return d;
  }
  if (d.insn.length != n)
    throw std::logic_error("x86_64::decode: " + std::to_string(n) + " bytes fetched for an instruction of " +
                           std::to_string(d.insn.length));
  d.status = Decoded::Status::Ok;
  const auto& raw = d.insn.raw;
  for (unsigned k = 0; k < n; ++k)
    if (!known[k] && !within(k, raw.disp.offset, raw.disp.size) && !within(k, raw.imm[0].offset, raw.imm[0].size) &&
        !within(k, raw.imm[1].offset, raw.imm[1].size))
      d.status = Decoded::Status::PlacementDependent;
  return d;
}

z3::expr Decoded::field(unsigned offset, unsigned bits) const {
  z3::context& c = term.ctx();
  if (concrete) {
    uint64_t v = 0;
    for (unsigned k = 0; k < bits / 8; ++k) v |= uint64_t(bytes[offset + k]) << (8 * k);
    return c.bv_val(v, bits);
  }
  return term.extract(8 * offset + bits - 1, 8 * offset).simplify();
}

z3::expr Decoded::displacement() const {
  const auto& disp = insn.raw.disp;
  if (disp.size == 0) return term.ctx().bv_val(0, 64);
  z3::expr v = field(disp.offset, disp.size);
  return disp.size == 64 ? v : z3::sext(v, 64 - disp.size);
}

z3::expr Decoded::immediate(unsigned i, unsigned bits) const {
  z3::context& c = term.ctx();
  // Visible immediate operands follow the encoded immediates in order; an
  // operand with no encoding (shl's implicit 1) is a constant.
  unsigned encoded = 0;
  for (unsigned j = 0; j < i; ++j)
    if (operands[j].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && operands[j].encoding != ZYDIS_OPERAND_ENCODING_NONE)
      ++encoded;
  const ZydisDecodedOperand& op = operands[i];
  if (op.encoding == ZYDIS_OPERAND_ENCODING_NONE || encoded > 1 || insn.raw.imm[encoded].size == 0)
    return c.bv_val(op.imm.value.u, bits);
  const auto& raw = insn.raw.imm[encoded];
  z3::expr v = field(raw.offset, raw.size);
  if (raw.size == bits) return v;
  if (raw.size > bits) return v.extract(bits - 1, 0);
  return op.imm.is_signed ? z3::sext(v, bits - raw.size) : z3::zext(v, bits - raw.size);
}

std::string Decoded::hex() const {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned k = 0; k < fetched; ++k) {
    if (k) out += ' ';
    out += known[k] ? std::string{digits[bytes[k] >> 4], digits[bytes[k] & 15]} : std::string("??");
  }
  return out;
}

std::string Decoded::text(uint64_t address) const {
  if (status != Status::Ok) return "(bad)";
  ZydisFormatter f;
  ZydisFormatterInit(&f, ZYDIS_FORMATTER_STYLE_ATT);
  char buf[256];
  if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&f, &insn, operands.data(), insn.operand_count_visible, buf,
                                                    sizeof buf, address, nullptr)))
    return "(bad)";
  return buf;
}

}  // namespace patchcheck::x86_64
