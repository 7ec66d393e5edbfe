# ftrace_regs_caller for Linux x86-64 (arch/x86/kernel/ftrace_64.S, v6.6),
# same configuration and expansions as ftrace_caller.S (see there):
# MCOUNT_REG_SIZE 168, the pt_regs offsets of uapi/asm/ptrace-abi.h,
# __KERNEL_CS 0x10 and __KERNEL_DS 0x18 (GDT entries 2 and 3),
# ENCODE_FRAME_POINTER and CALL_DEPTH_ACCOUNT empty, RET and the
# ALTERNATIVE after .Ldo_rebalance (without X86_FEATURE_CALL_DEPTH) `ret`.
# Stack at the call of the tracer (rsp = the frame, regs):
#   rsp + 0..167	struct pt_regs
#   rsp + 168		the flags pushed on entry
#   rsp + 176		F + 5, pushed by F's call
#   rsp + 184		F's return address (F's rsp points here)
# After the tracer, RIP goes back to rsp + 176 (livepatch changes it), and
# a nonzero ORIG_RAX (arch_ftrace_set_direct_caller) makes the exit a jump
# to that direct trampoline, with F + 5 (or the new RIP) on the stack as
# if F had called it.
# Contract: ftrace_regs_caller.toml; proof: docs/trampolines.md.
ftrace_regs_caller:
	endbr64
	pushfq					# the flags, before anything changes them
	# save_mcount_regs 8
	subq	$168, %rsp
	movq	%rax, 80(%rsp)			# RAX
	movq	%rcx, 88(%rsp)			# RCX
	movq	%rdx, 96(%rsp)			# RDX
	movq	%rsi, 104(%rsp)			# RSI
	movq	%rdi, 112(%rsp)			# RDI
	movq	%r8, 72(%rsp)			# R8
	movq	%r9, 64(%rsp)			# R9
	movq	$0, 120(%rsp)			# ORIG_RAX
	movq	%rbp, %rdx
	movq	%rdx, 32(%rsp)			# RBP
	movq	184(%rsp), %rsi			# MCOUNT_REG_SIZE+8+8: parent ip
	movq	176(%rsp), %rdi			# MCOUNT_REG_SIZE+8: F + 5
	movq	%rdi, 128(%rsp)			# RIP
	subq	$5, %rdi			# ip: the call in F
	# end of save_mcount_regs
ftrace_regs_caller_op_ptr:
	movq	function_trace_op(%rip), %rdx	# ops (3rd argument)
	movq	%r15, 0(%rsp)			# R15: the rest of pt_regs
	movq	%r14, 8(%rsp)			# R14
	movq	%r13, 16(%rsp)			# R13
	movq	%r12, 24(%rsp)			# R12
	movq	%r11, 48(%rsp)			# R11
	movq	%r10, 56(%rsp)			# R10
	movq	%rbx, 40(%rsp)			# RBX
	movq	168(%rsp), %rcx			# the flags pushed
	movq	%rcx, 144(%rsp)			# EFLAGS
	movq	$0x18, %rcx			# __KERNEL_DS
	movq	%rcx, 160(%rsp)			# SS
	movq	$0x10, %rcx			# __KERNEL_CS
	movq	%rcx, 136(%rsp)			# CS
	leaq	184(%rsp), %rcx			# MCOUNT_REG_SIZE+8*2: F's rsp
	movq	%rcx, 152(%rsp)			# RSP
	leaq	(%rsp), %rcx			# regs (4th argument)
ftrace_regs_call:
	call	ftrace_ops_list_func
	movq	144(%rsp), %rax			# EFLAGS back where popfq reads them
	movq	%rax, 168(%rsp)
	movq	128(%rsp), %rax			# RIP: handlers can change it
	movq	%rax, 176(%rsp)
	movq	0(%rsp), %r15			# R15: the rest of pt_regs
	movq	8(%rsp), %r14			# R14
	movq	16(%rsp), %r13			# R13
	movq	24(%rsp), %r12			# R12
	movq	56(%rsp), %r10			# R10
	movq	40(%rsp), %rbx			# RBX
	movq	120(%rsp), %rax			# ORIG_RAX
	movq	%rax, 160(%rsp)			# MCOUNT_REG_SIZE-8
	testq	%rax, %rax			# nonzero: a direct call
ftrace_regs_caller_jmp:
	jnz	1f
	# restore_mcount_regs (save = 0)
	movq	32(%rsp), %rbp			# RBP
	movq	64(%rsp), %r9			# R9
	movq	72(%rsp), %r8			# R8
	movq	112(%rsp), %rdi			# RDI
	movq	104(%rsp), %rsi			# RSI
	movq	96(%rsp), %rdx			# RDX
	movq	88(%rsp), %rcx			# RCX
	movq	80(%rsp), %rax			# RAX
	addq	$168, %rsp
	popfq					# the flags as F had them
ftrace_regs_caller_end:
	ret
	# the direct call: swap the flags with ORIG_RAX
1:	movq	168(%rsp), %rdi
	movq	%rdi, 160(%rsp)
	movq	%rax, 168(%rsp)
	# restore_mcount_regs 8
	movq	32(%rsp), %rbp			# RBP
	movq	64(%rsp), %r9			# R9
	movq	72(%rsp), %r8			# R8
	movq	112(%rsp), %rdi			# RDI
	movq	104(%rsp), %rsi			# RSI
	movq	96(%rsp), %rdx			# RDX
	movq	88(%rsp), %rcx			# RCX
	movq	80(%rsp), %rax			# RAX
	addq	$160, %rsp
	popfq
	# a pointless call to keep the return stack buffer balanced; the ret
	# after it pops ORIG_RAX, leaving F + 5 at rsp for the direct trampoline
	call	.Ldo_rebalance
	int3
.Ldo_rebalance:
	add	$8, %rsp
	ret
