# ftrace_caller for Linux x86-64 (arch/x86/kernel/ftrace_64.S, v6.6) with
# CONFIG_DYNAMIC_FTRACE_WITH_REGS and CONFIG_X86_KERNEL_IBT, without
# CONFIG_FRAME_POINTER, CONFIG_CALL_DEPTH_TRACKING, retpolines or return
# thunks, written out with its macros expanded:
#   SYM_FUNC_START	endbr64 (ANNOTATE_NOENDBR and the other objtool
#			annotations emit no code)
#   RET			ret
#   CALL_DEPTH_ACCOUNT	nothing
#   MCOUNT_REG_SIZE	FRAME_SIZE (168) + MCOUNT_FRAME_SIZE (0) = 168
#   pt_regs offsets	(uapi/asm/ptrace-abi.h) R15 0, R14 8, R13 16, R12 24,
#			RBP 32, RBX 40, R11 48, R10 56, R9 64, R8 72, RAX 80,
#			RCX 88, RDX 96, RSI 104, RDI 112, ORIG_RAX 120,
#			RIP 128, CS 136, EFLAGS 144, RSP 152, SS 160
#   MCOUNT_INSN_SIZE	5 (call rel32)
# F's `call ftrace_caller` (5 bytes at F) pushed F + 5. The patched call
# at ftrace_call (`call ftrace_stub` until ftrace_update_ftrace_func
# patches it) goes to ftrace_ops_list_func here, the symbol the contract
# names for whatever tracer it is patched to.
# Contract: ftrace_caller.toml; proof: docs/trampolines.md.
ftrace_caller:
	endbr64
	# save_mcount_regs (added = 0): a struct pt_regs (ftrace_regs) below
	# the return address
	subq	$168, %rsp
	movq	%rax, 80(%rsp)			# RAX
	movq	%rcx, 88(%rsp)			# RCX
	movq	%rdx, 96(%rsp)			# RDX
	movq	%rsi, 104(%rsp)			# RSI
	movq	%rdi, 112(%rsp)			# RDI
	movq	%r8, 72(%rsp)			# R8
	movq	%r9, 64(%rsp)			# R9
	movq	$0, 120(%rsp)			# ORIG_RAX
	movq	%rbp, %rdx			# no frame pointer: rbp as it is
	movq	%rdx, 32(%rsp)			# RBP
	movq	176(%rsp), %rsi			# MCOUNT_REG_SIZE+8: parent ip
	movq	168(%rsp), %rdi			# MCOUNT_REG_SIZE: F + 5
	movq	%rdi, 128(%rsp)			# RIP
	subq	$5, %rdi			# ip: the call in F
	# end of save_mcount_regs
	leaq	176(%rsp), %rcx			# MCOUNT_REG_SIZE+8: F's rsp
	movq	%rcx, 152(%rsp)			# RSP
ftrace_caller_op_ptr:
	movq	function_trace_op(%rip), %rdx	# ops (3rd argument)
	leaq	(%rsp), %rcx			# fregs (4th argument)
	movq	$0, 136(%rsp)			# CS: only SAVE_REGS ops see one
ftrace_call:
	call	ftrace_ops_list_func
	movq	128(%rsp), %rax			# RIP: handlers can change it
	movq	%rax, 168(%rsp)			# ... and ret goes there
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
ftrace_caller_end:
	ret
