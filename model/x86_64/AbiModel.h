#pragma once
// The System V AMD64 ABI as the Linux kernel uses it (docs/semantics-x86.md;
// "System V Application Binary Interface, AMD64 Architecture Processor
// Supplement" 3.2; Linux arch/x86): rdi, rsi, rdx, rcx, r8, r9 carry the
// arguments; rax carries the number of vector registers a varargs call
// uses, so ftrace's trampolines keep it; rbx, rbp, r12-r15 are
// callee-saved; r10 and r11 are scratch; DF is clear at entry and return;
// the kernel builds with -mno-red-zone.
//
// Stack alignment departs from the ABI's 16 bytes: the kernel builds with
// -mpreferred-stack-boundary=3 (arch/x86/Makefile, cc_stack_align8: "the
// standard kernel entry on x86-64 leaves the stack on an 8-byte
// boundary"), so kernel code keeps rsp 8-byte aligned only, and a proof
// may assume no more.
//
// x86 has no link register: the return address is the word at rsp. The
// AbiModel's `link` is set to rsp to say "none"; the checker judges a call
// by the stack slot, not by a register.
#include <string>

#include "model/AbiModel.h"
#include "model/MachineState.h"

namespace patchcheck::x86_64 {

const AbiModel& abiModel();

// Every kernel entry state: rsp 8-byte aligned (either 16-byte phase) and
// at least AbiModel::kStackMargin bytes from either end of the address space.
z3::expr entryAssumptions(const MachineState&);

// A call to an external C function: rax, rcx, rdx, rsi, rdi, r8-r11 and the
// arithmetic flags become fresh values (tagged); rbx, rbp, r12-r15, rsp and
// the system flags keep theirs; DF is clear on return; memory below rsp may
// change, memory at and above it does not.
void callExternal(MachineState&, const std::string& name, unsigned tag);

}  // namespace patchcheck::x86_64
