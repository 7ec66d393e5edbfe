// The meaning of every row of the RISC-V table as Z3 terms, after the
// Unprivileged ISA's text (20240411) for each instruction. Where the
// architecture leaves a choice (a CSR's value, whether an SC succeeds, a
// misaligned access trapping) the model faults or takes a fresh value; it
// never picks the convenient outcome. docs/model-riscv.md says what is
// modelled and why, with the manual's sections.
#include "model/riscv/Semantics.h"

#include <string>

#include "encoder/Isa.h"
#include "model/Effect.h"
#include "model/riscv/FloatSemantics.h"
#include "model/riscv/RegisterFile.h"

namespace patchcheck::riscv {
namespace {

// CSRs whose writes enable or disable interrupts (Privileged ISA,
// "Supervisor Status Register", "Supervisor Interrupt Registers"; the
// machine-level ones likewise): local_irq_enable/disable are csrs/csrc
// sstatus, SR_SIE.
constexpr unsigned kSstatus = 0x100, kSie = 0x104, kMstatus = 0x300, kMie = 0x304;
// fflags, frm, fcsr (F, "Floating-Point Control and Status Register").
constexpr unsigned kFflags = 0x001, kFcsr = 0x003;

// Kernel code runs with sstatus.FS Off: handle_exception clears SR_FS (and
// SR_VS) on every trap entry "to detect illegal usage of floating point or
// vector in kernel space" (arch/riscv/kernel/entry.S), and the kernel's C
// code is built without F and D (arch/riscv/Makefile strips "fd" from
// -march). With FS Off, every F or D instruction and every access to
// fflags, frm or fcsr raises an illegal-instruction exception (Privileged
// ISA, "Extension Context Status in mstatus Register"). FS is Off at entry
// (RegisterFile.h) and on once the code sets it in sstatus.
constexpr uint64_t kSstatusFs = 3u << 13;
constexpr const char* kFsOff =
    "floating point with sstatus.FS Off, as kernel code runs (illegal instruction; docs/model-riscv.md)";

class Execution {
 public:
  Execution(MachineState& s, const Fetched& f, const z3::expr& pc, Features ft)
      : s_(s), f_(f), pc_(pc), c_(s.ctx), ft_(ft), w_(s.width()), o_(operandsOf(f, s.ctx)),
        effect_{Control{Control::Kind::None, c_.bool_val(false), pc, false, false}, {}} {}

  StepEffect run();

 private:
  MachineState& s_;
  const Fetched& f_;
  const z3::expr& pc_;
  z3::context& c_;
  Features ft_;
  unsigned w_;
  Operands o_;
  StepEffect effect_;

  z3::expr bv(uint64_t v, unsigned w) const { return c_.bv_val(v, w); }
  std::string text() const { return s_.target.isa->disassemble(f_.bits, f_.bytes, 0, s_.target); }

  // x0 reads as zero; writes to it are dropped.
  z3::expr X(unsigned r) const { return r == 0 ? bv(0, w_) : s_.reg(r); }
  void set(unsigned r, const z3::expr& v) {
    if (r != 0) s_.setReg(r, v.simplify());
  }
  z3::expr immW() const { return w_ == 64 ? o_.imm : o_.imm.extract(31, 0); }
  z3::expr boolValue(const z3::expr& b) const { return z3::ite(b, bv(1, w_), bv(0, w_)); }
  // A 32-bit result of an RV64 *W instruction, sign-extended (RV64I,
  // "Integer Computational Instructions").
  z3::expr word(const z3::expr& v32) const { return z3::sext(v32, 32); }
  z3::expr low32(unsigned r) const { return X(r).extract(31, 0); }

