// The meaning of every row of the x86-64 subset as Z3 terms, after the
// Intel SDM's Operation sections. Where the SDM leaves a value undefined
// (some flags) the model takes a fresh value; it never picks the
// convenient outcome.
#include "model/x86_64/Semantics.h"

#include <string>

#include "model/x86_64/Flags.h"
#include "model/x86_64/InstructionTable.h"
#include "model/x86_64/Operands.h"
#include "model/x86_64/Registers.h"

namespace patchcheck::x86_64 {
namespace {

class Execution {
 public:
  Execution(MachineState& s, const Decoded& d, const z3::expr& pc)
      : s_(s), d_(d), pc_(pc), c_(s.ctx), ops_(s, d, pc),
        effect_{Control{Control::Kind::None, c_.bool_val(false), pc, false, false}, {}, false} {}

  StepEffect run();

 private:
  MachineState& s_;
  const Decoded& d_;
  const z3::expr& pc_;
  z3::context& c_;
  Operands ops_;
  StepEffect effect_;

  z3::expr bv(uint64_t v, unsigned w) const { return c_.bv_val(v, w); }
  unsigned width() const { return d_.insn.operand_width; }  // the operation's size
  std::string text() const {
    uint64_t at = 0;
    if (pc_.is_numeral()) pc_.is_numeral_u64(at);
    return d_.text(at);
  }
  // A fault that stops the instruction: nothing changes, pc stays at it.
  void trap(FaultKind k, const std::string& detail) {
    effect_.faults.push_back(Fault{k, c_.bool_val(true), detail});
    effect_.trapped = true;
  }
  void effect(std::string what, EffectKind kind, Ordering ordering = Ordering::None) {
    s_.effects.push_back(SideEffect{std::move(what), pc_, std::nullopt, kind, ordering});
  }
  void transfer(const z3::expr& taken, const z3::expr& target) {
    effect_.control = Control{Control::Kind::Compact, taken.simplify(), target.simplify(), false, false};
  }

  // --- the stack (64-bit stack width: rsp moves by the operand's size)
  z3::expr rsp() const { return s_.reg(reg::rsp); }
  void push(const z3::expr& v) {
    unsigned bytes = v.get_sort().bv_size() / 8;
    z3::expr top = (rsp() - bv(bytes, 64)).simplify();
    s_.store(top, v.simplify(), bytes);
    s_.setReg(reg::rsp, top);
  }
  z3::expr pop(unsigned bytes) {
    z3::expr v = s_.load(rsp(), bytes).simplify();
    s_.setReg(reg::rsp, (rsp() + bv(bytes, 64)).simplify());
    return v;
  }

  // The target of call/jmp: a displacement, or a register or memory value.
  z3::expr branchTarget() {
    return d_.operands[0].imm.is_relative && ops_.isImmediate(0) ? ops_.relativeTarget(0) : ops_.read(0);
  }
  // A value extended (or cut) to `bits`.
  static z3::expr resized(const z3::expr& v, unsigned bits, bool signExtend) {
    unsigned w = v.get_sort().bv_size();
    if (w == bits) return v;
    if (w > bits) return v.extract(bits - 1, 0);
    return signExtend ? z3::sext(v, bits - w) : z3::zext(v, bits - w);
  }

