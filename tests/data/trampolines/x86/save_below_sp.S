# A buggy copy of trampolines/x86/ftrace_caller.S (tests/unit/trampoline_proof_x86.cpp).
# Bug: rax is saved below rsp before the frame is allocated; an interrupt
# in between may overwrite it (the kernel's entry code pushes its frame
# there), and F resumes with whatever the interrupt left.
ftrace_caller:
	endbr64
	# save_mcount_regs (added = 0): a struct pt_regs (ftrace_regs) below
	# the return address
	movq	%rax, -88(%rsp)			# RAX, before the frame exists
	subq	$168, %rsp
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
