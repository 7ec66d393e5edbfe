#include "encoder/riscv/Printer.h"

#include <cstdio>

#include "encoder/riscv/Csrs.h"
#include "encoder/riscv/Decoder.h"
#include "encoder/riscv/InstructionTable.h"
#include "encoder/riscv/Registers.h"

namespace patchcheck::riscv {
namespace {

void appendHex(std::string& s, uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  s += buf;
}

void appendDecimal(std::string& s, int64_t v) { s += std::to_string(v); }

// fence's sets as objdump spells them: i, o, r, w in that order.
void appendSet(std::string& s, unsigned set) {
  if (set == 0) {  // no such spelling in the assembler; objdump says so
    s += "unknown";
    return;
  }
  const char* letters = "iorw";
  for (unsigned b = 0; b < 4; ++b)
    if (set & (8u >> b)) s += letters[b];
}

unsigned prime(uint32_t v) { return 8 + (v & 7); }

// The register an operand kind names, from the bits (and operand 0's, for Same).
unsigned registerOf(Opnd k, uint32_t w, unsigned first) {
  switch (k) {
    case Opnd::Rd: case Opnd::RdRs1: case Opnd::CRs1Hi: return rdOf(w);
    case Opnd::Rs1: return rs1Of(w);
    case Opnd::Rs2: return rs2Of(w);
    case Opnd::CRs2: return (w >> 2) & 31;
    case Opnd::CRdP: case Opnd::CRs2P: return prime(w >> 2);
    case Opnd::CRdP9: case Opnd::CRs1P9: case Opnd::CRdRs1P9: return prime(w >> 7);
    case Opnd::Same: return first;
    case Opnd::SpRd: case Opnd::SpRs1: return 2;
    case Opnd::Fd: return rdOf(w);
    case Opnd::Fs1: case Opnd::FRs1Rs2: return rs1Of(w);
    case Opnd::Fs2: return rs2Of(w);
    case Opnd::Fs3: return w >> 27;
    case Opnd::CFdP: case Opnd::CFs2P: return prime(w >> 2);
    case Opnd::CFs2: return (w >> 2) & 31;
    default: return 0;
  }
}

void appendOperand(std::string& s, Opnd k, uint32_t w, uint64_t address, unsigned xlen, unsigned first) {
  auto target = [&](int64_t offset) {
    uint64_t t = address + uint64_t(offset);
    appendHex(s, xlen == 32 ? (t & 0xffffffffull) : t);
  };
  auto memory = [&](unsigned base) {
    appendDecimal(s, extractImm(k, w));
    s += '(';
    s += gprName(base);
    s += ')';
  };
  if (isRegisterKind(k)) {
    s += gprName(registerOf(k, w, first));
    return;
  }
  if (isFloatRegisterKind(k)) {
    s += fprName(registerOf(k, w, first));
    return;
  }
  switch (k) {
    case Opnd::Rm: {  // objdump 2.40 prints the reserved 5 and 6 as "unknown"
      const char* name = kRoundingModes[(w >> 12) & 7];
      s += name ? name : "unknown";
      return;
    }
    case Opnd::ZeroImm: s += '0'; return;
    case Opnd::MemI: case Opnd::MemS: memory(rs1Of(w)); return;
    case Opnd::CMemLwsp: case Opnd::CMemLdsp: case Opnd::CMemSwsp: case Opnd::CMemSdsp: memory(2); return;
    case Opnd::CMemW: case Opnd::CMemD: memory(prime(w >> 7)); return;
    case Opnd::AmoAddr: s += '(' + std::string(gprName(rs1Of(w))) + ')'; return;
    case Opnd::BrB: case Opnd::BrJ: case Opnd::CBr: case Opnd::CJmp: target(extractImm(k, w)); return;
    case Opnd::ImmU: case Opnd::Shamt: case Opnd::ShamtW: case Opnd::CShamt: appendHex(s, uint64_t(extractImm(k, w))); return;
    case Opnd::CLui: appendHex(s, uint64_t(extractImm(k, w)) & 0xfffff); return;
    case Opnd::Csr: {
      unsigned n = unsigned(extractImm(k, w));
      if (auto name = csrName(n)) s += *name;
      else appendHex(s, n);
      return;
    }
    case Opnd::Pred: case Opnd::Succ: appendSet(s, unsigned(extractImm(k, w))); return;
    default: appendDecimal(s, extractImm(k, w)); return;
  }
}

}  // namespace

std::string disassemble(uint32_t bits, uint64_t address, unsigned xlen, bool rvc, Spelling spelling, bool fd) {
  unsigned length = lengthOf(uint16_t(bits));
  uint32_t w = length == 2 ? (bits & 0xffff) : bits;
  const Row* r = nullptr;
  if (length == 4 || (length == 2 && rvc)) r = spelling == Spelling::Aliases ? decodeAlias(w, xlen, rvc, fd) : decode(w, xlen, rvc, fd).row;
  std::string s;
  if (!r) {
    char buf[32];
    // objdump 2.40 prints an encoding it does not know by its length.
    snprintf(buf, sizeof buf, "%s\t0x%x", length == 2 ? ".2byte" : ".4byte", unsigned(w));
    return buf;
  }
  s += r->mnemonic;
  unsigned first = registerOf(r->operands[0], w, 0);
  bool any = false;
  for (Opnd k : r->operands) {
    if (k == Opnd::None || k == Opnd::LinkRa) continue;
    s += any ? ',' : '\t';
    any = true;
    appendOperand(s, k, w, address, xlen, first);
  }
  return s;
}

}  // namespace patchcheck::riscv