  void fault(FaultKind k, const z3::expr& when, const std::string& detail) {
    z3::expr w = when.simplify();
    if (w.is_false()) return;
    effect_.faults.push_back(Fault{k, w, detail.empty() ? text() : text() + ": " + detail});
  }
  void effect(std::string what, const z3::expr& address, EffectKind kind,
              std::optional<z3::expr> value = std::nullopt, Ordering ordering = Ordering::None) {
    s_.effects.push_back(SideEffect{std::move(what), address.simplify(), std::move(value), kind, ordering});
  }
  void transfer(const z3::expr& taken, const z3::expr& target) {
    effect_.control = Control{Control::Kind::Compact, taken.simplify(), target.simplify(), false, false};
  }
  // An address formed with XLEN-bit arithmetic, as the 64-bit term the
  // core keeps (RV32: sign-extended).
  z3::expr addressOf(unsigned base, const z3::expr& offset64) const {
    return s_.normalize(s_.address(X(base)) + offset64).simplify();
  }
  // Without C every instruction lies on a 4-byte boundary (IALIGN = 32): a
  // taken jump or branch elsewhere raises an instruction-address-
  // misaligned exception on the jump itself (RV32I, "Control Transfer
  // Instructions"). With C, IALIGN = 16 and no target can be misaligned
  // (offsets are even; jalr clears bit 0).
  void requireTargetAligned(const z3::expr& taken, const z3::expr& target) {
    if (ft_.compressed) return;
    fault(FaultKind::AddressError, taken && (target & bv(2, 64)) != bv(0, 64),
          "target not 4-byte aligned without the C extension (instruction-address-misaligned)");
  }
  // A load or store of `n` bytes at an address that may not be a multiple
  // of n: the EEI may carry it out or raise an address-misaligned
  // exception (RV32I, "Load and Store Instructions"); Linux then emulates
  // it in a trap handler, not atomically. AMOs and LR/SC always raise it
  // (A, "Atomic Memory Operations" without Zam).
  void requireAligned(const z3::expr& addr, unsigned n, const char* what) {
    if (n == 1) return;
    fault(FaultKind::AddressError, (addr & bv(n - 1, 64)) != bv(0, 64), what);
  }