  void arithmetic(Op op);
  void shift(Op op);
  void stack(Op op);
};

void Execution::arithmetic(Op op) {
  unsigned w = ops_.bits(0);
  z3::expr a = ops_.read(0);
  FlagUpdate f;
  z3::expr no = c_.bool_val(false);
  std::optional<z3::expr> r;
  switch (op) {
    case Op::Add: r = add(a, ops_.read(1, w), no, f); break;
    case Op::Adc: r = add(a, ops_.read(1, w), s_.reg(reg::cf), f); break;
    case Op::Sub: r = subtract(a, ops_.read(1, w), no, f); break;
    case Op::Sbb: r = subtract(a, ops_.read(1, w), s_.reg(reg::cf), f); break;
    case Op::Cmp: subtract(a, ops_.read(1, w), no, f); break;
    case Op::And: r = a & ops_.read(1, w); f = logical(s_, *r); break;
    case Op::Or: r = a | ops_.read(1, w); f = logical(s_, *r); break;
    case Op::Xor: r = a ^ ops_.read(1, w); f = logical(s_, *r); break;
    case Op::Test: f = logical(s_, a & ops_.read(1, w)); break;
    case Op::Inc: r = add(a, bv(1, w), no, f); f.cf.reset(); break;   // CF unchanged
    case Op::Dec: r = subtract(a, bv(1, w), no, f); f.cf.reset(); break;
    case Op::Neg: r = subtract(bv(0, w), a, no, f); break;             // CF = (a != 0)
    case Op::Not: r = ~a; break;                                        // no flags
    default: break;
  }
  if (r) ops_.write(0, *r);
  apply(s_, f);
}

void Execution::shift(Op op) {
  unsigned w = ops_.bits(0);
  z3::expr a = ops_.read(0);
  // The count is masked to 5 bits (6 for 64-bit operands) first.
  z3::expr count = ops_.read(1, 8) & bv(w == 64 ? 0x3f : 0x1f, 8);
  count = resized(count, w, false).simplify();
  FlagUpdate f;
  Shift kind = op == Op::Shl ? Shift::Left : op == Op::Shr ? Shift::Logical : Shift::Arithmetic;
  z3::expr r = x86_64::shift(s_, kind, a, count, f);
  // Written even for a count of 0, so a 32-bit register is zero-extended
  // then too (as QEMU does; docs/semantics-x86.md).
  ops_.write(0, r);
  apply(s_, f);
}

void Execution::stack(Op op) {
  unsigned w = width();  // 64, or 16 with a 0x66 prefix
  switch (op) {
    case Op::Push: push(ops_.read(0, w)); break;  // push %rsp pushes the old value
    case Op::Pop: {
      z3::expr v = pop(w / 8);
      ops_.write(0, v);  // after rsp moved: pop (%rsp) and pop %rsp as the SDM says
      break;
    }
    case Op::Pushf: push(resized(flagsImage(s_), w, false)); break;
    case Op::Popf: loadFlags(s_, pop(w / 8), w); break;
    case Op::Leave: {
      s_.setReg(reg::rsp, s_.reg(reg::rbp));
      z3::expr v = pop(w / 8);
      writeRegister(s_, w == 64 ? ZYDIS_REGISTER_RBP : ZYDIS_REGISTER_BP, v);
      break;
    }
    default: break;
  }
}

StepEffect Execution::run() {
  if (d_.status == Decoded::Status::Invalid) {
    trap(FaultKind::ReservedInstruction, "(bad) " + d_.hex() + ": no x86-64 instruction (#UD)");
    return effect_;
  }
  if (d_.status == Decoded::Status::PlacementDependent) {
    trap(FaultKind::Unpredictable, d_.hex() + ": a byte the placement decides lies outside the immediate and "
                                          "displacement, so the instruction itself depends on the placement");
    return effect_;
  }
  const Row* row = rowFor(d_.insn, d_.operands.data());
  if (!row) {
    trap(FaultKind::ReservedInstruction, text() + ": not in patchcheck's x86-64 model, so taken as #UD: a pass "
                                                 "that runs it is refuted");
    return effect_;
  }
  const Op op = row->op;
  bool branch = op == Op::Call || op == Op::Jmp || op == Op::Jcc || op == Op::Ret;
  // Zydis decodes a 0x66 near branch as Intel does (the prefix ignored);
  // AMD makes it a 16-bit branch that cuts rip. Neither is assumed.
  if (branch && (width() != 64 || (d_.insn.attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE))) {
    trap(FaultKind::Unpredictable,
         text() + ": a 16-bit near branch (0x66 prefix): Intel ignores the prefix, AMD cuts rip to 16 bits");
    return effect_;
  }
  // A locked read-modify-write (and xchg with memory, locked without the
  // prefix) is a full barrier (SDM Vol. 3, 9.2.2).
  bool locked = (d_.insn.attributes & ZYDIS_ATTRIB_HAS_LOCK) ||
                (op == Op::Xchg && (ops_.isMemory(0) || ops_.isMemory(1)));
  if (locked) effect(text(), EffectKind::Barrier, Ordering::Full);

  switch (op) {
    case Op::Nop: break;  // nopl 0(%rax,%rax,1) reads no memory
    case Op::Int3: trap(FaultKind::Break, text() + " (#BP): no int3 handler takes this address"); break;
    case Op::Undefined: trap(FaultKind::ReservedInstruction, text() + " (#UD)"); break;
    case Op::Hlt:
      effect(text(), EffectKind::Wait);
      effect_.faults.push_back(Fault{FaultKind::Wait, c_.bool_val(true), text()});
      break;

    // --- control transfers (no delay slots: they take effect at once)
    case Op::Call: {
      z3::expr target = branchTarget();  // read before the push: call *(%rsp), call *%rsp
      push(ops_.next());
      transfer(c_.bool_val(true), target);
      break;
    }
    case Op::Jmp: transfer(c_.bool_val(true), branchTarget()); break;
    case Op::Jcc: transfer(conditionHolds(s_, row->cond), ops_.relativeTarget(0)); break;
    case Op::Ret: {
      z3::expr target = pop(8);
      if (row->arity == 1) s_.setReg(reg::rsp, (rsp() + z3::zext(ops_.read(0, 16), 48)).simplify());
      transfer(c_.bool_val(true), target);
      break;
    }

    case Op::Push: case Op::Pop: case Op::Pushf: case Op::Popf: case Op::Leave: stack(op); break;

    // --- moves
    case Op::Mov: ops_.write(0, ops_.read(1, ops_.bits(0))); break;
    case Op::Movzx: ops_.write(0, resized(ops_.read(1), ops_.bits(0), false)); break;
    case Op::Movsx: ops_.write(0, resized(ops_.read(1), ops_.bits(0), true)); break;
    case Op::Lea: ops_.write(0, resized(ops_.address(1), ops_.bits(0), false)); break;
    case Op::Xchg: {
      z3::expr a = ops_.read(0), b = ops_.read(1);
      ops_.write(0, b);
      ops_.write(1, a);
      break;
    }
    case Op::Cmovcc: {
      // The source is read (and a 32-bit destination zero-extended) whether
      // or not the condition holds.
      z3::expr src = ops_.read(1), dst = ops_.read(0);
      ops_.write(0, z3::ite(conditionHolds(s_, row->cond), src, dst));
      break;
    }
    case Op::Setcc: ops_.write(0, z3::ite(conditionHolds(s_, row->cond), bv(1, 8), bv(0, 8))); break;

    // --- arithmetic and logic
    case Op::Add: case Op::Adc: case Op::Sub: case Op::Sbb: case Op::Cmp: case Op::And: case Op::Or:
    case Op::Xor: case Op::Test: case Op::Inc: case Op::Dec: case Op::Neg: case Op::Not:
      arithmetic(op);
      break;
    case Op::Shl: case Op::Shr: case Op::Sar: shift(op); break;

    // --- flags and system
    case Op::Cld: s_.setReg(reg::df, c_.bool_val(false)); break;
    case Op::Std: s_.setReg(reg::df, c_.bool_val(true)); break;
    case Op::Cli: case Op::Sti: {
      z3::expr flags = s_.reg(reg::sysflags);
      z3::expr IF = bv(rflags::IF, 64);
      s_.setReg(reg::sysflags, (op == Op::Cli ? flags & ~IF : flags | IF).simplify());
      effect(text(), EffectKind::InterruptEnable);
      break;
    }
    case Op::Fence: {
      auto m = d_.insn.mnemonic;
      effect(text(), EffectKind::Barrier,
             m == ZYDIS_MNEMONIC_MFENCE ? Ordering::Full : m == ZYDIS_MNEMONIC_SFENCE ? Ordering::Stores : Ordering::Loads);
      break;
    }
  }
  return effect_;
}

}  // namespace

StepEffect execute(MachineState& state, const Decoded& d, const z3::expr& pc) { return Execution(state, d, pc).run(); }

}  // namespace patchcheck::x86_64
