#include "model/x86_64/Operands.h"

#include <stdexcept>

namespace patchcheck::x86_64 {

RegisterSlice sliceOf(ZydisRegister r) {
  switch (r) {
    case ZYDIS_REGISTER_AH: return {0, 8, 8};
    case ZYDIS_REGISTER_CH: return {1, 8, 8};
    case ZYDIS_REGISTER_DH: return {2, 8, 8};
    case ZYDIS_REGISTER_BH: return {3, 8, 8};
    default: break;
  }
  ZydisRegister wide = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
  if (ZydisRegisterGetClass(wide) != ZYDIS_REGCLASS_GPR64)
    throw std::logic_error(std::string("x86_64: not a general register: ") + ZydisRegisterGetString(r));
  return {unsigned(ZydisRegisterGetId(wide)), unsigned(ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, r)), 0};
}

z3::expr readRegister(const MachineState& s, ZydisRegister r) {
  RegisterSlice x = sliceOf(r);
  const z3::expr& v = s.reg(x.number);
  return x.bits == 64 ? v : v.extract(x.low + x.bits - 1, x.low).simplify();
}

void writeRegister(MachineState& s, ZydisRegister r, const z3::expr& value) {
  RegisterSlice x = sliceOf(r);
  const z3::expr old = s.reg(x.number);
  z3::expr v = value;
  if (x.bits == 32) v = z3::zext(value, 32);  // SDM Vol. 1, 3.4.1.1
  else if (x.bits < 32) {
    if (x.low + x.bits < 64) v = z3::concat(old.extract(63, x.low + x.bits), v);
    if (x.low > 0) v = z3::concat(v, old.extract(x.low - 1, 0));
  }
  s.setReg(x.number, v.simplify());
}

Operands::Operands(MachineState& s, const Decoded& d, const z3::expr& pc) : s_(s), d_(d), pc_(pc) {}

z3::expr Operands::next() const { return s_.advance(pc_, d_.length()); }

z3::expr Operands::relativeTarget(unsigned i) const {
  return (next() + d_.immediate(i, 64)).simplify();
}

z3::expr Operands::address(unsigned i) {
  if (address_) return *address_;
  z3::context& c = s_.ctx;
  const ZydisDecodedOperandMem& m = d_.operands[i].mem;
  z3::expr a = d_.displacement();
  if (m.base == ZYDIS_REGISTER_RIP || m.base == ZYDIS_REGISTER_EIP) a = a + next();
  else if (m.base != ZYDIS_REGISTER_NONE) a = a + z3::zext(readRegister(s_, m.base), 64 - sliceOf(m.base).bits);
  if (m.index != ZYDIS_REGISTER_NONE) {
    z3::expr index = readRegister(s_, m.index);
    index = z3::zext(index, 64 - index.get_sort().bv_size());
    unsigned shift = m.scale == 8 ? 3 : m.scale == 4 ? 2 : m.scale == 2 ? 1 : 0;
    a = a + (shift ? z3::shl(index, c.bv_val(shift, 64)) : index);
  }
  // A 0x67 prefix: the address is formed in 32 bits and zero-extended.
  if (d_.insn.address_width == 32) a = z3::zext(a.extract(31, 0), 32);
  address_ = a.simplify();
  return *address_;
}

z3::expr Operands::read(unsigned i, unsigned immediateBits) {
  const ZydisDecodedOperand& op = d_.operands[i];
  switch (op.type) {
    case ZYDIS_OPERAND_TYPE_REGISTER: return readRegister(s_, op.reg.value);
    case ZYDIS_OPERAND_TYPE_IMMEDIATE: return d_.immediate(i, immediateBits ? immediateBits : op.size);
    case ZYDIS_OPERAND_TYPE_MEMORY:
      if (!loaded_) loaded_ = s_.load(address(i), op.size / 8).simplify();
      return *loaded_;
    default: throw std::logic_error("x86_64: an operand the table does not accept");
  }
}

void Operands::write(unsigned i, const z3::expr& value) {
  const ZydisDecodedOperand& op = d_.operands[i];
  if (op.type == ZYDIS_OPERAND_TYPE_REGISTER) return writeRegister(s_, op.reg.value, value);
  if (op.type == ZYDIS_OPERAND_TYPE_MEMORY) return s_.store(address(i), value.simplify(), op.size / 8);
  throw std::logic_error("x86_64: a write to an operand that is neither register nor memory");
}

}  // namespace patchcheck::x86_64