  void jump();
  void branch(Op op);
  void load(Op op);
  void store(Op op);
  void immediateAlu(Op op);
  void registerAlu(Op op);
  void wordAlu(Op op);
  void multiplyDivide(Op op);
  void loadReserved(unsigned n);
  void storeConditional(unsigned n);
  void atomic(Op op);
  void fence(Op op);
  void csr(Op op);
};

void Execution::jump() {
  const Op op = f_.row()->op;
  z3::expr target = bv(0, 64);
  if (op == Op::Jal) {
    target = s_.normalize(pc_ + o_.imm).simplify();
  } else {
    // rs1 is read before rd is written (jalr ra, 0(ra)); bit 0 of the sum
    // is cleared (RV32I, "Unconditional Jumps").
    target = (addressOf(o_.rs1, o_.imm) & bv(~uint64_t(1), 64)).simplify();
  }
  requireTargetAligned(c_.bool_val(true), target);
  set(o_.rd, s_.fromAddress(s_.advance(pc_, f_.bytes)));
  transfer(c_.bool_val(true), target);
}

void Execution::branch(Op op) {
  z3::expr a = X(o_.rs1), b = X(o_.rs2);
  z3::expr taken = c_.bool_val(false);
  switch (op) {
    case Op::Beq: taken = a == b; break;
    case Op::Bne: taken = a != b; break;
    case Op::Blt: taken = z3::slt(a, b); break;
    case Op::Bge: taken = z3::sge(a, b); break;
    case Op::Bltu: taken = z3::ult(a, b); break;
    default: taken = z3::uge(a, b); break;  // bgeu
  }
  z3::expr target = s_.normalize(pc_ + o_.imm).simplify();
  requireTargetAligned(taken, target);
  transfer(taken, target);
}

void Execution::load(Op op) {
  unsigned n = op == Op::Lb || op == Op::Lbu ? 1 : op == Op::Lh || op == Op::Lhu ? 2 : op == Op::Ld ? 8 : 4;
  bool isSigned = op == Op::Lb || op == Op::Lh || op == Op::Lw;
  z3::expr addr = addressOf(o_.rs1, o_.imm);
  requireAligned(addr, n, "misaligned load (address-misaligned exception or trap emulation)");
  z3::expr v = s_.load(addr, n);
  if (8 * n < w_) v = isSigned ? z3::sext(v, w_ - 8 * n) : z3::zext(v, w_ - 8 * n);
  set(o_.rd, v);
}

void Execution::store(Op op) {
  unsigned n = op == Op::Sb ? 1 : op == Op::Sh ? 2 : op == Op::Sd ? 8 : 4;
  z3::expr addr = addressOf(o_.rs1, o_.imm);
  requireAligned(addr, n, "misaligned store (address-misaligned exception or trap emulation)");
  z3::expr v = X(o_.rs2);
  s_.store(addr, (8 * n < w_ ? v.extract(8 * n - 1, 0) : v).simplify(), n);
}

// Shift amounts: the immediate's low log2(XLEN) bits (RV32 has no shamt[5]:
// the table admits none), a register's low 5 or 6 bits.
void Execution::immediateAlu(Op op) {
  z3::expr a = X(o_.rs1), imm = immW();
  z3::expr shamt = imm & bv(w_ - 1, w_);
  switch (op) {
    case Op::Addi: set(o_.rd, a + imm); break;
    case Op::Slti: set(o_.rd, boolValue(z3::slt(a, imm))); break;
    case Op::Sltiu: set(o_.rd, boolValue(z3::ult(a, imm))); break;  // imm sign-extended, then unsigned
    case Op::Xori: set(o_.rd, a ^ imm); break;
    case Op::Ori: set(o_.rd, a | imm); break;
    case Op::Andi: set(o_.rd, a & imm); break;
    case Op::Slli: set(o_.rd, z3::shl(a, shamt)); break;
    case Op::Srli: set(o_.rd, z3::lshr(a, shamt)); break;
    default: set(o_.rd, z3::ashr(a, shamt)); break;  // srai
  }
}

void Execution::registerAlu(Op op) {
  z3::expr a = X(o_.rs1), b = X(o_.rs2);
  z3::expr shamt = b & bv(w_ - 1, w_);
  switch (op) {
    case Op::Add: set(o_.rd, a + b); break;
    case Op::Sub: set(o_.rd, a - b); break;
    case Op::Sll: set(o_.rd, z3::shl(a, shamt)); break;
    case Op::Slt: set(o_.rd, boolValue(z3::slt(a, b))); break;
    case Op::Sltu: set(o_.rd, boolValue(z3::ult(a, b))); break;
    case Op::Xor: set(o_.rd, a ^ b); break;
    case Op::Srl: set(o_.rd, z3::lshr(a, shamt)); break;
    case Op::Sra: set(o_.rd, z3::ashr(a, shamt)); break;
    case Op::Or: set(o_.rd, a | b); break;
    default: set(o_.rd, a & b); break;  // and
  }
}

// RV64I's *W instructions: 32-bit operations on the low words, the result
// sign-extended; shifts take 5-bit amounts.
void Execution::wordAlu(Op op) {
  z3::expr a = low32(o_.rs1);
  z3::expr imm = o_.imm.extract(31, 0);
  z3::expr b = low32(o_.rs2);
  z3::expr sh = (op == Op::Slliw || op == Op::Srliw || op == Op::Sraiw ? imm : b) & bv(31, 32);
  switch (op) {
    case Op::Addiw: set(o_.rd, word(a + imm)); break;
    case Op::Slliw: case Op::Sllw: set(o_.rd, word(z3::shl(a, sh))); break;
    case Op::Srliw: case Op::Srlw: set(o_.rd, word(z3::lshr(a, sh))); break;
    case Op::Sraiw: case Op::Sraw: set(o_.rd, word(z3::ashr(a, sh))); break;
    case Op::Addw: set(o_.rd, word(a + b)); break;
    default: set(o_.rd, word(a - b)); break;  // subw
  }
}

// M: division by zero and the one signed overflow do not trap; their
// results are fixed (M, "Division Operations", table of special cases):
// x / 0 = all ones, x % 0 = x, MIN / -1 = MIN, MIN % -1 = 0. Z3's bvsdiv
// by zero differs (1 for a negative dividend), so every case is explicit.
void Execution::multiplyDivide(Op op) {
  bool w32 = op == Op::Mulw || op == Op::Divw || op == Op::Divuw || op == Op::Remw || op == Op::Remuw;
  unsigned n = w32 ? 32 : w_;
  z3::expr a = w32 ? low32(o_.rs1) : X(o_.rs1), b = w32 ? low32(o_.rs2) : X(o_.rs2);
  z3::expr zero = bv(0, n), ones = bv(~uint64_t(0), n), min = bv(uint64_t(1) << (n - 1), n);
  z3::expr overflow = a == min && b == ones;
  auto high = [&](const z3::expr& x, const z3::expr& y) { return (x * y).extract(2 * n - 1, n); };
  z3::expr r = zero;
  switch (op) {
    case Op::Mul: case Op::Mulw: r = a * b; break;
    case Op::Mulh: r = high(z3::sext(a, n), z3::sext(b, n)); break;
    case Op::Mulhsu: r = high(z3::sext(a, n), z3::zext(b, n)); break;
    case Op::Mulhu: r = high(z3::zext(a, n), z3::zext(b, n)); break;
    case Op::Div: case Op::Divw: r = z3::ite(b == zero, ones, z3::ite(overflow, min, a / b)); break;
    case Op::Divu: case Op::Divuw: r = z3::ite(b == zero, ones, z3::udiv(a, b)); break;
    case Op::Rem: case Op::Remw: r = z3::ite(b == zero, a, z3::ite(overflow, zero, z3::srem(a, b))); break;
    default: r = z3::ite(b == zero, a, z3::urem(a, b)); break;  // remu, remuw
  }
  set(o_.rd, w32 ? word(r) : r);
}

// LR/SC (A, "Load-Reserved/Store-Conditional Instructions") on one hart:
// LR registers a reservation at its address; SC may succeed only while
// one is held, and may fail anyway (the reservation set is the
// implementation's; a failure is always allowed), so its outcome is a
// fresh choice. In concrete mode (QEMU's behaviour) it succeeds exactly
// when it meets the reservation's address. Every SC ends the reservation.
void Execution::loadReserved(unsigned n) {
  z3::expr addr = s_.address(X(o_.rs1));
  requireAligned(addr, n, "misaligned LR (address-misaligned exception)");
  z3::expr v = s_.load(addr, n);
  set(o_.rd, 8 * n < w_ ? z3::sext(v, w_ - 8 * n) : v);
  s_.regs[regfile::reservation] = c_.bool_val(true);
  s_.regs[regfile::reservationAddress] = addr;
}

void Execution::storeConditional(unsigned n) {
  z3::expr addr = s_.address(X(o_.rs1));
  requireAligned(addr, n, "misaligned SC (address-misaligned exception)");
  z3::expr held = s_.reg(regfile::reservation);
  z3::expr ok = s_.concrete ? held && s_.reg(regfile::reservationAddress) == addr
                            : held && s_.fresh("sc.succeeds", 0);
  ok = ok.simplify();
  z3::expr v = X(o_.rs2);
  v = 8 * n < w_ ? v.extract(8 * n - 1, 0) : v;
  if (!ok.is_false()) s_.store(addr, z3::ite(ok, v, s_.peek(addr, n)).simplify(), n);
  // A failure writes some nonzero code (QEMU: 1).
  z3::expr code = bv(1, w_);
  if (!s_.concrete) {
    z3::expr f = s_.fresh("sc.failure", w_);
    code = z3::ite(f == bv(0, w_), bv(1, w_), f);
  }
  set(o_.rd, z3::ite(ok, bv(0, w_), code));
  s_.regs[regfile::reservation] = c_.bool_val(false);
}

// AMOs as one load and one store of this hart (the other harts' view of
// their atomicity is the memory model's, not this step's).
void Execution::atomic(Op op) {
  bool d = op >= Op::LrD;
  unsigned n = d ? 8 : 4;
  z3::expr addr = s_.address(X(o_.rs1));
  requireAligned(addr, n, "misaligned AMO (address-misaligned exception)");
  z3::expr b = X(o_.rs2);
  if (!d) b = b.extract(31, 0);
  z3::expr old = s_.load(addr, n);
  z3::expr r = old;
  switch (d ? Op(unsigned(op) - unsigned(Op::LrD) + unsigned(Op::LrW)) : op) {
    case Op::AmoswapW: r = b; break;
    case Op::AmoaddW: r = old + b; break;
    case Op::AmoxorW: r = old ^ b; break;
    case Op::AmoandW: r = old & b; break;
    case Op::AmoorW: r = old | b; break;
    case Op::AmominW: r = z3::ite(z3::slt(old, b), old, b); break;
    case Op::AmomaxW: r = z3::ite(z3::sgt(old, b), old, b); break;
    case Op::AmominuW: r = z3::ite(z3::ult(old, b), old, b); break;
    default: r = z3::ite(z3::ugt(old, b), old, b); break;  // amomaxu
  }
  s_.store(addr, r.simplify(), n);
  set(o_.rd, 8 * n < w_ ? z3::sext(old, w_ - 8 * n) : old);
}

// FENCE pred, succ (RV32I, "Memory Ordering Instructions"): i = 8, o = 4,
// r = 2, w = 1. What it orders between memory accesses, as far as the
// core's orderings can say it without claiming more: rw,rw all; r,rw
// earlier loads before later accesses; w,w earlier stores before later
// stores. fence.tso orders all but store-before-load: both of the latter.
// Device input/output alone (fence w,o) orders no memory access.
void Execution::fence(Op op) {
  std::string what = text();
  if (op == Op::FenceI) {
    // Zifencei: this hart's later fetches see its earlier stores. The
    // fetch models (checker/fetch/) read it by its ContextSync ordering.
    effect(what, pc_, EffectKind::Barrier, std::nullopt, Ordering::ContextSync);
    return;
  }
  if (op == Op::FenceTso) {
    effect(what, pc_, EffectKind::Barrier, std::nullopt, Ordering::Loads);
    effect(what, pc_, EffectKind::Barrier, std::nullopt, Ordering::Stores);
    return;
  }
  unsigned p = o_.pred & 3, q = o_.succ & 3;
  Ordering ord = Ordering::None;
  if (p == 3 && q == 3) ord = Ordering::Full;
  else if ((p & 2) && q == 3) ord = Ordering::Loads;
  else if ((p & 1) && (q & 1)) ord = Ordering::Stores;
  effect(what, pc_, EffectKind::Barrier, std::nullopt, ord);
}

// Zicsr: a CSR's value is not the model's (a fresh value); a write is an
// effect the checker judges. csrrw with rd = x0 reads nothing, csrrs/csrrc
// with rs1 = x0 (or a zero immediate) write nothing (Zicsr, "CSR
// Instructions"). Linux runs in S-mode: an M-mode or hypervisor CSR
// (csr[9:8] > 1), or a write to a read-only one (csr[11:10] = 3), is an
// illegal instruction (Privileged ISA, "CSR Address Mapping Conventions").
void Execution::csr(Op op) {
  bool immediate = op == Op::Csrrwi || op == Op::Csrrsi || op == Op::Csrrci;
  bool swap = op == Op::Csrrw || op == Op::Csrrwi;
  z3::expr src = immediate ? z3::zext(o_.imm.extract(4, 0), w_ - 5) : X(o_.rs1);
  bool reads = !swap || o_.rd != 0;
  bool writes = swap || o_.rs1 != 0;  // the zimm field is where rs1 is
  unsigned n = o_.csr;
  bool floatState = s_.regs.size() > regfile::fsOn;
  if (n >= kFflags && n <= kFcsr) {
    // Without F these CSRs do not exist; with it, FS must be on.
    z3::expr on = floatState ? s_.reg(regfile::fsOn) : c_.bool_val(false);
    fault(FaultKind::ReservedInstruction, !on, kFsOff);
    if (on.simplify().is_false()) return;
    z3::expr old = readFloatCsr(s_, n, w_);
    if (writes) writeFloatCsr(s_, n, swap ? src : op == Op::Csrrs || op == Op::Csrrsi ? old | src : old & ~src);
    set(o_.rd, old);
    return;
  }
  if (((n >> 8) & 3) > 1) {
    fault(FaultKind::ReservedInstruction, c_.bool_val(true), "not an S-mode CSR (illegal instruction)");
    return;
  }
  if (writes && ((n >> 10) & 3) == 3) {
    fault(FaultKind::ReservedInstruction, c_.bool_val(true), "write to a read-only CSR (illegal instruction)");
    return;
  }
  z3::expr old = reads ? s_.fresh("csr." + std::to_string(n), w_) : bv(0, w_);
  if (reads) effect(text(), pc_, EffectKind::SystemRead);
  if (writes) {
    z3::expr v = swap ? src : op == Op::Csrrs || op == Op::Csrrsi ? old | src : old & ~src;
    bool interrupts = n == kSstatus || n == kSie || n == kMstatus || n == kMie;
    if (floatState && n == kSstatus) {
      // FS follows the bits written: set, kept, or (a partial clear of a
      // field whose value is unknown) possibly cleared.
      z3::expr fs = src & bv(kSstatusFs, w_), on = s_.reg(regfile::fsOn);
      z3::expr next = swap ? fs != bv(0, w_)
                      : op == Op::Csrrs || op == Op::Csrrsi
                          ? on || fs != bv(0, w_)
                          : z3::ite(fs == bv(kSstatusFs, w_), c_.bool_val(false),
                                    z3::ite(fs == bv(0, w_), on, on && s_.fresh("sstatus.FS", 0)));
      s_.regs[regfile::fsOn] = next.simplify();
    }
    effect(text(), pc_, interrupts ? EffectKind::InterruptEnable : EffectKind::SystemWrite, v.simplify());
  }
  set(o_.rd, old);
}

StepEffect Execution::run() {
  if (!f_.row()) {
    fault(FaultKind::ReservedInstruction, c_.bool_val(true), "no instruction of this target (illegal instruction)");
    return effect_;
  }
  const Op op = f_.row()->op;
  if (isFloatOp(op)) {
    // Decoded only on a variant with F and D, whose register file has their state.
    z3::expr on = s_.reg(regfile::fsOn);
    fault(FaultKind::ReservedInstruction, !on, kFsOff);
    if (on.simplify().is_false()) return effect_;
    for (Fault& x : executeFloat(s_, f_, o_, text())) {
      x.when = (x.when && on).simplify();
      effect_.faults.push_back(std::move(x));
    }
    return effect_;
  }
  switch (op) {
    case Op::Lui: set(o_.rd, immW()); break;
    case Op::Auipc: set(o_.rd, s_.fromAddress(s_.normalize(pc_ + o_.imm))); break;
    case Op::Jal: case Op::Jalr: jump(); break;
    case Op::Beq: case Op::Bne: case Op::Blt: case Op::Bge: case Op::Bltu: case Op::Bgeu: branch(op); break;
    case Op::Lb: case Op::Lh: case Op::Lw: case Op::Ld: case Op::Lbu: case Op::Lhu: case Op::Lwu: load(op); break;
    case Op::Sb: case Op::Sh: case Op::Sw: case Op::Sd: store(op); break;
    case Op::Addi: case Op::Slti: case Op::Sltiu: case Op::Xori: case Op::Ori: case Op::Andi: case Op::Slli:
    case Op::Srli: case Op::Srai:
      immediateAlu(op);
      break;
    case Op::Add: case Op::Sub: case Op::Sll: case Op::Slt: case Op::Sltu: case Op::Xor: case Op::Srl:
    case Op::Sra: case Op::Or: case Op::And:
      registerAlu(op);
      break;
    case Op::Addiw: case Op::Slliw: case Op::Srliw: case Op::Sraiw: case Op::Addw: case Op::Subw: case Op::Sllw:
    case Op::Srlw: case Op::Sraw:
      wordAlu(op);
      break;
    case Op::Fence: case Op::FenceTso: case Op::FenceI: fence(op); break;
    case Op::Ecall: fault(FaultKind::Syscall, c_.bool_val(true), "environment call"); break;
    case Op::Ebreak: fault(FaultKind::Break, c_.bool_val(true), "breakpoint"); break;
    case Op::Csrrw: case Op::Csrrs: case Op::Csrrc: case Op::Csrrwi: case Op::Csrrsi: case Op::Csrrci: csr(op); break;
    case Op::Mul: case Op::Mulh: case Op::Mulhsu: case Op::Mulhu: case Op::Div: case Op::Divu: case Op::Rem:
    case Op::Remu: case Op::Mulw: case Op::Divw: case Op::Divuw: case Op::Remw: case Op::Remuw:
      multiplyDivide(op);
      break;
    case Op::LrW: loadReserved(4); break;
    case Op::LrD: loadReserved(8); break;
    case Op::ScW: storeConditional(4); break;
    case Op::ScD: storeConditional(8); break;
    case Op::AmoswapW: case Op::AmoaddW: case Op::AmoxorW: case Op::AmoandW: case Op::AmoorW: case Op::AmominW:
    case Op::AmomaxW: case Op::AmominuW: case Op::AmomaxuW: case Op::AmoswapD: case Op::AmoaddD: case Op::AmoxorD:
    case Op::AmoandD: case Op::AmoorD: case Op::AmominD: case Op::AmomaxD: case Op::AmominuD: case Op::AmomaxuD:
      atomic(op);
      break;
    case Op::Sret:
      // To sepc with the privilege sstatus.SPP says: the pass leaves.
      effect(text(), pc_, EffectKind::ExceptionReturn);
      fault(FaultKind::Eret, c_.bool_val(true), "exception return");
      break;
    case Op::Mret: fault(FaultKind::ReservedInstruction, c_.bool_val(true), "M-mode instruction in S-mode"); break;
    case Op::Wfi:
      effect(text(), pc_, EffectKind::Wait);
      fault(FaultKind::Wait, c_.bool_val(true), "");
      break;
    case Op::SfenceVma: effect(text(), pc_, EffectKind::Tlb); break;
    case Op::Unimp: fault(FaultKind::ReservedInstruction, c_.bool_val(true), "defined illegal instruction"); break;
    default: break;  // the F and D ops, which fault above
  }
  return effect_;
}

}  // namespace

StepEffect execute(MachineState& state, const Fetched& f, const z3::expr& pc, Features ft) {
  return Execution(state, f, pc, ft).run();
}

}  // namespace patchcheck::riscv
